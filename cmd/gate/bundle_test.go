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
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
)

// TestServeWithBundles runs gate serve --opa-config against a loopback
// bundle server: not ready until the bundle is activated, then deciding
// with the bundle's team rule.
func TestServeWithBundles(t *testing.T) {
	src := "package gate.rules.team\n\ndeny contains {\"code\": \"team_rule\", \"message\": \"no curl\"} if {\n\tsome seg in input.shell.segments\n\tseg.program == \"curl\"\n}\n"
	roots := []string{"gate/rules/team"}
	var buf bytes.Buffer
	if err := bundle.NewWriter(&buf).Write(bundle.Bundle{Manifest: bundle.Manifest{Revision: "v1", Roots: &roots}, Data: map[string]any{},
		Modules: []bundle.ModuleFile{{URL: "/team.rego", Path: "/team.rego", Raw: []byte(src), Parsed: ast.MustParseModuleWithOpts(src, ast.ParserOptions{RegoVersion: ast.RegoV1})}}}); err != nil {
		t.Fatal(err)
	}
	published := make(chan struct{})
	bundles := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-published:
			w.Write(buf.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	defer bundles.Close()
	config := filepath.Join(t.TempDir(), "opa.json")
	os.WriteFile(config, []byte(fmt.Sprintf(`{"services": {"s": {"url": %q}}, "bundles": {"team": {"service": "s", "resource": "/b.tar.gz", "polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}}}}`, bundles.URL)), 0o644)
	addr := freeAddr(t)
	url := "http://" + addr
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		runGate(t, ctx, "serve", "--root", t.TempDir(), "--listen", addr, "--approval-mode", "yolo", "--opa-config", config)
		close(done)
	}()
	defer func() { stop(); <-done }()
	status := func() int {
		resp, err := http.Get(url + "/readyz")
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := 0; i < 200 && status() == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if s := status(); s != 503 {
		t.Fatalf("readyz before the bundle: %d", s)
	}
	close(published)
	for i := 0; i < 500 && status() != 200; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	resp, err := http.Post(url+"/v1/decide", "application/json", strings.NewReader(`{"tool":"run_shell_command","args":{"command":"echo $(curl -s x)"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		Decision string
		Reasons  []struct{ Code string }
	}
	json.NewDecoder(resp.Body).Decode(&d)
	if d.Decision != "deny" || len(d.Reasons) == 0 || d.Reasons[0].Code != "team_rule" {
		t.Fatalf("decision %+v", d)
	}
}
