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

// TestCountersStartAtZero: every counter family is exported before anything
// happens, with a series at 0 for each known label value, so that
// increase() sees the first event.
func TestCountersStartAtZero(t *testing.T) {
	m := New()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := map[string]float64{}
	families := map[string]bool{}
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "gate_") {
			continue
		}
		families[mf.GetName()] = true
		for _, s := range mf.Metric {
			var labels []string
			for _, l := range s.Label {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			series[mf.GetName()+"{"+strings.Join(labels, ",")+"}"] = s.GetCounter().GetValue() + s.GetGauge().GetValue()
		}
	}
	for _, want := range []string{
		"gate_decisions_total{decision=deny,reason=remote_unavailable,tool=run_shell_command}",
		"gate_decisions_total{decision=deny,reason=eval_timeout,tool=write_file}",
		"gate_decisions_total{decision=ask,reason=approval_required,tool=edit}",
		"gate_decisions_total{decision=allow,reason=allowed,tool=glob}",
		"gate_tool_calls_total{outcome=denied,tool=run_shell_command}",
		"gate_tool_calls_total{outcome=error,tool=other}",
		"gate_approvals_total{outcome=timeout,via=api}",
		"gate_approvals_total{outcome=refused,via=api}",
		"gate_sessions_total{outcome=started}",
		"gate_policy_reloads_total{result=error}",
		"gate_decision_logs_total{result=error}",
		"gate_bundle_loads_total{result=refused}",
		"gate_overload_total{cause=queue_full,stage=run}",
		"gate_overload_total{cause=queue_timeout,stage=decide}",
		"gate_queue_length{stage=decide}",
		"gate_approvals_pending{}",
	} {
		v, ok := series[want]
		if !ok || v != 0 {
			t.Errorf("%s: exported %v, value %v; want exported at 0", want, ok, v)
		}
	}
	for _, f := range []string{"gate_queue_wait_seconds", "gate_approvals_pending_bytes"} {
		if !families[f] {
			t.Errorf("%s is not exported", f)
		}
	}
	// The label sets stay bounded.
	if n := len(series); n > 1000 {
		t.Errorf("%d series before anything happened", n)
	}
}

func TestBuildInfo(t *testing.T) {
	m := New()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "gate_build_info" {
			continue
		}
		labels := map[string]string{}
		for _, l := range mf.GetMetric()[0].GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["version"] == "" || labels["revision"] == "" || !strings.HasPrefix(labels["goversion"], "go") || mf.GetMetric()[0].GetGauge().GetValue() != 1 {
			t.Fatalf("gate_build_info %v", mf)
		}
		return
	}
	t.Fatal("no gate_build_info")
}
