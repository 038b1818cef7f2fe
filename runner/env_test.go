package runner

import (
	"strings"
	"testing"
	"time"
)

// gateSecrets are gate's own variables, as an operator sets them; none may
// reach a command.
var gateSecrets = map[string]string{
	"GATE_TOKEN":          "secret-gate-token",
	"GATE_OPA_TOKEN":      "secret-opa-token",
	"GATE_TOKEN_FILE":     "/home/dev/.local/state/gate/token",
	"GATE_OPA_TOKEN_FILE": "/run/secrets/opa",
	"GATE_SETTINGS":       "/home/dev/proj/.qwen/gate.json",
}

// leaked lists the gate variables (names or values) an environment dump
// holds.
func leaked(dump string) []string {
	var out []string
	for k, v := range gateSecrets {
		if strings.Contains(dump, k) || strings.Contains(dump, v) {
			out = append(out, k)
		}
	}
	return out
}

// TestEnvironmentScrubbed runs real commands that print their whole
// environment, in every way the runner starts one, with gate's secrets in
// gate's own environment: none of them is inherited, and the rest is.
func TestEnvironmentScrubbed(t *testing.T) {
	for k, v := range gateSecrets {
		t.Setenv(k, v)
	}
	t.Setenv("KEEP_ME", "kept")
	const dump = "env; echo END-OF-ENV"
	check := func(t *testing.T, out string) {
		t.Helper()
		if !strings.Contains(out, "END-OF-ENV") {
			t.Fatalf("the command did not run to the end:\n%s", out)
		}
		if l := leaked(out); len(l) > 0 {
			t.Errorf("the command saw %v:\n%s", l, out)
		}
		if !strings.Contains(out, "KEEP_ME=kept") || !strings.Contains(out, "GATE=1") {
			t.Errorf("the command lost its ordinary environment:\n%s", out)
		}
	}
	t.Run("foreground", func(t *testing.T) {
		r := newTestRunner(t, Options{})
		check(t, run(t, r, fg(dump)).Stdout)
	})
	t.Run("foreground in a terminal", func(t *testing.T) {
		r := newTestRunner(t, Options{Interactive: true, Rows: 200, Cols: 200})
		check(t, run(t, r, fg(dump)).Stdout)
	})
	t.Run("background", func(t *testing.T) {
		r := newTestRunner(t, Options{})
		res := run(t, r, Request{Command: dump, IsBackground: true})
		var p Process
		for i := 0; i < 500; i++ {
			if p, _ = r.Background().Get(res.BackgroundPIDs[0]); !p.Running {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		check(t, p.Stdout)
	})
	t.Run("job left running", func(t *testing.T) {
		r := newTestRunner(t, Options{})
		check(t, run(t, r, fg("("+dump+") & wait")).Stdout)
	})
	for _, noPTY := range []bool{false, true} {
		name := "session"
		if noPTY {
			name = "session on pipes"
		}
		t.Run(name, func(t *testing.T) {
			r := newTestRunner(t, Options{NoPTY: noPTY})
			s, err := r.Sessions().Start(SessionRequest{Command: dump, Rows: 200, Cols: 200})
			if err != nil {
				t.Fatal(err)
			}
			waitExit(t, s)
			check(t, s.Raw())
		})
	}
}

func TestGateVariable(t *testing.T) {
	for name, want := range map[string]bool{
		"GATE_TOKEN": true, "GATE_OPA_TOKEN": true, "GATE_TOKEN_FILE": true, "gate_token": true, "GATE_SETTINGS": true,
		"GATE": false, "GATEWAY": false, "MY_GATE_TOKEN": false, "PATH": false,
	} {
		if got := GateVariable(name); got != want {
			t.Errorf("GateVariable(%q) = %v, want %v", name, got, want)
		}
	}
}
