package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

// TestWatchReload changes a policy directory under a running gateway: a
// good change takes effect without a restart, a broken one is refused and
// the last good policy keeps deciding.
func TestWatchReload(t *testing.T) {
	g := newGateway(t, yolo())
	dir := t.TempDir()
	reload := func() (*engine.Engine, string, error) {
		e, err := engine.New(context.Background(), engine.Options{Root: g.Runner().Root(), PolicyDirs: []string{dir},
			Settings: engine.Settings{ApprovalMode: engine.ApprovalYolo}})
		return e, Revision([]string{dir}), err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{dir}, reload); err != nil {
		t.Fatal(err)
	}
	decide := func() string {
		d, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": "curl x"}})
		if err != nil {
			t.Fatal(err)
		}
		return d.Decision
	}
	until := func(want string) {
		t.Helper()
		for i := 0; i < 300; i++ {
			if decide() == want {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("the decision never became %s", want)
	}
	if decide() != "allow" {
		t.Fatal("curl denied before any policy")
	}
	os.WriteFile(filepath.Join(dir, "net.rego"), []byte("package gate.rules.net\n\ndeny contains {\"code\": \"net\", \"message\": \"no network\"} if {\n\tsome s in input.shell.segments\n\ts.program == \"curl\"\n}\n"), 0o644)
	until("deny")
	os.WriteFile(filepath.Join(dir, "broken.rego"), []byte("package gate.rules.broken\n\ndeny contains if {\n"), 0o644)
	time.Sleep(5 * reloadDelay)
	if decide() != "deny" {
		t.Fatal("a broken policy changed the decision")
	}
	os.Remove(filepath.Join(dir, "broken.rego"))
	os.Remove(filepath.Join(dir, "net.rego"))
	until("allow")
	mfs, _ := g.Metrics().Registry.Gather()
	var got []string
	for _, mf := range mfs {
		if mf.GetName() == "gate_policy_reloads_total" {
			for _, m := range mf.Metric {
				got = append(got, m.Label[0].GetValue())
			}
		}
	}
	if strings.Join(got, ",") != "error,ok" {
		t.Fatalf("reload results %v", got)
	}
}
