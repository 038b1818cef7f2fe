package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// realBash is a case run for real: a fresh engine under exclude rm, whose
// root a setup script prepared; the command is decided, then run by real
// bash in that root, and the test looks at what it did.
type realBash struct {
	t    *testing.T
	e    *Engine
	root string
	out  string // see outside
	home string // HOME for a run, when a row needs to know it
}

// newRealBash makes the engine and runs setup (a bash script, given args as
// $1...) in its root.
func newRealBash(t *testing.T, setup string, args ...string) *realBash {
	t.Helper()
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	r := &realBash{t: t, e: e, root: e.resolver.Root()}
	if setup != "" {
		cmd := exec.Command("bash", append([]string{"-c", "set -e; " + setup, "bash"}, args...)...)
		cmd.Dir = r.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup: %v %s", err, out)
		}
	}
	return r
}

// decide decides command as run_shell_command.
func (r *realBash) decide(command string) Decision {
	r.t.Helper()
	d, err := r.e.Decide(context.Background(), shellCall(command))
	if err != nil {
		r.t.Fatal(err)
	}
	return d
}

// run runs command in real bash in the root, with env added to the
// environment; its status does not matter, its effects do.
func (r *realBash) run(command string, env ...string) []byte {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = r.root
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.CombinedOutput()
	return out
}

// exists reports whether name (relative to the root) exists.
func (r *realBash) exists(name string) bool {
	_, err := os.Stat(filepath.Join(r.root, name))
	return err == nil
}
