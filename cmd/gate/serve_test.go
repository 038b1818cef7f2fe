package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runGate(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestServeRefusesOpenAddressWithoutToken(t *testing.T) {
	t.Setenv("GATE_TOKEN", "")
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		code, _, stderr := runGate(t, context.Background(), "serve", "--root", t.TempDir(), "--listen", addr)
		if code != 2 || !strings.Contains(stderr, "without a bearer token") || !strings.Contains(stderr, "GATE_TOKEN") {
			t.Errorf("%s: exit %d, stderr %q", addr, code, stderr)
		}
	}
	empty := filepath.Join(t.TempDir(), "token")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if code, _, stderr := runGate(t, context.Background(), "serve", "--listen", "0.0.0.0:0", "--token-file", empty); code != 3 || !strings.Contains(stderr, "is empty") {
		t.Errorf("empty token file: exit %d, %q", code, stderr)
	}
}

func TestServeStartsAndStops(t *testing.T) {
	t.Setenv("GATE_TOKEN", "t0ken")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	code, _, stderr := runGate(t, ctx, "serve", "--root", t.TempDir(), "--listen", "0.0.0.0:0")
	if code != 0 || !strings.Contains(stderr, "gate listening") || !strings.Contains(stderr, "auth=true") || !strings.Contains(stderr, "shutting down") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestExec(t *testing.T) {
	root := t.TempDir()
	settings := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"]}}`), 0o644)
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	base := []string{"exec", "--root", root, "--settings", settings, "--approval-mode", "yolo"}
	for _, tc := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"exit status", []string{"--command", "echo hi; echo err >&2; exit 3"}, 3, "hi\n", "err\n"},
		{"directory", []string{"--command", "basename $PWD", "--directory", "sub"}, 0, "sub\n", ""},
		{"directory escape", []string{"--command", "pwd", "--directory", ".."}, 5, "", "not within the workspace root"},
		{"denied", []string{"--command", "ls; /bin/rm -rf sub"}, 126, "", `"code":"command_excluded"`},
		{"signal", []string{"--command", "kill -TERM $$"}, 143, "", ""},
		{"timeout", []string{"--command", "sleep 10", "--timeout", "200ms", "--kill-grace", "100ms"}, 124, "", "timed out after 200ms"},
		{"text", []string{"--command", "echo hi", "--output", "text"}, 0, "Command: echo hi\nDirectory: (root)\nStdout: hi\n", ""},
		{"json", []string{"--command", "echo hi", "--output", "json"}, 0, `"stdout":"hi\n"`, ""},
		{"background", []string{"--command", "sleep 0.1", "--background"}, 0, "", "Background command started. PID: "},
		{"ask in default mode", []string{"--command", "ls", "--approval-mode", "default"}, 126, "", `"decision":"ask"`},
		{"bad output", []string{"--command", "ls", "--output", "xml"}, 2, "", "--output must be"},
		{"no command", []string{}, 2, "", "exactly one of --command or --call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runGate(t, context.Background(), append(base, tc.args...)...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d)\nstdout %q\nstderr %q", code, tc.code, stdout, stderr)
			}
		})
	}
}

func TestExecFileTools(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	call := filepath.Join(t.TempDir(), "call.json")
	base := []string{"exec", "--root", root, "--approval-mode", "yolo", "--call", call}
	for _, tc := range []struct {
		name, call     string
		code           int
		stdout, stderr string
	}{
		{"write", `{"tool":"write_file","args":{"file_path":"b/c.txt","content":"hi\n"}}`, 0, "Successfully created and wrote to new file: b/c.txt.", ""},
		{"read", `{"tool":"read_file","args":{"file_path":"b/c.txt"}}`, 0, "hi\n", ""},
		{"failed edit", `{"tool":"edit","args":{"file_path":"a.txt","old_string":"zzz","new_string":"y"}}`, 1, "0 occurrences found", ""},
		{"outside", `{"tool":"read_file","args":{"file_path":"/etc/passwd"}}`, 126, "", "path_outside_root"},
		{"malformed", `{"tool":"read_file","args":{"offset":-1,"file_path":"a.txt"}}`, 5, "", "Offset must be a non-negative integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(call, []byte(tc.call), 0o644)
			code, stdout, stderr := runGate(t, context.Background(), base...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d)\nstdout %q\nstderr %q", code, tc.code, stdout, stderr)
			}
		})
	}
}
