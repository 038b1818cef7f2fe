package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxRSS is the most memory a decision may take, in the terms.
const maxRSS = 300 << 20

// The commands that crashed gate or blew its memory up are denied by a
// real gate eval within the decision budget (a parse that overran it would
// say so: "time limit"), with a peak RSS under 300 MB; a large command
// within the limits is still decided by the policies.
func TestEvalBoundedResources(t *testing.T) {
	gateBin, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Skip("gate not on PATH")
	}
	settings := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(sh)", "run_shell_command(rm)"]}}`), 0o644)
	nested := func(n int) string {
		k := n / len("echo $()")
		return strings.Repeat("echo $(", k) + "x" + strings.Repeat(")", k)
	}
	for _, tc := range []struct {
		name, command, decision, code, message string
	}{
		{"sh +o", "sh +o", "deny", "command_excluded", ""},
		{"bash --rcfile", "bash --rcfile", "deny", "command_unprovable", "interactive shell"},
		{"30 KB of nested $(", nested(30 << 10), "deny", "command_too_complex", "(depth limit)"},
		{"300 KB of nested $(", nested(300 << 10), "deny", "command_too_complex", "(length limit)"},
		{"14,000 pipeline stages", strings.Repeat("ls | ", 13999) + "ls", "deny", "command_too_complex", "(depth limit)"},
		{"14,000 commands", strings.Repeat("ls; ", 14000), "deny", "command_too_complex", "(segments limit)"},
		{"900 commands 98 deep", strings.Repeat("( ", 98) + strings.Repeat("ls -la a b c d; ", 899) + "rm x" + strings.Repeat(" )", 98), "deny", "command_excluded", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, _ := json.Marshal(map[string]any{"tool": "run_shell_command", "args": map[string]any{"command": tc.command}})
			cmd := exec.Command(gateBin, "eval", "--no-supervise", "--root", t.TempDir(), "--settings", settings, "--approval-mode", "yolo", "--call", "-")
			cmd.Stdin = bytes.NewReader(call)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("gate eval: %v\n%s", err, stderr.String())
			}
			var out struct {
				Decision string `json:"decision"`
				Reasons  []struct{ Code, Message string }
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("output %q: %v", stdout.String(), err)
			}
			if out.Decision != tc.decision || len(out.Reasons) == 0 || out.Reasons[0].Code != tc.code || !strings.Contains(out.Reasons[0].Message, tc.message) {
				t.Fatalf("decided %+v, want %s %s %q", out, tc.decision, tc.code, tc.message)
			}
			ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				t.Skip("no rusage on this system: the peak RSS cannot be checked")
			}
			if rss := ru.Maxrss << 10; rss > maxRSS { // Maxrss is in KiB on Linux
				t.Fatalf("peak RSS %d MB, over %d MB", rss>>20, maxRSS>>20)
			}
		})
	}
}

// A real gate serve survives an MCP call whose decision panics (the tests'
// gate panics where the parser runs on sh +o, as the parser did): the call
// is refused with internal_error, the background process started before
// still runs, and the next call works.
func TestServeSurvivesPanickingMCPCall(t *testing.T) {
	gateBin, err := exec.LookPath("gate")
	if err != nil {
		t.Skip("gate not on PATH")
	}
	root := t.TempDir()
	cmd := exec.Command(gateBin, "serve", "--root", root, "--listen", "127.0.0.1:0", "--approval-mode", "yolo")
	cmd.Env = append(os.Environ(), "GATE_TOKEN=t0ken", "GATE_TEST_PANIC_ON=sh +o")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		if m := regexp.MustCompile(`url=(http://\S+)`).FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("gate serve did not say where it listens")
	}
	go func() {
		for lines.Scan() {
		}
		exited <- cmd.Wait()
	}()

	ctx := context.Background()
	client := &http.Client{Transport: withToken{"t0ken"}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(command string, background bool) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": command, "is_background": background}})
		if err != nil {
			t.Fatalf("%q: %v", command, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	marker := filepath.Join(root, "alive")
	if out := call("while :; do touch alive; sleep 0.05; done", true); !strings.Contains(out, "Background command started") {
		t.Fatalf("background: %q", out)
	}
	if out := call("sh +o", false); !strings.Contains(out, "[internal_error] internal error: panic while deciding: runtime error") {
		t.Fatalf("sh +o: %q", out)
	}
	select {
	case err := <-exited:
		t.Fatalf("gate serve exited after the panic: %v", err)
	default:
	}
	if out := call("echo still here", false); !strings.Contains(out, "Stdout: still here") {
		t.Fatalf("next call: %q", out)
	}
	// The background process still runs under the server.
	os.Remove(marker)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background process no longer runs")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// withToken sends the server's bearer token with every request.
type withToken struct{ token string }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return http.DefaultTransport.RoundTrip(r)
}
