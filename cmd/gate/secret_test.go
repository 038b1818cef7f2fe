package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/confine"
)

// TestAttackReadToken: an agent whose commands gate runs (yolo: nothing
// asks) tries to read gate serve's bearer token, which would let it approve
// its own calls through the approvals API, and to plant a copy of it where
// it could read it later. Every way is refused with path_protected, nothing
// runs, and the token appears in no answer; the same calls on an ordinary
// file show that the answers would carry it.
func TestAttackReadToken(t *testing.T) {
	s := startServe(t, "--approval-mode", "yolo")
	tok := s.token(t)
	state := filepath.Dir(s.tokenFile)
	// A symlink into the state directory planted in the root by another
	// means (gate denies making it: ln's target is a read of the state).
	if err := os.Symlink(state, filepath.Join(s.root, "lnk")); err != nil {
		t.Fatal(err)
	}
	post := func(path, body string) (int, string) {
		t.Helper()
		return postToken(t, s.url+path, tok, body)
	}
	shell := func(cmd string) string {
		bs, _ := json.Marshal(map[string]any{"tool": "run_shell_command", "args": map[string]any{"command": cmd, "is_background": false}})
		return string(bs)
	}
	tool := func(name string, args map[string]any) string {
		bs, _ := json.Marshal(map[string]any{"tool": name, "args": args})
		return string(bs)
	}
	leak := filepath.Join(s.root, "leak")
	for _, call := range []string{
		shell("cat " + s.tokenFile),
		shell("cat " + s.tokenFile + " > " + leak),
		shell("cp " + s.tokenFile + " " + leak),
		shell(`cat "$XDG_STATE_HOME/gate/token" > ` + leak),
		shell("cat ~/.local/state/gate/token ~/.local/state/gate/* > " + leak),
		shell("cat < " + s.tokenFile),
		shell("cat lnk/token > " + leak),
		shell("grep -r . " + state + " > " + leak),
		shell("ln -s " + state + " " + filepath.Join(s.root, "lnk2")),
		shell("echo forged > " + s.tokenFile),
		tool("read_file", map[string]any{"absolute_path": s.tokenFile}),
		tool("read_file", map[string]any{"absolute_path": filepath.Join(s.root, "lnk", "token")}),
		tool("list_directory", map[string]any{"path": state}),
		tool("grep_search", map[string]any{"pattern": ".", "path": state}),
	} {
		for _, ep := range []string{"/v1/call", "/v1/decide"} {
			status, body := post(ep, call)
			if strings.Contains(body, tok) {
				t.Fatalf("%s %s: the answer holds the token: %s", ep, call, body)
			}
			want := 403
			if ep == "/v1/decide" {
				want = 200
			}
			if status != want || !strings.Contains(body, `"path_protected"`) || !strings.Contains(body, `"decision":"deny"`) {
				t.Errorf("%s %s: %d %s; want %d, a path_protected deny", ep, call, status, body, want)
			}
		}
	}
	for _, p := range []string{leak, filepath.Join(s.root, "lnk2")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was made: a refused call ran", p)
		}
	}
	if got := readFile(t, s.tokenFile); got != tok {
		t.Fatalf("the token file was changed: %q", got)
	}
	// The positive control: the same calls on an ordinary file answer its
	// contents, so the checks above would see a token that leaked.
	secret := fmt.Sprintf("%x", []byte("not the token"))
	if err := os.WriteFile(filepath.Join(s.root, "plain"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{shell("cat plain"), tool("read_file", map[string]any{"absolute_path": filepath.Join(s.root, "plain")})} {
		if status, body := post("/v1/call", call); status != 200 || !strings.Contains(body, secret) {
			t.Fatalf("control %s: %d %s", call, status, body)
		}
	}
}

// TestAttackReadTokenByScript: what the static decision cannot see. An
// allowed command runs a script that reads gate serve's token from a path
// spelt only inside the script, and lists the state directory. The fs
// layer covers the state directory with an empty mount in the command's
// mount namespace: the script runs (it reads an ordinary file beside it,
// the control) but finds no token.
func TestAttackReadTokenByScript(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3")
	if st := confine.Probe(); st.Landlock == 0 || !st.MountNS {
		t.Skipf("SKIP: the fs layer cannot hide paths on this machine (it needs Landlock and a private mount namespace, so root): %s", st)
	}
	s := startServe(t, "--approval-mode", "yolo")
	tok := s.token(t)
	control := fmt.Sprintf("%x", []byte("the control"))
	if err := os.WriteFile(filepath.Join(s.root, "plain"), []byte(control+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`import os
for p in [%q, "plain"]:
    try:
        print("read", p, open(p).read().strip())
    except OSError as e:
        print("refused", p, e.strerror)
try:
    print("listed", os.listdir(%q))
except OSError as e:
    print("refused listing", e.strerror)
`, s.tokenFile, filepath.Dir(s.tokenFile))
	if err := os.WriteFile(filepath.Join(s.root, "steal.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	bs, _ := json.Marshal(map[string]any{"tool": "run_shell_command", "args": map[string]any{"command": "python3 steal.py", "is_background": false}})
	status, body := postToken(t, s.url+"/v1/call", tok, string(bs))
	if strings.Contains(body, tok) {
		t.Fatalf("the script read the token: %s", body)
	}
	if status != 200 || !strings.Contains(body, "read plain "+control) || !strings.Contains(body, "refused "+s.tokenFile) ||
		strings.Contains(body, "'token'") {
		t.Fatalf("%d %s: want the script to run, read the control and find no token", status, body)
	}
}

// postToken posts a JSON body to url with a bearer token and returns the
// status and the body of the answer.
func postToken(t *testing.T, url, tok, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	bs, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(bs)
}

// TestAttackSocketFromCommand: gate serve on a unix socket needs no token,
// the socket's mode is the authentication, and the commands it runs are its
// own user: they could connect to it and approve their own calls. The
// socket is a secret path: naming it is refused, and the fs layer covers it
// in the command's mount namespace, so a script that connects to it by a
// path the static layer cannot see is refused.
func TestAttackSocketFromCommand(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3")
	if st := confine.Probe(); st.Landlock == 0 || !st.MountNS {
		t.Skipf("SKIP: the fs layer cannot hide paths on this machine (it needs Landlock and a private mount namespace): %s", st)
	}
	dir, err := os.MkdirTemp("", "gate-sock-") // short: socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "gate.sock")
	root := t.TempDir()
	script := fmt.Sprintf(`import socket
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(%q)
    s.sendall(b"GET /readyz HTTP/1.0\r\nHost: localhost\r\n\r\n")
    print("answered", s.recv(64))
except OSError as e:
    print("refused", e.strerror)
`, sock)
	if err := os.WriteFile(filepath.Join(root, "s.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	privateState(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan string, 1)
	go func() {
		_, _, stderr := runGate(t, ctx, "serve", "--root", root, "--approval-mode", "yolo", "--listen", "unix:"+sock)
		served <- stderr
	}()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	for i := 0; ; i++ {
		if resp, err := c.Get("http://localhost/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		if i == 500 {
			t.Fatal("gate serve did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	call := func(command string) string {
		bs, _ := json.Marshal(map[string]any{"tool": "run_shell_command", "args": map[string]any{"command": command, "is_background": false}})
		resp, err := c.Post("http://localhost/v1/call", "application/json", strings.NewReader(string(bs)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	if body := call("curl -s --unix-socket " + sock + " http://localhost/v1/approvals"); !strings.Contains(body, "path_protected") {
		t.Errorf("naming the socket: %s", body)
	}
	body := call("python3 s.py")
	if !strings.Contains(body, "refused") || strings.Contains(body, "answered") {
		t.Errorf("a script reached gate's socket: %s", body)
	}
	stop()
	<-served
}
