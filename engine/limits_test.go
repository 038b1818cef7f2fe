package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/shellparse"
)

// A command over a parser limit is denied with command_too_complex, naming
// the limit, whatever the settings would allow; within the limits it is
// decided by the policies.
func TestDecideTooComplex(t *testing.T) {
	e, err := New(context.Background(), Options{Settings: Settings{ApprovalMode: ApprovalYolo}, Root: t.TempDir(), Home: t.TempDir(),
		Limits: shellparse.Limits{MaxBytes: 100, MaxSegments: 3, MaxDepth: 2, MaxWords: 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		command string
		limit   string // "" when allowed
	}{
		{"echo hi", ""},
		{strings.Repeat("x", 101), "length"},
		{"a; b; c; d", "segments"},
		{"echo $(echo $(echo $(echo x)))", "depth"},
		{"a | b | c | d", "depth"},
		{"echo {1..20}", "words"},
	} {
		d, err := e.Decide(context.Background(), shellCall(tc.command))
		if err != nil {
			t.Fatalf("%q: %v", tc.command, err)
		}
		if tc.limit == "" {
			if d.Decision != Allow {
				t.Errorf("%q: %+v", tc.command, d)
			}
			continue
		}
		if d.Decision != Deny || len(d.Reasons) != 1 || d.Reasons[0].Code != string(CodeCommandTooComplex) || !strings.Contains(d.Reasons[0].Message, "("+tc.limit+" limit)") {
			t.Errorf("%q: %+v, want a %s deny naming the %s limit", tc.command, d, CodeCommandTooComplex, tc.limit)
		}
	}
}

// Parsing runs within the decision's budget: a decision whose context has
// already ended is denied, not parsed to the end.
func TestDecideParseWithinBudget(t *testing.T) {
	e := newTestEngine(t, exclude())
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	d, err := e.Decide(ctx, shellCall("ls; echo hi"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != Deny || d.Reasons[0].Code != string(CodeCommandTooComplex) || !strings.Contains(d.Reasons[0].Message, "decision budget") {
		t.Fatalf("%+v", d)
	}
}

// A panic while deciding (here injected where the parser runs, as a parser
// bug would panic) is a deny with internal_error naming the panic, and the
// engine goes on deciding.
func TestDecidePanic(t *testing.T) {
	e := newTestEngine(t, exclude())
	SetParseHook(func(command string) {
		if command == "sh +o" {
			var argv []string
			_ = argv[3:] // the panic sh +o used to raise in unwrap.go
		}
	})
	t.Cleanup(func() { SetParseHook(nil) })
	d, err := e.Decide(context.Background(), shellCall("sh +o"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != Deny || d.Reasons[0].Code != string(CodeInternal) || !strings.Contains(d.Reasons[0].Message, "internal error: panic while deciding: runtime error: slice bounds out of range") {
		t.Fatalf("%+v", d)
	}
	if d, err := e.Decide(context.Background(), shellCall("ls")); err != nil || d.Decision != Allow {
		t.Fatalf("next decision: %+v, %v", d, err)
	}
}
