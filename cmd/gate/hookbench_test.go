package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkHookProcess measures whole gate hook claude-code processes as
// Claude Code spawns them, for a Bash call, with a gate serve of the same
// configuration running (the hook asks it) and without (--no-server: the
// hook compiles the policies), beside bash -c true and gate --version. It
// reports the median wall time of the iterations besides the mean:
//
//	go test ./cmd/gate -run '^$' -bench HookProcess -benchtime 20x
func BenchmarkHookProcess(b *testing.B) {
	gate := buildGate(b)
	root, state := b.TempDir(), b.TempDir()
	settings := filepath.Join(root, "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"], "allowed": ["run_shell_command(ls)", "run_shell_command(git status)"]}}`), 0o644)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + state, "XDG_STATE_HOME=" + state, "CLAUDE_PROJECT_DIR=" + root}
	payload := `{"session_id":"abc","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la && git status --short"},"cwd":"` + root + `"}`
	hook := []string{gate, "hook", "claude-code", "--settings", settings}

	serve := exec.Command(gate, "serve", "--listen", "127.0.0.1:0", "--root", root, "--settings", settings)
	serve.Env = env
	if err := serve.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { serve.Process.Signal(syscall.SIGTERM); serve.Wait() }()
	for i := 0; ; i++ {
		if files, _ := filepath.Glob(filepath.Join(state, "gate", "hooks", "*.json")); len(files) > 0 {
			break
		}
		if i > 3000 {
			b.Fatal("gate serve did not publish its hook socket")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, tc := range []struct {
		name  string
		argv  []string
		stdin string
		debug string // what GATE_HOOK_DEBUG must say
	}{
		{"bash", []string{"bash", "-c", "true"}, "", ""},
		{"gate-version", []string{gate, "--version"}, "", ""},
		{"hook-server", hook, payload, "decided by the gate"},
		{"hook-in-process", append(slices.Clone(hook), "--no-server"), payload, "deciding in process"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.debug != "" {
				cmd := exec.Command(tc.argv[0], tc.argv[1:]...)
				cmd.Env, cmd.Stdin = append(slices.Clone(env), "GATE_HOOK_DEBUG=1"), strings.NewReader(tc.stdin)
				out, err := cmd.CombinedOutput()
				if err != nil || !bytes.Contains(out, []byte(tc.debug)) || !bytes.Contains(out, []byte(`"permissionDecision":"allow"`)) {
					b.Fatalf("%v: %v\n%s", tc.argv, err, out)
				}
			}
			var took []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				cmd := exec.Command(tc.argv[0], tc.argv[1:]...)
				cmd.Env, cmd.Stdin = env, strings.NewReader(tc.stdin)
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", tc.argv, err, out)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
		})
	}
}
