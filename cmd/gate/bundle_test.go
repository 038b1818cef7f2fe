package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	return bundleOf(t, revision, src)
}

// bundleOf is a bundle of one module, under the root gate/rules/team.
func bundleOf(t *testing.T, revision, src string) []byte {
	t.Helper()
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

// TestServeRefusesBundleFailingEvaluation: a bundle whose module compiles
// but fails at evaluation (to_number of a program name, an error under
// strict built-in errors) is smoke-evaluated and refused like a reloaded
// file: the last good bundle keeps deciding (no policy_error deny), the
// refusal is counted, and a later good bundle is activated.
func TestServeRefusesBundleFailingEvaluation(t *testing.T) {
	var mu sync.Mutex
	var published []byte
	bundles := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Write(published)
	}))
	defer bundles.Close()
	publish := func(bs []byte) { mu.Lock(); published = bs; mu.Unlock() }
	publish(teamBundle(t, "r1", "curl"))
	config := filepath.Join(t.TempDir(), "opa.json")
	os.WriteFile(config, []byte(fmt.Sprintf(`{"services": {"s": {"url": %q}}, "bundles": {"team": {"service": "s", "resource": "/b.tar.gz", "polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}}}}`, bundles.URL)), 0o644)
	s := startServe(t, "--approval-mode", "yolo", "--opa-config", config)
	tok := s.token(t)
	decide := func(command string) (string, string) {
		resp, err := http.DefaultClient.Do(apiRequest("POST", s.url+"/v1/decide", tok,
			`{"tool":"run_shell_command","args":{"command":`+fmt.Sprintf("%q", command)+`,"is_background":false}}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var d struct {
			Decision string
			Reasons  []struct{ Code string }
		}
		json.NewDecoder(resp.Body).Decode(&d)
		if len(d.Reasons) == 0 {
			return d.Decision, ""
		}
		return d.Decision, d.Reasons[0].Code
	}
	metric := func(series string) string {
		resp, err := http.DefaultClient.Do(apiRequest("GET", s.url+"/metrics", tok, ""))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		io.Copy(&b, resp.Body)
		for _, line := range strings.Split(b.String(), "\n") {
			if v, ok := strings.CutPrefix(line, series+" "); ok {
				return v
			}
		}
		return ""
	}
	eventually := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s\n%s", what, s.stderr)
			}
		}
	}
	eventually("bundle r1 to deny curl", func() bool { d, c := decide("curl x"); return d == "deny" && c == "team_rule" })

	publish(bundleOf(t, "r2", "package gate.rules.team\n\ndeny contains {\"code\": \"team_rule\", \"message\": \"boom\"} if {\n\tsome seg in input.shell.segments\n\tto_number(seg.program) > 0\n}\n"))
	eventually("the failing bundle to be refused", func() bool { return metric(`gate_bundle_loads_total{result="refused"}`) == "1" })
	if d, c := decide("ls"); d != "allow" {
		t.Fatalf("after the refused bundle, ls: %s %s (the failing bundle was swapped in)", d, c)
	}
	if d, c := decide("curl x"); d != "deny" || c != "team_rule" {
		t.Fatalf("after the refused bundle, curl: %s %s, want r1's deny", d, c)
	}
	if v := metric(`gate_policy_reloads_total{result="error"}`); v == "" || v == "0" {
		t.Errorf("gate_policy_reloads_total{result=\"error\"} = %q", v)
	}
	if log := s.stderr.String(); !strings.Contains(log, "smoke evaluation") {
		t.Errorf("the log does not say why the bundle was refused:\n%s", log)
	}

	publish(teamBundle(t, "r3", "wget"))
	eventually("bundle r3 to deny wget", func() bool { d, _ := decide("wget x"); return d == "deny" })
	if d, _ := decide("curl x"); d != "allow" {
		t.Fatalf("after r3, curl: %s", d)
	}
}
