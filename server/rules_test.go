package server

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
)

// rulesGateway is a gateway in the default approval mode whose "always
// allow" rules live in root/.gate/allowed.json.
func rulesGateway(t *testing.T, root string) *Gateway {
	t.Helper()
	rebuild := func(extra []string) (*engine.Engine, error) {
		return engine.New(context.Background(), engine.Options{Root: root, Home: t.TempDir(),
			Settings: engine.Settings{ApprovalMode: engine.ApprovalDefault, Allowed: extra}})
	}
	rules, err := LoadRules(root, rebuild)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rebuild(rules.Entries())
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	g := NewGateway(e, r, metrics.New(), nil)
	g.SetRules(rules)
	g.SetApprovals(NewApprovals(300*time.Millisecond, nil))
	return g
}

func TestAlwaysAllowRules(t *testing.T) {
	root := t.TempDir()
	g := rulesGateway(t, root)
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()

	done := make(chan response, 1)
	go func() { done <- post(t, c, srv.URL+"/v1/call", shell("git --version >/dev/null; echo ok && ls -a")) }()
	p := waitPending(t, srv.URL, c)
	r := post(t, c, srv.URL+"/v1/approvals/"+p["id"].(string)+"/approve", `{"by":"alice","always":true}`)
	if r.status != 200 {
		t.Fatalf("approve always: %d %v", r.status, r.body)
	}
	if got := <-done; got.status != 200 {
		t.Fatalf("call: %d %v", got.status, got.body)
	}
	var file struct{ Rules []Rule }
	bs, _ := os.ReadFile(filepath.Join(root, ".gate", "allowed.json"))
	json.Unmarshal(bs, &file)
	var entries []string
	for _, x := range file.Rules {
		entries = append(entries, x.Entry)
		if x.By != "alice" {
			t.Errorf("rule %+v not by alice", x)
		}
	}
	// One rule per program, leading words only: never the whole line.
	if want := []string{"run_shell_command(git)", "run_shell_command(echo ok)", "run_shell_command(ls)"}; !slices.Equal(entries, want) {
		t.Fatalf("rules %v, want %v", entries, want)
	}
	// Covered commands now run without asking; anything else still asks.
	for cmd, status := range map[string]int{"ls -la": 200, "echo ok": 200, "git log -1 >/dev/null; echo ok": 200, "git log -1 >/dev/null; echo done": 403, "ls; rm -rf x": 403, "echo okay": 403} {
		if r := post(t, c, srv.URL+"/v1/call", shell(cmd)); r.status != status {
			t.Errorf("%q: %d, want %d (%v)", cmd, r.status, status, r.body["decision"])
		}
	}
	// A new gateway on the same root has the rules; the operator revokes one.
	g2 := rulesGateway(t, root)
	srv2 := newServer(t, g2, HandlerOptions{})
	if r := get(t, srv2.Client(), srv2.URL+"/v1/rules"); len(r.body["rules"].([]any)) != 3 {
		t.Fatalf("rules after restart: %v", r.body)
	}
	req := srv2.URL + "/v1/rules?entry=" + url.QueryEscape("run_shell_command(ls)")
	if r := do(t, srv2.Client(), mustRequest(t, "DELETE", req)); r.status != 200 {
		t.Fatalf("revoke: %d %v", r.status, r.body)
	}
	if r := post(t, srv2.Client(), srv2.URL+"/v1/call", shell("ls")); r.status != 403 {
		t.Fatalf("revoked rule still allows: %d", r.status)
	}
	if r := do(t, srv2.Client(), mustRequest(t, "DELETE", req)); r.status != 404 {
		t.Fatalf("revoking twice: %d", r.status)
	}
}
