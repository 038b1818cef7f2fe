package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The attacks of a web page on a gate serve running on the user's machine,
// run against a real gate serve process on 127.0.0.1 whose settings would
// let any accepted call run (yolo): each must be refused with its code, and
// its command (touch MARKER) must not have run.

// liveServe is a gate serve process started for a test.
type liveServe struct {
	url, root, tokenFile string
	stderr               *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// startServe runs gate serve with args on a free loopback port (unless args
// give --listen), with a state directory of its own, and stops it with
// SIGTERM when the test ends.
func startServe(t *testing.T, args ...string) *liveServe {
	t.Helper()
	gateBin, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Skip("SKIPPED: gate is not on PATH (TestMain installs the test binary as gate); cannot start a real gate serve")
	}
	state := t.TempDir()
	s := &liveServe{root: t.TempDir(), tokenFile: filepath.Join(state, "gate", "token"), stderr: &syncBuffer{}}
	args = append([]string{"serve", "--root", s.root}, args...)
	listenGiven := false
	for _, a := range args {
		listenGiven = listenGiven || a == "--listen"
	}
	if !listenGiven {
		addr := freeAddr(t)
		s.url = "http://" + addr
		args = append(args, "--listen", addr)
	}
	cmd := exec.Command(gateBin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GATE_") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") && !strings.HasPrefix(kv, "HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state, "HOME="+state)
	cmd.Stderr = s.stderr
	exited := startStopped(t, cmd, nil)
	if s.url != "" {
		for i := 0; ; i++ {
			if resp, err := http.Get(s.url + "/readyz"); err == nil {
				resp.Body.Close()
				break
			}
			select {
			case <-exited:
				t.Fatalf("gate serve exited: %s", s.stderr)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return s
}

// token is the token gate serve made in its state directory.
func (s *liveServe) token(t *testing.T) string {
	t.Helper()
	return readFile(t, s.tokenFile)
}

// ran reports whether the command that touches marker ran.
func (s *liveServe) ran(marker string) bool {
	_, err := os.Stat(filepath.Join(s.root, marker))
	return err == nil
}

// attack sends a request; header pairs set headers, "Host" the Host line.
func attack(t *testing.T, c *http.Client, method, url, body string, header ...string) (int, string) {
	t.Helper()
	var rd io.Reader = http.NoBody
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error struct{ Code, Message string }
	}
	bs, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(bs, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Errorf("%s %s: %d is not an {\"error\": {\"code\", \"message\"}} body: %q", method, url, resp.StatusCode, bs)
		}
	}
	return resp.StatusCode, e.Error.Code
}

func touchCall(marker string) string {
	return fmt.Sprintf(`{"tool":"run_shell_command","args":{"command":"touch %s","is_background":false}}`, marker)
}

// TestAttackDriveBy: what a page can send without a CORS preflight (a
// text/plain form, a no-cors fetch), with a rebound Host, from its Origin,
// or without the token, is refused and runs nothing, on a server with its
// default token and on one that opted out of it with --no-token.
func TestAttackDriveBy(t *testing.T) {
	withToken := startServe(t, "--approval-mode", "yolo")
	noToken := startServe(t, "--approval-mode", "yolo", "--no-token")
	tok := withToken.token(t)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(tok) {
		t.Fatalf("token %q is not 32 random bytes in hex", tok)
	}
	if fi, err := os.Stat(withToken.tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi.Mode(), err)
	}
	if log := withToken.stderr.String(); !strings.Contains(log, "token_file="+withToken.tokenFile) || strings.Contains(log, tok) {
		t.Fatalf("the log must name the token file and never hold the token:\n%s", log)
	}
	for _, s := range []*liveServe{withToken, noToken} {
		auth := []string{}
		if s == withToken {
			auth = []string{"Authorization", "Bearer " + tok}
		}
		for i, tc := range []struct {
			name   string
			header []string
			status int
			code   string
		}{
			{"form enctype=text/plain from a page", []string{"Content-Type", "text/plain", "Origin", "https://evil.example"}, 403, "origin_not_allowed"},
			{"text/plain", append([]string{"Content-Type", "text/plain;charset=UTF-8"}, auth...), 415, "unsupported_media_type"},
			{"no-cors fetch without Content-Type", auth, 415, "unsupported_media_type"},
			{"urlencoded form", append([]string{"Content-Type", "application/x-www-form-urlencoded"}, auth...), 415, "unsupported_media_type"},
			{"DNS rebinding Host", append([]string{"Content-Type", "application/json", "Host", "attacker.example:8787"}, auth...), 403, "host_not_allowed"},
			{"foreign Origin", append([]string{"Content-Type", "application/json", "Origin", "https://evil.example"}, auth...), 403, "origin_not_allowed"},
		} {
			marker := fmt.Sprintf("pwned-%d", i)
			status, code := attack(t, nil, "POST", s.url+"/v1/call", touchCall(marker), tc.header...)
			if status != tc.status || code != tc.code || s.ran(marker) {
				t.Errorf("%s (token %v): %d %s, ran %v; want %d %s and nothing run", tc.name, s == withToken, status, code, s.ran(marker), tc.status, tc.code)
			}
		}
	}
	// Without the token nothing answers but /healthz and /readyz.
	for _, ep := range []struct{ method, path, body string }{
		{"POST", "/v1/call", touchCall("pwned-notoken")}, {"POST", "/v1/decide", touchCall("x")},
		{"GET", "/v1/background", ""}, {"GET", "/v1/background/1", ""}, {"POST", "/v1/background/1/stop", ""}, {"DELETE", "/v1/background/1", ""},
		{"GET", "/v1/approvals", ""}, {"POST", "/v1/approvals/0123456789abcdef/approve", ""}, {"POST", "/v1/approvals/0123456789abcdef/deny", ""},
		{"GET", "/v1/rules", ""}, {"DELETE", "/v1/rules?entry=x", ""},
		{"POST", "/v1/sessions", `{"command":"touch pwned-session"}`}, {"GET", "/v1/sessions", ""}, {"GET", "/v1/sessions/1", ""},
		{"POST", "/v1/sessions/1/input", `{"text":"x"}`}, {"POST", "/v1/sessions/1/resize", `{"rows":1,"cols":1}`},
		{"POST", "/v1/sessions/1/wait", `{}`}, {"DELETE", "/v1/sessions/1", ""},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`}, {"GET", "/metrics", ""}, {"GET", "/v2/nothing", ""},
	} {
		for _, auth := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "Basic " + tok}} {
			status, code := attack(t, nil, ep.method, withToken.url+ep.path, ep.body, append([]string{"Content-Type", "application/json"}, auth...)...)
			if status != 401 || code != "unauthorized" {
				t.Errorf("%s %s with %v: %d %s, want 401 unauthorized", ep.method, ep.path, auth, status, code)
			}
		}
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if status, _ := attack(t, nil, "GET", withToken.url+p, "", "Host", "anything.example"); status != 200 {
			t.Errorf("%s without a token: %d", p, status)
		}
	}
	if withToken.ran("pwned-notoken") || withToken.ran("pwned-session") {
		t.Fatal("a request without the token ran")
	}
	// The positive controls: the right token and JSON run the call, with
	// the scheme in any case; on --no-token, JSON alone does.
	for i, a := range []string{"Bearer " + tok, "bearer " + tok} {
		marker := fmt.Sprintf("legit-%d", i)
		if status, _ := attack(t, nil, "POST", withToken.url+"/v1/call", touchCall(marker), "Content-Type", "application/json", "Authorization", a); status != 200 || !withToken.ran(marker) {
			t.Fatalf("the legitimate call (%s...): %d, ran %v", a[:7], status, withToken.ran(marker))
		}
	}
	if status, _ := attack(t, nil, "POST", noToken.url+"/v1/call", touchCall("legit"), "Content-Type", "application/json; charset=utf-8"); status != 200 || !noToken.ran("legit") {
		t.Fatalf("the legitimate call on --no-token: %d", status)
	}
}

// TestAttackRebindingApproval: a page that rebinds its name to 127.0.0.1
// submits a call that waits for approval, lists the approvals and approves
// its own. On a --no-token server the Host check alone must stop each step.
func TestAttackRebindingApproval(t *testing.T) {
	s := startServe(t, "--approval-mode", "default", "--no-token", "--approval-timeout", "1m")
	rebound := []string{"Content-Type", "application/json", "Host", "attacker.example:8787"}
	if status, code := attack(t, nil, "POST", s.url+"/v1/call", touchCall("pwned-submit"), rebound...); status != 403 || code != "host_not_allowed" {
		t.Fatalf("submit through a rebound name: %d %s", status, code)
	}
	// A call that waits for approval (submitted legitimately).
	done := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(apiRequest("POST", s.url+"/v1/call", "", touchCall("pwned-approved")))
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	var id string
	for i := 0; i < 500 && id == ""; i++ {
		resp, err := http.Get(s.url + "/v1/approvals")
		if err == nil {
			var out struct{ Approvals []struct{ ID string } }
			json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if len(out.Approvals) == 1 {
				id = out.Approvals[0].ID
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if id == "" {
		t.Fatal("the call never waited for approval")
	}
	if status, code := attack(t, nil, "GET", s.url+"/v1/approvals", "", "Host", "attacker.example:8787"); status != 403 || code != "host_not_allowed" {
		t.Errorf("list through a rebound name: %d %s", status, code)
	}
	for _, body := range []string{"", `{"by":"attacker","always":true}`} {
		if status, code := attack(t, nil, "POST", s.url+"/v1/approvals/"+id+"/approve", body, rebound...); status != 403 || code != "host_not_allowed" {
			t.Errorf("approve through a rebound name: %d %s", status, code)
		}
	}
	if status, code := attack(t, nil, "POST", s.url+"/v1/approvals/"+id+"/approve", "", "Origin", "http://attacker.example:8787"); status != 403 || code != "origin_not_allowed" {
		t.Errorf("approve from the page's origin: %d %s", status, code)
	}
	// Still pending: the operator denies it (an empty body, as curl -X POST sends).
	if status, _ := attack(t, nil, "POST", s.url+"/v1/approvals/"+id+"/deny", ""); status != 200 {
		t.Fatalf("deny: %d", status)
	}
	if status := <-done; status != 403 || s.ran("pwned-approved") || s.ran("pwned-submit") {
		t.Fatalf("the call: %d, ran %v", status, s.ran("pwned-approved"))
	}
}

// TestAttackSlowBody: a body that trickles in is cut off with a JSON 408
// after --body-timeout, and its call does not run.
func TestAttackSlowBody(t *testing.T) {
	s := startServe(t, "--approval-mode", "yolo", "--no-token", "--body-timeout", "300ms")
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := touchCall("pwned-slow")
	fmt.Fprintf(conn, "POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:20])
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // only so that a broken server cannot hang the test
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 408 || !strings.Contains(string(bs), `"code":"request_timeout"`) {
		t.Fatalf("got %d %s", resp.StatusCode, bs)
	}
	conn.Write([]byte(body[20:]))
	time.Sleep(100 * time.Millisecond)
	if s.ran("pwned-slow") {
		t.Fatal("the slow call ran")
	}
}

// TestServeUnixSocket: on a unix socket the socket file is 0600, no token
// is needed, the content type is still checked, a stale socket is replaced
// and the file is removed at shutdown.
func TestServeUnixSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "gate-sock-") // short: socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "gate.sock")
	stale, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("SKIPPED: cannot make a unix socket: %v", err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()

	privateState(t)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan string, 1)
	go func() {
		_, _, stderr := runGate(t, ctx, "serve", "--root", t.TempDir(), "--approval-mode", "yolo", "--listen", "unix:"+sock)
		served <- stderr
	}()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	for i := 0; i < 500; i++ {
		if resp, err := c.Get("http://localhost/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v %v", fi.Mode(), err)
	}
	if status, _ := attack(t, c, "POST", "http://localhost/v1/decide", `{"tool":"run_shell_command","args":{"command":"ls","is_background":false}}`, "Content-Type", "application/json"); status != 200 {
		t.Errorf("decide over the socket without a token: %d", status)
	}
	if status, code := attack(t, c, "POST", "http://localhost/v1/decide", `{}`, "Content-Type", "text/plain"); status != 415 || code != "unsupported_media_type" {
		t.Errorf("text/plain over the socket: %d %s", status, code)
	}
	var out bytes.Buffer
	a := &app{stdout: &out, stderr: io.Discard}
	if err := a.listApprovals(newAPIClient("unix:"+sock, "")); err != nil || !strings.Contains(out.String(), "No calls are waiting") {
		t.Errorf("gate approvals over the socket: %v %q", err, out.String())
	}
	stop()
	stderr := <-served
	if _, err := os.Stat(sock); err == nil {
		t.Errorf("the socket file outlived gate serve:\n%s", stderr)
	}
}
