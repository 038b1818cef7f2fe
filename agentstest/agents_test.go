package agentstest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The pinned agents, installed into agentsDir with npm when absent.
var pinned = []string{"@anthropic-ai/claude-code@2.1.330", "@qwen-code/qwen-code@0.24.4", "@google/gemini-cli@0.61.0"}

// agentTimeout bounds one agent run; the process group is killed after it.
const agentTimeout = 90 * time.Second

// gateSettings is the gate settings file every scenario uses: echo and cd
// allowed, rm excluded, anything else asks (a deny in a headless run).
const gateSettings = `{"tools": {"allowed": ["run_shell_command(echo)", "run_shell_command(cd)"], "exclude": ["run_shell_command(rm)"]}}`

func agentsDir() string {
	if d := os.Getenv("GATE_AGENTS_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "gate-agents")
}

// setup installs the agents when missing and builds gate into a directory
// for PATH. It skips, saying why, when GATE_AGENTS is unset or node/npm
// are missing.
func setup(t *testing.T) (bins, gateDir string) {
	t.Helper()
	if os.Getenv("GATE_AGENTS") == "" {
		t.Skip("SKIPPED: set GATE_AGENTS=1 to run the real agents (Claude Code, Qwen Code, Gemini CLI) through gate; .ci/run does")
	}
	for _, n := range []string{"node", "npm", "bash", "git"} {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("SKIPPED: %s is not on PATH; the real-agent harness needs node 20+, npm, bash and git", n)
		}
	}
	bins = filepath.Join(agentsDir(), "node_modules", ".bin")
	if !installed(bins) {
		args := append([]string{"install", "--prefix", agentsDir(), "--no-audit", "--no-fund", "--loglevel=error"}, pinned...)
		out, err := exec.Command("npm", args...).CombinedOutput()
		if err != nil || !installed(bins) {
			// GATE_AGENTS=1 asked for the agents: not getting them fails.
			t.Fatalf("npm install of the pinned agents into %s failed: %v\n%s", agentsDir(), err, out)
		}
	}
	gateDir = t.TempDir()
	goBin := "go"
	if root := runtime.GOROOT(); root != "" {
		goBin = filepath.Join(root, "bin", "go")
	}
	out, err := exec.Command(goBin, "build", "-o", filepath.Join(gateDir, "gate"), "github.com/gate-dev/gate/cmd/gate").CombinedOutput()
	if err != nil {
		t.Fatalf("go build gate: %v\n%s", err, out)
	}
	return bins, gateDir
}

func installed(bins string) bool {
	for _, n := range []string{"claude", "qwen", "gemini"} {
		if _, err := os.Stat(filepath.Join(bins, n)); err != nil {
			return false
		}
	}
	return true
}

// snippet reads one of the files the README shows.
func snippet(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "agents", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// project makes a workspace: a git repository with victim.txt,
// sub/listed.txt, and gate's settings at settings.
func project(t *testing.T, settings string) (home, dir string) {
	t.Helper()
	root := t.TempDir()
	home, dir = filepath.Join(root, "home"), filepath.Join(root, "project")
	for _, d := range []string{home, filepath.Join(dir, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	writeFile(t, filepath.Join(dir, "victim.txt"), []byte("victim\n"))
	writeFile(t, filepath.Join(dir, "sub", "listed.txt"), []byte("listed\n"))
	writeFile(t, filepath.Join(dir, settings), []byte(gateSettings))
	return home, dir
}

// run runs an agent headless in dir with env until it exits or
// agentTimeout passes, then kills its process group.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stray children (MCP servers, hooks)
	}
	if ctx.Err() != nil {
		t.Errorf("%s did not finish within %s; output:\n%s", name, agentTimeout, out.String())
	}
	t.Logf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	return out.String()
}

// baseEnv is the environment every agent runs in: a HOME of its own, no
// telemetry, no update checks, and PATH with gate (when withGate) and node.
func baseEnv(home, bins, gateDir string, withGate bool) []string {
	path := bins + ":" + filepath.Dir(mustLook("node")) + ":/usr/local/bin:/usr/bin:/bin"
	if withGate {
		path = gateDir + ":" + path
	}
	return []string{
		"HOME=" + home, "PATH=" + path, "TERM=dumb", "LANG=C.UTF-8", "CI=1",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"DO_NOT_TRACK=1", "NO_UPDATE_NOTIFIER=1", "NPM_CONFIG_UPDATE_NOTIFIER=false",
	}
}

func mustLook(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return "/usr/bin/" + name
	}
	return p
}

func fileIs(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v (want it to survive with %q)", path, err, want)
		return
	}
	if string(b) != want {
		t.Errorf("%s = %q, want %q", path, b, want)
	}
}

func absent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s exists; the write should have been denied", path)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
