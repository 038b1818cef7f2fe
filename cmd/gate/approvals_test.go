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

func freeAddr(t testing.TB) string {
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
	tokenFile := privateState(t)
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
	waitReady(t, url)
	// gate approvals finds the token gate serve made, as the test does.
	token := readFile(t, tokenFile)

	for _, answer := range []string{"deny", "approve"} {
		done := make(chan int, 1)
		go func() {
			resp, err := http.DefaultClient.Do(apiRequest("POST", url+"/v1/call", token,
				`{"tool":"run_shell_command","args":{"command":"touch made","is_background":false}}`))
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

// privateState points gate's state directory at a temporary one, so that
// a test never reads or writes the user's token, and clears GATE_TOKEN; it
// returns where gate serve keeps its token there.
func privateState(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	t.Setenv("GATE_TOKEN", "")
	return filepath.Join(dir, "gate", "token")
}

// waitReady waits until a gate server at url answers /readyz.
func waitReady(t *testing.T, url string) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if resp, err := http.Get(url + "/readyz"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never answered", url)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	bs, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(bs))
}

// apiRequest is a request to gate's API as gate's clients send it: the
// bearer token, and a JSON body when there is one.
func apiRequest(method, url, token, body string) *http.Request {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}
