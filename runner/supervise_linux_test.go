//go:build linux

package runner

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/supervise"
)

func needSupervise(t testing.TB) {
	t.Helper()
	if ok, why := supervise.Available(); !ok {
		t.Skip("SKIP: exec supervision is not available on this machine: " + why)
	}
}

func needConfine(t testing.TB, mountNS bool) {
	t.Helper()
	needSupervise(t)
	st := confine.Probe()
	if !st.Active() || (mountNS && !st.MountNS) {
		t.Skip("SKIP: filesystem confinement is not available on this machine: " + st.String())
	}
}

func needTool(t testing.TB, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		t.Skipf("SKIP: %s is not installed", prog)
	}
	return p
}

// denying is a decider that denies programs by base name.
func denying(names ...string) supervise.Decider {
	return func(_ context.Context, e supervise.Exec) supervise.Verdict {
		for _, n := range names {
			if path.Base(e.Program) == n {
				return supervise.Verdict{Reason: "excluded: " + n}
			}
		}
		return supervise.Verdict{Allow: true}
	}
}

// supervisedRunner is a runner whose calls are decided by d (as the
// runner's default), confined by spec when set.
func supervisedRunner(t *testing.T, root string, d supervise.Decider, spec *confine.Spec) *Runner {
	t.Helper()
	needSupervise(t)
	return newTestRunner(t, Options{Root: root, Supervise: &Supervision{Self: self(t), Default: d, Confine: spec}})
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustExist(t *testing.T, p, want string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%s is gone: %v", p, err)
	}
	if string(b) != want {
		t.Fatalf("%s changed: %q, want %q", p, b, want)
	}
}

func checkBlockedRM(t *testing.T, res *Result) {
	t.Helper()
	found := false
	for _, b := range res.Blocked {
		if path.Base(b.Program) == "rm" && len(b.Reasons) > 0 && strings.Contains(b.Reasons[0].Message, "excluded: rm") {
			found = true
		}
	}
	if !found {
		t.Errorf("blocked does not list rm: %+v", res.Blocked)
	}
	if !strings.Contains(res.Text(), "\nBlocked: ") || !strings.Contains(res.Text(), "/rm (") {
		t.Errorf("text has no Blocked line naming rm:\n%s", res.Text())
	}
}

// TestDeniedExecsDoNotRun runs rm through routes the static layer cannot
// see: each time the victim survives and the result names the blocked rm.
func TestDeniedExecsDoNotRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		command string
		// killed: the shell itself was the rm (exec'd directly), so the
		// command's status is the kill.
		killed bool
		code   int // exit status the shell reports for a killed child
	}{
		{name: "rm", command: "rm victim", killed: true},
		{name: "BASH_CMDS", command: "BASH_CMDS[ls]=/bin/rm; ls victim; echo status=$?", code: 0},
		{name: "child", command: "rm victim; exit $?", code: 137},
		{name: "setsid", command: "setsid sh -c 'rm victim'; true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			victim := filepath.Join(root, "victim")
			writeFile(t, victim, "keep")
			r := supervisedRunner(t, root, denying("rm"), nil)
			res, err := r.Run(context.Background(), Request{Command: tc.command})
			if err != nil {
				t.Fatal(err)
			}
			mustExist(t, victim, "keep")
			checkBlockedRM(t, res)
			switch {
			case tc.killed:
				if res.Signal == nil || *res.Signal != int(syscall.SIGKILL) {
					t.Errorf("signal = %v, want SIGKILL:\n%s", res.Signal, res.Text())
				}
			case tc.code != 0:
				if res.ExitCode == nil || *res.ExitCode != tc.code {
					t.Errorf("exit code = %v, want %d:\n%s", res.ExitCode, tc.code, res.Text())
				}
			}
			if tc.name == "BASH_CMDS" && !strings.Contains(res.Stdout, "status=137") {
				t.Errorf("the shell did not see the kill: %q", res.Stdout)
			}
			if !slicesContain(res.Layers, layers.Exec) {
				t.Errorf("layers = %v, want exec", res.Layers)
			}
		})
	}
}

func slicesContain(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestDeniedExecInBackground: a background call, and a job a foreground
// command leaves running, are decided as well.
func TestDeniedExecInBackground(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"is_background", Request{Command: "sleep 0.2; rm victim", IsBackground: true}},
		{"left with &", Request{Command: "(sleep 0.2; rm victim) &"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			victim := filepath.Join(root, "victim")
			writeFile(t, victim, "keep")
			r := supervisedRunner(t, root, denying("rm"), nil)
			res, err := r.Run(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.BackgroundPIDs) == 0 {
				t.Fatalf("no background pids: %s", res.Text())
			}
			pid := res.PGID
			var p Process
			deadline := time.Now().Add(10 * time.Second)
			for {
				if p, err = r.Background().Get(pid); err != nil {
					t.Fatal(err)
				}
				if (!p.Running && !p.grpAlive(r)) || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			mustExist(t, victim, "keep")
			if len(p.Blocked) == 0 || path.Base(p.Blocked[0].Program) != "rm" {
				t.Errorf("background process blocked = %+v", p.Blocked)
			}
		})
	}
}

// grpAlive reports whether the tracked tree of p still has processes.
func (p Process) grpAlive(r *Runner) bool {
	r.bg.mu.Lock()
	q := r.bg.procs[p.PID]
	r.bg.mu.Unlock()
	return q != nil && q.grp.alive()
}

// TestDeniedExecInSession: rm typed into a supervised bash session is
// killed before it runs.
func TestDeniedExecInSession(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	writeFile(t, victim, "keep")
	r := supervisedRunner(t, root, denying("rm"), nil)
	s, err := r.Sessions().Start(SessionRequest{Command: "bash --norc --noprofile -i"})
	if err != nil {
		t.Fatal(err)
	}
	if !s.PTY {
		t.Skip("SKIP: no pseudo-terminal on this machine: " + s.Notice)
	}
	if err := s.Send("rm victim; echo rm-status=$?", "enter"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.Screen(false).Text, "rm-status=137") {
		if time.Now().After(deadline) {
			t.Fatalf("no status line:\n%s", s.Screen(false).Text)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mustExist(t, victim, "keep")
	sc := s.Screen(false)
	if len(sc.Blocked) != 1 || path.Base(sc.Blocked[0].Program) != "rm" {
		t.Errorf("session blocked = %+v", sc.Blocked)
	}
	s.Kill("killed")
}

// TestNoDeciderRefused: under supervision, a call without a decider (and
// no default) does not run.
func TestNoDeciderRefused(t *testing.T) {
	root := t.TempDir()
	r := supervisedRunner(t, root, nil, nil)
	_, err := r.Run(context.Background(), Request{Command: "touch ran"})
	var me *layers.MissingError
	if !errorsAs(err, &me) || me.Layer != layers.Exec {
		t.Fatalf("err = %v, want a missing exec layer", err)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Fatal("the command ran")
	}
	if _, err := r.Sessions().Start(SessionRequest{Command: "touch ran"}); !errorsAs(err, &me) {
		t.Fatalf("session: err = %v", err)
	}
}

// TestRequiredLayerRefused: a required layer that is not active refuses
// every command.
func TestRequiredLayerRefused(t *testing.T) {
	root := t.TempDir()
	r := newTestRunner(t, Options{Root: root, Require: []string{layers.FS}})
	_, err := r.Run(context.Background(), Request{Command: "touch ran"})
	var me *layers.MissingError
	if !errorsAs(err, &me) || me.Layer != layers.FS {
		t.Fatalf("err = %v, want a missing fs layer", err)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Fatal("the command ran")
	}
}

// alivePIDs returns those of pids that still exist (zombies excluded).
func alivePIDs(pids []int) []int {
	var out []int
	for _, p := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i > 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// escapees starts processes that leave the process group: a setsid'd
// sleep and a double-forked one, each writing its pid to a file.
const escapees = `setsid sh -c 'echo $$ > s.pid; exec sleep 100' & (sh -c 'echo $$ > d.pid; exec sleep 100' &) ; ` +
	`while [ ! -s s.pid ] || [ ! -s d.pid ]; do sleep 0.05; done; `

func readPIDs(t *testing.T, root string) []int {
	t.Helper()
	var pids []int
	for _, f := range []string{"s.pid", "d.pid"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, n)
	}
	return pids
}

func waitPIDsGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(alivePIDs(pids)) > 0 {
		if time.Now().After(deadline) {
			for _, p := range alivePIDs(pids) {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("processes survived: %v", pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTreeKilled: timeout, cancel, Shutdown and Background.Stop end
// setsid'd and double-forked children too.
func TestTreeKilled(t *testing.T) {
	for _, how := range []string{"timeout", "cancel", "shutdown", "background stop", "left behind, shutdown"} {
		t.Run(how, func(t *testing.T) {
			root := t.TempDir()
			r := supervisedRunner(t, root, allowAll, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := Request{Command: escapees + "sleep 100"}
			switch how {
			case "timeout":
				req.Timeout = 2 * time.Second
			case "background stop":
				req.IsBackground = true
			case "left behind, shutdown":
				req.Command = escapees + "true"
			}
			type out struct {
				res *Result
				err error
			}
			ch := make(chan out, 1)
			go func() {
				res, err := r.Run(ctx, req)
				ch <- out{res, err}
			}()
			deadline := time.Now().Add(10 * time.Second)
			for {
				_, e1 := os.Stat(filepath.Join(root, "s.pid"))
				_, e2 := os.Stat(filepath.Join(root, "d.pid"))
				if e1 == nil && e2 == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the command did not start its children")
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond) // the pid files are written before exec
			pids := readPIDs(t, root)
			switch how {
			case "cancel":
				cancel()
			case "shutdown":
				go r.Shutdown(context.Background())
			case "background stop", "left behind, shutdown":
				o := <-ch
				if o.err != nil {
					t.Fatal(o.err)
				}
				if how == "background stop" {
					if _, err := r.Background().Stop(o.res.PGID); err != nil {
						t.Fatal(err)
					}
				} else {
					r.Shutdown(context.Background())
				}
				waitPIDsGone(t, pids)
				return
			}
			o := <-ch
			if o.err != nil {
				t.Fatal(o.err)
			}
			waitPIDsGone(t, pids)
			if how == "timeout" && !o.res.TimedOut {
				t.Errorf("not timed out: %s", o.res.Text())
			}
		})
	}
}
