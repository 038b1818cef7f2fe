package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
)

// bundleServer serves whatever bundle was published last.
type bundleServer struct {
	mu   sync.Mutex
	body []byte
}

func (s *bundleServer) publish(bs []byte) {
	s.mu.Lock()
	s.body = bs
	s.mu.Unlock()
}

func (s *bundleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.body == nil {
		http.NotFound(w, r)
		return
	}
	w.Write(s.body)
}

// teamBundle is a bundle with one team rule denying program prog, signed
// with secret (HS256) when secret is set.
func teamBundle(t *testing.T, revision, prog, secret string) []byte {
	t.Helper()
	src := fmt.Sprintf("package gate.rules.team\n\ndeny contains {\"code\": \"team_rule\", \"message\": \"%s is not allowed by the team\"} if {\n\tsome seg in input.shell.segments\n\tseg.program == %q\n}\n", prog, prog)
	roots := []string{"gate/rules/team"}
	b := bundle.Bundle{
		Manifest: bundle.Manifest{Revision: revision, Roots: &roots},
		Data:     map[string]any{},
		Modules:  []bundle.ModuleFile{{URL: "/team.rego", Path: "/team.rego", Raw: []byte(src), Parsed: ast.MustParseModuleWithOpts(src, ast.ParserOptions{RegoVersion: ast.RegoV1})}},
	}
	if secret != "" {
		if err := b.GenerateSignature(bundle.NewSigningConfig(secret, "HS256", ""), "team", false); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := bundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func bundleConfig(url, secret string) []byte {
	signing := ""
	keys := ""
	if secret != "" {
		signing = `, "signing": {"keyid": "team"}`
		keys = fmt.Sprintf(`, "keys": {"team": {"algorithm": "HS256", "key": %q}}`, secret)
	}
	return []byte(fmt.Sprintf(`{
		"services": {"control": {"url": %q}},
		"bundles": {"team": {"service": "control", "resource": "/bundles/team.tar.gz",
			"polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}%s}}%s
	}`, url, signing, keys))
}

// replica starts a gateway on bundles from config.
func replica(t *testing.T, config []byte) *Gateway {
	t.Helper()
	root := t.TempDir()
	r, err := runner.New(runner.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGateway(nil, r, metrics.New(), nil)
	opts := engine.Options{Root: root, Home: t.TempDir(), Settings: engine.Settings{ApprovalMode: engine.ApprovalYolo}}
	build := func(mods map[string]*ast.Module, data map[string]any) (*engine.Engine, error) {
		pol, err := engine.LoadPolicies(nil)
		if err != nil {
			return nil, err
		}
		if err := pol.Add(mods, data); err != nil {
			return nil, err
		}
		return engine.NewWithPolicies(context.Background(), opts, pol)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m, err := g.StartBundles(ctx, config, "replica", build)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Stop(context.Background()); cancel() })
	return g
}

func decisionOf(t *testing.T, g *Gateway, command string) string {
	d, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command}})
	if err != nil {
		return "error: " + err.Error()
	}
	return d.Decision
}

// waitAll waits until every replica decides command as want.
func waitAll(t *testing.T, gs []*Gateway, command, want string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok := true
		for _, g := range gs {
			ok = ok && decisionOf(t, g, command) == want
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			for i, g := range gs {
				t.Logf("replica %d: %s -> %s", i, command, decisionOf(t, g, command))
			}
			t.Fatalf("not every replica decided %q as %s within %s", command, want, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBundlesAcrossReplicas publishes bundles to three replicas sharing one
// OPA configuration: a new bundle changes all their decisions within two
// polling intervals, a corrupt one is refused and the old policy keeps
// deciding.
func TestBundlesAcrossReplicas(t *testing.T) {
	bs := &bundleServer{}
	srv := httptest.NewServer(bs)
	defer srv.Close()
	config := bundleConfig(srv.URL, "")
	gs := []*Gateway{replica(t, config), replica(t, config), replica(t, config)}
	for _, g := range gs {
		if g.Ready() {
			t.Fatal("ready before any bundle")
		}
	}
	bs.publish(teamBundle(t, "r1", "curl", ""))
	waitAll(t, gs, "curl x", "deny", 5*time.Second)
	for _, g := range gs {
		if !g.Ready() {
			t.Fatal("not ready after the bundle")
		}
	}
	waitAll(t, gs, "wget x", "allow", time.Second)

	// A new revision, within two polling intervals (1 s each, plus slack).
	bs.publish(teamBundle(t, "r2", "wget", ""))
	waitAll(t, gs, "wget x", "deny", 3*time.Second)
	waitAll(t, gs, "curl x", "allow", time.Second)

	// A corrupt bundle is refused: r2 keeps deciding.
	bs.publish([]byte("this is not a tarball"))
	time.Sleep(2500 * time.Millisecond)
	waitAll(t, gs, "wget x", "deny", time.Second)
	waitAll(t, gs, "curl x", "allow", time.Second)
}

// TestSignedBundles refuses a bundle signed with the wrong key.
func TestSignedBundles(t *testing.T) {
	bs := &bundleServer{}
	srv := httptest.NewServer(bs)
	defer srv.Close()
	g := replica(t, bundleConfig(srv.URL, "right-secret"))
	bs.publish(teamBundle(t, "r1", "curl", "right-secret"))
	waitAll(t, []*Gateway{g}, "curl x", "deny", 5*time.Second)
	bs.publish(teamBundle(t, "r2", "wget", "wrong-secret"))
	time.Sleep(2500 * time.Millisecond)
	waitAll(t, []*Gateway{g}, "curl x", "deny", time.Second)
	waitAll(t, []*Gateway{g}, "wget x", "allow", time.Second)
	bs.publish(teamBundle(t, "r3", "wget", ""))
	time.Sleep(2500 * time.Millisecond)
	if decisionOf(t, g, "wget x") != "allow" {
		t.Fatal("an unsigned bundle was accepted where signatures are required")
	}
}

// TestDecisionLogUpload uploads decision logs with OPA's decision log
// plugin to a loopback receiver: the events carry gate's decision ids and
// are masked.
func TestDecisionLogUpload(t *testing.T) {
	bs := &bundleServer{}
	var mu sync.Mutex
	var events []map[string]any
	mux := http.NewServeMux()
	mux.Handle("/bundles/", bs)
	mux.HandleFunc("POST /logs", func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var batch []map[string]any
		if err := json.NewDecoder(zr).Decode(&batch); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		mu.Lock()
		events = append(events, batch...)
		mu.Unlock()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	config := []byte(fmt.Sprintf(`{
		"services": {"control": {"url": %q}},
		"bundles": {"team": {"service": "control", "resource": "/bundles/team.tar.gz", "polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}}},
		"decision_logs": {"service": "control", "reporting": {"min_delay_seconds": 1, "max_delay_seconds": 1}}
	}`, srv.URL))
	g := replica(t, config)
	bs.publish(teamBundle(t, "r1", "curl", ""))
	waitAll(t, []*Gateway{g}, "curl x", "deny", 5*time.Second)
	d, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": "DEPLOY_TOKEN=s3cr3t ls"}})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		var found map[string]any
		for _, e := range events {
			if e["decision_id"] == d.DecisionID {
				found = e
			}
		}
		mu.Unlock()
		if found != nil {
			if at(found, "input", "args", "command") != "DEPLOY_TOKEN=*** ls" || at(found, "result", "decision") != d.Decision || found["path"] != "gate/decision" {
				t.Fatalf("uploaded event %v", found)
			}
			if bsJSON, _ := json.Marshal(found); strings.Contains(string(bsJSON), "s3cr3t") {
				t.Fatal("the uploaded event holds the token")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("decision %s never uploaded (%d events)", d.DecisionID, len(events))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBundleLoadsCounted: a healthy start-up counts an activation and no
// refusal; a corrupt bundle is counted refused (and as a failed reload)
// while the last good policy keeps deciding; a server answering 404 is
// counted unavailable.
func TestBundleLoadsCounted(t *testing.T) {
	bs := &bundleServer{}
	srv := httptest.NewServer(bs)
	defer srv.Close()
	bs.publish(teamBundle(t, "r1", "curl", ""))
	g := replica(t, bundleConfig(srv.URL, ""))
	waitAll(t, []*Gateway{g}, "curl x", "deny", 5*time.Second)
	m := g.Metrics()
	loads := func(result string) float64 { return counter(t, m, "gate_bundle_loads_total", "result", result) }
	// the new policy decides a moment before its activation is counted
	waitFor(t, "the activation to be counted", func() bool { return loads("activated") >= 1 })
	if loads("activated") < 1 || loads("refused") != 0 || loads("unavailable") != 0 || counter(t, m, "gate_policy_reloads_total", "result", "error") != 0 {
		t.Fatalf("healthy start-up: activated %v refused %v unavailable %v reload errors %v", loads("activated"), loads("refused"),
			loads("unavailable"), counter(t, m, "gate_policy_reloads_total", "result", "error"))
	}

	bs.publish([]byte("this is not a tarball"))
	waitFor(t, "the corrupt bundle to be counted", func() bool { return loads("refused") >= 1 })
	if counter(t, m, "gate_policy_reloads_total", "result", "error") < 1 {
		t.Error("a refused bundle is not counted as a failed reload")
	}
	if decisionOf(t, g, "curl x") != "deny" {
		t.Fatal("the last good policy stopped deciding")
	}

	bs.publish(nil) // 404
	waitFor(t, "the missing bundle to be counted", func() bool { return loads("unavailable") >= 1 })
}
