package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestApprovalsCLI runs gate serve in the default approval mode, makes a
// call that waits for approval, and answers it with gate approvals.
func TestApprovalsCLI(t *testing.T) {
	t.Setenv("GATE_TOKEN", "")
	root := t.TempDir()
	addr := freeAddr(t)
	url := "http://" + addr
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan int, 1)
	go func() {
		code, _, _ := runGate(t, ctx, "serve", "--root", root, "--listen", addr, "--approval-timeout", "10s")
		served <- code
	}()
	defer func() { stop(); <-served }()
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(url + "/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(10 * time.Millisecond)
	}

	for _, answer := range []string{"deny", "approve"} {
		done := make(chan int, 1)
		go func() {
			resp, err := http.Post(url+"/v1/call", "application/json",
				strings.NewReader(`{"tool":"run_shell_command","args":{"command":"touch made","is_background":false}}`))
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		var id string
		for i := 0; i < 200 && id == ""; i++ {
			_, out, _ := runGate(t, context.Background(), "approvals", "--server", url)
			if m := regexp.MustCompile(`(?m)^([0-9a-f]{16})  run_shell_command \{"command":"touch made"`).FindStringSubmatch(out); m != nil {
				id = m[1]
			}
			time.Sleep(10 * time.Millisecond)
		}
		if id == "" {
			t.Fatal("gate approvals never listed the call")
		}
		code, out, stderr := runGate(t, context.Background(), "approvals", answer, id, "--server", url, "--by", "alice")
		if code != 0 || !strings.HasPrefix(out, id+" ") {
			t.Fatalf("%s: exit %d %q %q", answer, code, out, stderr)
		}
		status := <-done
		_, err := os.Stat(filepath.Join(root, "made"))
		if answer == "deny" && (status != 403 || err == nil) || answer == "approve" && (status != 200 || err != nil) {
			t.Fatalf("%s: status %d, made %v", answer, status, err == nil)
		}
	}
	if code, _, stderr := runGate(t, context.Background(), "approvals", "approve", "0123456789abcdef", "--server", url); code == 0 || !strings.Contains(stderr, "no pending approval") {
		t.Fatalf("unknown id: exit %d %q", code, stderr)
	}
	if code, out, _ := runGate(t, context.Background(), "approvals", "--server", url); code != 0 || !strings.Contains(out, "No calls are waiting") {
		t.Fatalf("empty list: %d %q", code, out)
	}
}
