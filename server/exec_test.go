package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
	"github.com/gate-dev/gate/supervise"
	_ "github.com/gate-dev/gate/supervise/helper" // the test binary is also the supervisor helper
)

// supervisedGateway is a gateway whose commands run under the exec
// supervisor, and whose policies know it (input.layers has "exec").
func supervisedGateway(t *testing.T, s engine.Settings, ro runner.Options, policyDirs ...string) (*Gateway, string) {
	t.Helper()
	if ok, why := supervise.Available(); !ok {
		t.Skipf("SKIP: exec-time supervision is not available on this machine: %s", why)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	e, err := engine.New(context.Background(), engine.Options{Settings: s, Root: root, Home: t.TempDir(),
		Layers: []string{layers.Static, layers.Exec}, PolicyDirs: policyDirs})
	if err != nil {
		t.Fatal(err)
	}
	ro.Root, ro.KillGrace = root, 300*time.Millisecond
	ro.Env = testEnv(t)
	ro.Supervise = &runner.Supervision{Self: self}
	r, err := runner.New(ro)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return NewGateway(e, r, metrics.New(), nil), root
}

// With exec-time supervision, an interactive shell may be allowed under an
// exclude entry: every program started inside it is decided, so rm typed
// into it is killed before it runs, and reported.
func TestSupervisedSessionDecidesTypedCommands(t *testing.T) {
	g, root := supervisedGateway(t, yolo("run_shell_command(rm)"), interactive())
	victim := filepath.Join(root, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	start, err := g.StartSession(context.Background(), runner.SessionRequest{Command: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	if start.Session == nil {
		t.Fatalf("the session was refused: %+v", start.Decision)
	}
	s, err := g.Runner().Sessions().Get(start.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send("rm victim.txt; echo status=$?", "Enter"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	done := regexp.MustCompile(`status=[0-9]`)
	for !done.MatchString(s.Screen(false).Text) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed the status: %q", s.Screen(false).Text)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("victim.txt was deleted through a supervised session: %v", err)
	}
	if !strings.Contains(s.Screen(false).Text, "status=137") {
		t.Fatalf("rm was not killed: %q", s.Screen(false).Text)
	}
	if n := counter(t, g.Metrics(), "gate_exec_decisions_total", "reason", "command_excluded"); n < 1 {
		t.Fatalf("gate_exec_decisions_total{reason=command_excluded} = %v", n)
	}
}

// A call's result lists what was blocked at exec time, with the exec
// decision's id and reasons; the text layout says it too.
func TestCallReportsBlockedExecs(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("SKIP: python3 is not installed")
	}
	g, root := supervisedGateway(t, yolo("run_shell_command(rm)"), runner.Options{})
	victim := filepath.Join(root, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A script the static layer cannot read into runs rm under the name ls.
	if err := os.WriteFile(filepath.Join(root, "lie.py"), []byte("import os\nos.execv('/bin/rm', ['ls', 'victim.txt'])\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := g.Call(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{
		"command": "python3 lie.py; echo after", "is_background": false}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision.Decision != engine.Allow {
		t.Fatalf("static decision %+v: this case tests the exec layer", out.Decision)
	}
	res := out.Result.(*runner.Result)
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("victim.txt is gone: %v", err)
	}
	if len(res.Blocked) != 1 || filepath.Base(res.Blocked[0].Program) != "rm" || res.Blocked[0].DecisionID == "" ||
		res.Blocked[0].Reasons[0].Code != "command_excluded" || res.Stdout != "after\n" {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(out.Text, "\nBlocked: /") || !strings.Contains(out.Text, "blocked by configuration") {
		t.Fatalf("text %q", out.Text)
	}
}

// A team rule that asks at exec time holds the program stopped until a
// human answers through the approvals API: approved, it runs; denied, it
// is killed before it runs. Where nobody can answer, ask is deny.
func TestExecAskWaitsForApproval(t *testing.T) {
	dir := t.TempDir()
	rule := "package gate.exec.rules.team\n\nask contains {\"code\": \"touch_review\", \"message\": \"touch needs a review\"} if input.exec.name == \"touch\"\n"
	if err := os.WriteFile(filepath.Join(dir, "team.rego"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		approvals bool
		approve   bool
		made      bool
	}{
		{"approved", true, true, true},
		{"denied", true, false, false},
		{"nobody to ask", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, root := supervisedGateway(t, yolo(), runner.Options{}, dir)
			if tc.approvals {
				g.SetApprovals(NewApprovals(time.Minute, nil))
				go func() {
					for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
						if list := g.Approvals().List(); len(list) > 0 {
							_ = g.Approvals().Resolve(list[0].ID, tc.approve, "test", "")
							return
						}
					}
				}()
			}
			out, err := g.Call(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{
				"command": "touch made; echo done", "is_background": false}})
			if err != nil {
				t.Fatal(err)
			}
			res := out.Result.(*runner.Result)
			_, statErr := os.Stat(filepath.Join(root, "made"))
			if (statErr == nil) != tc.made || res.Stdout != "done\n" {
				t.Fatalf("made %v (want %v), result %+v", statErr == nil, tc.made, res)
			}
			if !tc.made {
				want := "touch_review"
				if !tc.approvals {
					want = "approval_unavailable"
				}
				if len(res.Blocked) != 1 || res.Blocked[0].Reasons[0].Code != want {
					t.Fatalf("blocked %+v, want %s", res.Blocked, want)
				}
			}
		})
	}
}
