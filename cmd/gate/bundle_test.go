package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
)

// teamBundle is a bundle whose one rule denies running prog.
func teamBundle(t *testing.T, revision, prog string) []byte {
	t.Helper()
	src := fmt.Sprintf("package gate.rules.team\n\ndeny contains {\"code\": \"team_rule\", \"message\": \"no %s\"} if {\n\tsome seg in input.shell.segments\n\tseg.program == %q\n}\n", prog, prog)
	roots := []string{"gate/rules/team"}
	var buf bytes.Buffer
	err := bundle.NewWriter(&buf).Write(bundle.Bundle{Manifest: bundle.Manifest{Revision: revision, Roots: &roots}, Data: map[string]any{},
		Modules: []bundle.ModuleFile{{URL: "/team.rego", Path: "/team.rego", Raw: []byte(src), Parsed: ast.MustParseModuleWithOpts(src, ast.ParserOptions{RegoVersion: ast.RegoV1})}}})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestServeReplicasWithBundles runs three gate serve replicas with one OPA
// configuration against a loopback bundle server: none is ready before a
// bundle is activated; a new bundle changes all three replicas' decisions
// within two polling intervals, without a restart; a corrupt bundle is
// refused and the last good policy keeps deciding.
func TestServeReplicasWithBundles(t *testing.T) {
	var mu sync.Mutex
	var published []byte
	bundles := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if published == nil {
			http.NotFound(w, r)
			return
		}
		w.Write(published)
	}))
	defer bundles.Close()
	publish := func(bs []byte) { mu.Lock(); published = bs; mu.Unlock() }
	const poll = time.Second
	config := filepath.Join(t.TempDir(), "opa.json")
	os.WriteFile(config, []byte(fmt.Sprintf(`{"services": {"s": {"url": %q}}, "bundles": {"team": {"service": "s", "resource": "/b.tar.gz", "polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}}}}`, bundles.URL)), 0o644)

	tokenFile := privateState(t) // the replicas share one state directory, so one token
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	var urls []string
	for range 3 {
		addr := freeAddr(t)
		urls = append(urls, "http://"+addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			runGate(t, ctx, "serve", "--root", t.TempDir(), "--listen", addr, "--approval-mode", "yolo", "--opa-config", config)
		}()
	}
	status := func(url string) int {
		resp, err := http.Get(url + "/readyz")
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	decide := func(url, command string) string {
		token, _ := os.ReadFile(tokenFile)
		resp, err := http.DefaultClient.Do(apiRequest("POST", url+"/v1/decide", strings.TrimSpace(string(token)),
			`{"tool":"run_shell_command","args":{"command":`+fmt.Sprintf("%q", command)+`,"is_background":false}}`))
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		var d struct{ Decision string }
		json.NewDecoder(resp.Body).Decode(&d)
		return d.Decision
	}
	// all waits until every replica decides command as want.
	all := func(command, want string, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			ok := true
			for _, u := range urls {
				ok = ok && decide(u, command) == want
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("not every replica decided %q as %s within %s", command, want, within)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for _, u := range urls {
		for i := 0; i < 300 && status(u) == 0; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		if s := status(u); s != 503 {
			t.Fatalf("%s readyz before any bundle: %d", u, s)
		}
	}
	publish(teamBundle(t, "r1", "curl"))
	all("echo $(curl -s x)", "deny", 2*poll+time.Second)
	for _, u := range urls {
		if s := status(u); s != 200 {
			t.Fatalf("%s readyz after the bundle: %d", u, s)
		}
	}
	publish(teamBundle(t, "r2", "wget"))
	all("wget x", "deny", 2*poll+time.Second)
	all("curl x", "allow", time.Second)
	publish([]byte("not a bundle"))
	time.Sleep(2*poll + 500*time.Millisecond)
	all("wget x", "deny", time.Second)
	all("curl x", "allow", time.Second)
}
