package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestLint(t *testing.T) {
	m := New()
	m.Decision("run_shell_command", "deny", "command_excluded", 80*time.Microsecond)
	m.ToolCall("run_shell_command", "ok", time.Second)
	m.SetPolicyRevision("embedded")
	problems, err := testutil.GatherAndLint(m.Registry)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

func TestLabelsBounded(t *testing.T) {
	m := New()
	m.Decision("rm -rf / tool", "maybe", "my free text reason", time.Millisecond)
	m.Decision("run_shell_command", "allow", "allowed", time.Millisecond)
	m.ToolCall("x", "exploded", 0)
	want := `
# HELP gate_decisions_total Policy decisions by tool, decision (allow, deny, ask) and first reason code.
# TYPE gate_decisions_total counter
gate_decisions_total{decision="allow",reason="allowed",tool="run_shell_command"} 1
gate_decisions_total{decision="deny",reason="custom",tool="other"} 1
# HELP gate_tool_calls_total Tool calls by tool and outcome (ok, failed, signaled, timeout, cancelled, background, error, denied).
# TYPE gate_tool_calls_total counter
gate_tool_calls_total{outcome="error",tool="other"} 1
`
	if err := testutil.GatherAndCompare(NonZero(m.Registry), strings.NewReader(want), "gate_decisions_total", "gate_tool_calls_total"); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(m.decisionDuration); n != 2 {
		t.Fatalf("%d duration series", n)
	}
}
