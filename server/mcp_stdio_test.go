package server

import (
	"bytes"
	"strings"
	"testing"
)

// filterMessages passes messages through, line by line, and answers the
// rest: a line over the limit is skipped whole, and the next line is read.
func TestFilterMessages(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("x", MaxMCPLine) + `"}}`
	for _, tc := range []struct {
		name, in, out, answer string
	}{
		{"message", ping + "\n", ping + "\n", ""},
		{"crlf and blank lines", "\r\n\n" + ping + "\r\n", ping + "\n", ""},
		{"no final newline", ping, ping + "\n", ""},
		{"garbage", "garbage\n" + ping + "\n", ping + "\n", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not one JSON value"}}` + "\n"},
		{"too long", long + "\n" + ping + "\n", ping + "\n", `"code":-32600,"message":"Invalid Request: a message longer than`},
		{"response without id", `{"jsonrpc":"2.0","result":{}}` + "\n", "", `"id":null,"error":{"code":-32600`},
		{"bad id echoed", `{"jsonrpc":"2.0","id":"a","result":1,"method":3}` + "\n", "", `"id":"a","error":{"code":-32600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, answers bytes.Buffer
			if err := filterMessages(strings.NewReader(tc.in), &out, &answers); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.out {
				t.Errorf("passed %.200q, want %q", out.String(), tc.out)
			}
			if tc.answer == "" && answers.Len() > 0 || !strings.Contains(answers.String(), tc.answer) {
				t.Errorf("answered %q, want %q", answers.String(), tc.answer)
			}
		})
	}
}
