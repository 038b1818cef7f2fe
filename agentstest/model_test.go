package agentstest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The model server, without agents: each API's first request offering the
// tool gets the call, a request carrying its result gets the final text,
// and the result is recorded.
func TestModelServer(t *testing.T) {
	call := Call{Name: "run_shell_command", Args: map[string]any{"command": "echo hi"}}
	cases := []struct {
		api, path        string
		first, withReply string
		wantCall         string // in the first answer
	}{
		{"anthropic", "/v1/messages",
			`{"stream":true,"tools":[{"name":"run_shell_command"}],"messages":[{"role":"user","content":"go"}]}`,
			`{"stream":true,"tools":[{"name":"run_shell_command"}],"messages":[{"role":"user","content":"go"},
			  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_gate0"}]},
			  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_gate0","content":[{"type":"text","text":"hi out"}]}]}]}`,
			`"partial_json":"{\"command\":\"echo hi\"}"`},
		{"openai", "/v1/chat/completions",
			`{"stream":true,"tools":[{"function":{"name":"run_shell_command"}}],"messages":[{"role":"user","content":"go"}]}`,
			`{"stream":true,"tools":[{"function":{"name":"run_shell_command"}}],"messages":[{"role":"user","content":"go"},
			  {"role":"assistant","content":null},{"role":"tool","content":"hi out"}]}`,
			`"tool_calls":[{"function":{"arguments":"{\"command\":\"echo hi\"}","name":"run_shell_command"}`},
		{"gemini", "/v1beta/models/m:streamGenerateContent?alt=sse",
			`{"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],"contents":[{"role":"user","parts":[{"text":"go"}]}]}`,
			`{"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],"contents":[{"role":"user","parts":[{"text":"go"}]},
			  {"role":"model","parts":[{"functionCall":{"name":"run_shell_command"}}]},
			  {"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"hi out"}}}]}]}`,
			`"functionCall":{"args":{"command":"echo hi"},"name":"run_shell_command"}`},
	}
	for _, c := range cases {
		t.Run(c.api, func(t *testing.T) {
			s := NewServer(call)
			defer s.Close()
			post := func(body string) string {
				resp, err := http.Post(s.URL+c.path, "application/json", bytes.NewBufferString(body))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
					t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
				}
				return string(b)
			}
			if got := post(c.first); !strings.Contains(got, c.wantCall) {
				t.Errorf("first answer has no %s:\n%s", c.wantCall, got)
			}
			if got := post(c.withReply); !strings.Contains(got, Final) {
				t.Errorf("answer to the result is not the final text:\n%s", got)
			}
			if !s.Called() {
				t.Error("Called() = false after the call")
			}
			if r := s.Results(); len(r) != 1 || !strings.Contains(r[0], "hi out") {
				t.Errorf("Results() = %q, want the one tool result", r)
			}
			reqs := s.Requests()
			if len(reqs) != 2 || reqs[0].API != c.api || reqs[0].Answered != "call" || reqs[1].Answered != "final" {
				t.Errorf("requests = %+v", reqs)
			}
		})
	}
}
