package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

var opaBinary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// buildOPA builds the opa command from the OPA module gate depends on (in
// the module cache), not a downloaded binary.
func buildOPA(t *testing.T) string {
	t.Helper()
	opaBinary.once.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/open-policy-agent/opa").Output()
		if err != nil {
			opaBinary.err = err
			return
		}
		dir, err := os.MkdirTemp("", "gate-opa")
		if err != nil {
			opaBinary.err = err
			return
		}
		opaBinary.path = filepath.Join(dir, "opa")
		cmd := exec.Command("go", "build", "-o", opaBinary.path, ".")
		cmd.Dir = strings.TrimSpace(string(out))
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
		opaBinary.out, opaBinary.err = cmd.CombinedOutput()
	})
	if opaBinary.err != nil {
		t.Fatalf("building opa: %v\n%s", opaBinary.err, opaBinary.out)
	}
	return opaBinary.path
}

// TestRemoteDecisionPoint decides on a real OPA server running gate's
// policies, then with the server down: every decision is a deny.
func TestRemoteDecisionPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds opa")
	}
	opa := buildOPA(t)
	policies, _ := filepath.Abs("../../policies")
	addr := freeAddr(t)
	server := exec.Command(opa, "run", "--server", "--addr", addr, "--log-level", "error", policies)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer server.Process.Kill()
	url := "http://" + addr
	for i := 0; i < 500; i++ {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	settings := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"]}}`), 0o644)
	root := t.TempDir()
	eval := func(command string) string {
		_, out, stderr := runGate(t, context.Background(), "eval", "--root", root, "--settings", settings, "--approval-mode", "yolo",
			"--opa-url", url, "--command", command)
		return out + stderr
	}
	if out := eval("ls -la"); !strings.Contains(out, `"decision":"allow"`) {
		t.Fatalf("ls: %s", out)
	}
	if out := eval("ls && sudo /bin/rm -rf x"); !strings.Contains(out, `"code":"command_excluded"`) {
		t.Fatalf("rm: %s", out)
	}
	// The settings gate pushed are on the server, under their own key.
	var byKey struct {
		Result map[string]any `json:"result"`
	}
	getJSON(t, url+"/v1/data/gate/settings_by_key", &byKey)
	if len(byKey.Result) != 1 {
		t.Fatalf("settings on the server: %v", byKey.Result)
	}
	server.Process.Kill()
	server.Wait()
	if out := eval("ls -la"); !strings.Contains(out, `"decision":"deny"`) || !strings.Contains(out, `"code":"remote_unavailable"`) {
		t.Fatalf("with the server down: %s", out)
	}
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// startOPA runs a real OPA server with gate's policies.
func startOPA(t *testing.T) string {
	t.Helper()
	opa := buildOPA(t)
	policies, _ := filepath.Abs("../../policies")
	addr := freeAddr(t)
	server := exec.Command(opa, "run", "--server", "--addr", addr, "--log-level", "error", policies)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	url := "http://" + addr
	for i := 0; i < 500; i++ {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return url
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("opa did not start")
	return ""
}

// TestSharedDecisionPoint runs long-lived gates with different settings
// against one real OPA server, interleaved with a settings-less gate eval:
// each keeps its own decisions, the same as its embedded engine makes, and
// an input that names no settings is denied.
func TestSharedDecisionPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds opa")
	}
	url := startOPA(t)
	root := t.TempDir()
	newEngine := func(s engine.Settings, remote bool) *engine.Engine {
		s.ApprovalMode = engine.ApprovalYolo
		opts := engine.Options{Root: root, Settings: s}
		if remote {
			opts.Remote = engine.RemoteOptions{URL: url}
		}
		e, err := engine.New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	gates := map[string]engine.Settings{
		"no-rm":    {Exclude: []string{"run_shell_command(rm)"}},
		"only-git": {Core: []string{"run_shell_command(git)"}},
	}
	remote, embedded := map[string]*engine.Engine{}, map[string]*engine.Engine{}
	for name, s := range gates {
		remote[name], embedded[name] = newEngine(s, true), newEngine(s, false)
	}
	decide := func(e *engine.Engine, command string) string {
		d, err := e.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command, "is_background": false}})
		if err != nil {
			t.Fatal(err)
		}
		return d.Decision + "/" + d.Reasons[0].Code
	}
	steps := []struct{ gate, command, want string }{
		{"no-rm", "rm -rf x", "deny/command_excluded"},
		{"only-git", "rm -rf x", "deny/command_not_allowed"},
		{"only-git", "git status", "allow/allowed"},
		{"", "rm -rf x", "allow/allowed"}, // a settings-less gate eval
		{"no-rm", "rm -rf x", "deny/command_excluded"},
		{"no-rm", "ls -la", "allow/allowed"},
		{"only-git", "ls -la", "deny/command_not_allowed"},
		{"", "ls -la", "allow/allowed"},
		{"no-rm", "sudo /bin/rm x", "deny/command_excluded"},
		{"only-git", "git push", "allow/allowed"},
	}
	for _, s := range steps {
		if s.gate == "" {
			_, out, stderr := runGate(t, context.Background(), "eval", "--root", root, "--approval-mode", "yolo", "--opa-url", url, "--command", s.command)
			if !strings.Contains(out, `"decision":"`+strings.Split(s.want, "/")[0]+`"`) {
				t.Errorf("settings-less gate eval %q: %s %s", s.command, out, stderr)
			}
			continue
		}
		r, e := decide(remote[s.gate], s.command), decide(embedded[s.gate], s.command)
		if r != s.want || e != s.want {
			t.Errorf("gate %s, %q: remote %s, embedded %s, want %s", s.gate, s.command, r, e, s.want)
		}
	}
	var byKey struct {
		Result map[string]any `json:"result"`
	}
	getJSON(t, url+"/v1/data/gate/settings_by_key", &byKey)
	if len(byKey.Result) != 3 {
		t.Errorf("%d settings on the server, want 3", len(byKey.Result))
	}
	// A server that lost the settings (restarted, or deleted) gets them
	// again.
	req, _ := http.NewRequest(http.MethodDelete, url+"/v1/data/gate/settings_by_key", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("deleting the settings: %v %v", resp, err)
	}
	if got := decide(remote["no-rm"], "rm -rf x"); got != "deny/command_excluded" {
		t.Errorf("after the settings were lost: %s", got)
	}
	// An input that names no settings is denied on a shared server.
	body := `{"input": {"tool": "run_shell_command", "args": {"command": "rm -rf x"}, "shell": {"command": "rm -rf x", "segments": []}, "paths": []}}`
	resp, err := http.Post(url+"/v1/data/gate/decision", "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result struct {
			Decision string `json:"decision"`
			Reasons  []struct {
				Code string `json:"code"`
			} `json:"reasons"`
		} `json:"result"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if out.Result.Decision != "deny" || len(out.Result.Reasons) == 0 || out.Result.Reasons[0].Code != "bad_settings" {
		t.Errorf("a keyless input: %+v", out.Result)
	}
}
