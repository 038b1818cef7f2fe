package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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
	// The settings gate pushed are on the server.
	resp, err := http.Get(url + "/v1/data/gate/settings/exclude/count")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	server.Process.Kill()
	server.Wait()
	if out := eval("ls -la"); !strings.Contains(out, `"decision":"deny"`) || !strings.Contains(out, `"code":"remote_unavailable"`) {
		t.Fatalf("with the server down: %s", out)
	}
}
