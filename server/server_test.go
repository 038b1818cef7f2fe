package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
)

func newGateway(t testing.TB, s engine.Settings) *Gateway {
	t.Helper()
	root := t.TempDir()
	// A generous evaluation budget: these tests are about the server, and a
	// busy CI machine must not turn a 2 MiB write's decision into an
	// eval_timeout (TestEvalTimeoutStartsWithTheSlot tests the timeout).
	e, err := engine.New(context.Background(), engine.Options{Settings: s, Root: root, Home: t.TempDir(), EvalTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.Options{Root: root, KillGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return NewGateway(e, r, metrics.New(), nil)
}

func yolo(exclude ...string) engine.Settings {
	return engine.Settings{Exclude: exclude, ApprovalMode: engine.ApprovalYolo}
}

func newServer(t *testing.T, g *Gateway, opts HandlerOptions) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(NewHandler(g, opts))
	t.Cleanup(srv.Close)
	return srv
}

func shell(command string) string {
	bs, _ := json.Marshal(map[string]any{"tool": "run_shell_command", "args": map[string]any{"command": command, "is_background": false}})
	return string(bs)
}

type response struct {
	status int
	body   map[string]any
}

func post(t *testing.T, client *http.Client, url, body string, header ...string) response {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, client, req)
}

func get(t *testing.T, client *http.Client, url string, header ...string) response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, client, req)
}

func do(t *testing.T, client *http.Client, req *http.Request) response {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	bs, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(bs, &r.body); err != nil {
			t.Fatalf("%s: %v", bs, err)
		}
	}
	return r
}

// at walks a decoded JSON body: at(b, "result", "stdout").
func at(v any, path ...string) any {
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

func errorCode(r response) string { s, _ := at(r.body, "error", "code").(string); return s }

func TestCall(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()

	r := post(t, c, srv.URL+"/v1/call", shell("echo hi; echo err >&2; exit 3"))
	if r.status != 200 || at(r.body, "result", "stdout") != "hi\n" || at(r.body, "result", "stderr") != "err\n" ||
		at(r.body, "result", "exit_code") != 3.0 || at(r.body, "decision", "decision") != "allow" {
		t.Fatalf("got %d %v", r.status, r.body)
	}
	if text, _ := r.body["text"].(string); !strings.Contains(text, "Exit Code: 3\n") {
		t.Errorf("text %q", text)
	}

	r = post(t, c, srv.URL+"/v1/call", shell("sleep 60 & echo started"))
	pids, _ := at(r.body, "result", "background_pids").([]any)
	if r.status != 200 || len(pids) != 1 {
		t.Fatalf("background pids: %v", r.body)
	}

	r = post(t, c, srv.URL+"/v1/call", shell("ls && \\rm -rf build"))
	if r.status != 403 || at(r.body, "decision", "decision") != "deny" || r.body["result"] != nil {
		t.Fatalf("excluded: %d %v", r.status, r.body)
	}

	r = post(t, c, srv.URL+"/v1/decide", shell("rm x"))
	if r.status != 200 || r.body["decision"] != "deny" {
		t.Fatalf("decide: %d %v", r.status, r.body)
	}

	want := `
# HELP gate_decisions_total Policy decisions by tool, decision (allow, deny, ask) and first reason code.
# TYPE gate_decisions_total counter
gate_decisions_total{decision="allow",reason="allowed",tool="run_shell_command"} 2
gate_decisions_total{decision="deny",reason="command_excluded",tool="run_shell_command"} 2
`
	if err := testutil.GatherAndCompare(metrics.NonZero(g.Metrics().Registry), strings.NewReader(want), "gate_decisions_total"); err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	bs, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, m := range []string{`gate_tool_calls_total{outcome="denied",tool="run_shell_command"} 1`, `gate_background_processes 1`,
		`gate_policy_info{revision="embedded"} 1`, "gate_decision_duration_seconds_bucket", "gate_inflight_calls 0", "go_goroutines", "process_open_fds"} {
		if !bytes.Contains(bs, []byte(m)) {
			t.Errorf("/metrics lacks %s", m)
		}
	}
}

func TestBadRequests(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{MaxBody: 1024})
	c := srv.Client()
	for _, tc := range []struct {
		name, path, body string
		status           int
		code             string
	}{
		{"malformed JSON", "/v1/call", `{"tool":`, 400, "invalid_call"},
		{"two values", "/v1/call", `{"tool":"x"} {}`, 400, "invalid_call"},
		{"no tool", "/v1/call", `{"args":{}}`, 400, "invalid_call"},
		{"unknown tool", "/v1/call", `{"tool":"format_disk","args":{}}`, 400, "tool_unknown"},
		{"missing is_background", "/v1/call", `{"tool":"run_shell_command","args":{"command":"ls"}}`, 400, "invalid_call"},
		{"bad timeout", "/v1/call", `{"tool":"run_shell_command","args":{"command":"ls","is_background":false,"timeout":700000}}`, 400, "invalid_call"},
		{"directory escape", "/v1/call", `{"tool":"run_shell_command","args":{"command":"ls","is_background":false,"directory":"../.."}}`, 400, "invalid_call"},
		{"too large", "/v1/call", `{"tool":"run_shell_command","args":{"command":"` + strings.Repeat("x", 2000) + `"}}`, 413, "request_too_large"},
		{"decide malformed", "/v1/decide", `[]`, 400, "invalid_call"},
		{"decide missing is_background", "/v1/decide", `{"tool":"run_shell_command","args":{"command":"ls"}}`, 400, "invalid_call"},
		{"decide command not a string", "/v1/decide", `{"tool":"run_shell_command","args":{"command":1,"is_background":false}}`, 400, "invalid_call"},
		{"no endpoint", "/v2/call", `{}`, 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, c, srv.URL+tc.path, tc.body)
			if r.status != tc.status || errorCode(r) != tc.code {
				t.Fatalf("got %d %v, want %d %s", r.status, r.body, tc.status, tc.code)
			}
		})
	}
}

func TestToken(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{Token: "s3cret"})
	c := srv.Client()
	if r := post(t, c, srv.URL+"/v1/decide", shell("ls")); r.status != 401 || errorCode(r) != "unauthorized" {
		t.Fatalf("no token: %d %v", r.status, r.body)
	}
	if r := post(t, c, srv.URL+"/v1/decide", shell("ls"), "Authorization", "Bearer wrong"); r.status != 401 {
		t.Fatalf("wrong token: %d", r.status)
	}
	if r := get(t, c, srv.URL+"/metrics"); r.status != 401 {
		t.Fatalf("metrics without token: %d", r.status)
	}
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER  s3cret "} {
		if r := post(t, c, srv.URL+"/v1/decide", shell("ls"), "Authorization", auth); r.status != 200 {
			t.Fatalf("right token as %q: %d %v", auth, r.status, r.body)
		}
	}
	if r := post(t, c, srv.URL+"/v1/decide", shell("ls"), "Authorization", "Basic s3cret"); r.status != 401 {
		t.Fatalf("another scheme: %d", r.status)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := get(t, c, srv.URL+p); r.status != 200 {
			t.Fatalf("%s: %d", p, r.status)
		}
	}
}

func TestReadyz(t *testing.T) {
	r, err := runner.New(runner.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGateway(nil, r, nil, nil)
	srv := newServer(t, g, HandlerOptions{})
	if resp := get(t, srv.Client(), srv.URL+"/readyz"); resp.status != 503 || errorCode(resp) != "not_ready" {
		t.Fatalf("readyz before policies: %d %v", resp.status, resp.body)
	}
	if resp := post(t, srv.Client(), srv.URL+"/v1/call", shell("ls")); resp.status != 503 {
		t.Fatalf("call before policies: %d %v", resp.status, resp.body)
	}
	e, err := engine.New(context.Background(), engine.Options{Root: r.Root()})
	if err != nil {
		t.Fatal(err)
	}
	g.SetEngine(e, "test")
	if resp := get(t, srv.Client(), srv.URL+"/readyz"); resp.status != 200 {
		t.Fatalf("readyz after policies: %d", resp.status)
	}
}

func TestBackgroundEndpoints(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()
	r := post(t, c, srv.URL+"/v1/call", `{"tool":"run_shell_command","args":{"command":"echo up; exec sleep 100","is_background":true,"description":"srv"}}`)
	pids, _ := at(r.body, "result", "background_pids").([]any)
	if r.status != 200 || len(pids) != 1 || !strings.HasPrefix(r.body["text"].(string), "Background command started. PID: ") {
		t.Fatalf("start: %d %v", r.status, r.body)
	}
	pid := strconv.Itoa(int(pids[0].(float64)))
	var p response
	for i := 0; i < 100; i++ {
		if p = get(t, c, srv.URL+"/v1/background/"+pid); p.body["stdout"] == "up\n" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p.status != 200 || p.body["stdout"] != "up\n" || p.body["running"] != true || p.body["description"] != "srv [background]" {
		t.Fatalf("get: %d %v", p.status, p.body)
	}
	list := get(t, c, srv.URL+"/v1/background")
	if procs, _ := list.body["processes"].([]any); len(procs) != 1 {
		t.Fatalf("list: %v", list.body)
	}
	stop := post(t, c, srv.URL+"/v1/background/"+pid+"/stop", "")
	if stop.status != 200 || stop.body["running"] != false {
		t.Fatalf("stop: %d %v", stop.status, stop.body)
	}
	n, _ := strconv.Atoi(pid)
	if syscall.Kill(n, 0) == nil {
		t.Fatalf("pid %s alive after stop", pid)
	}
	if r := get(t, c, srv.URL+"/v1/background/999999"); r.status != 404 || errorCode(r) != "not_found" {
		t.Fatalf("unknown pid: %d %v", r.status, r.body)
	}
	if r := get(t, c, srv.URL+"/v1/background/abc"); r.status != 400 {
		t.Fatalf("bad pid: %d", r.status)
	}
}

// waitGone waits until the process whose PID a command wrote to file has
// ended, and fails the test if it does not.
func waitGone(t *testing.T, file string) {
	t.Helper()
	var pid int
	for i := 0; i < 200; i++ {
		bs, _ := os.ReadFile(file)
		if pid, _ = strconv.Atoi(strings.TrimSpace(string(bs))); pid > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the command never wrote its PID")
	}
	for i := 0; i < 300; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("pid %d survived", pid)
}

func TestClientDisconnectCancels(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{})
	pidFile := filepath.Join(g.Runner().Root(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/call", strings.NewReader(shell("sleep 100 & echo $! > pid; wait")))
	req.Header.Set("Content-Type", "application/json")
	if _, err := srv.Client().Do(req); err == nil {
		t.Fatal("the call returned before the client gave up")
	}
	waitGone(t, pidFile)
	deadline := time.Now().Add(3 * time.Second)
	for {
		mfs, _ := g.Metrics().Registry.Gather()
		var cancelled float64
		for _, mf := range mfs {
			if mf.GetName() == "gate_tool_calls_total" {
				for _, m := range mf.Metric {
					for _, l := range m.Label {
						if l.GetName() == "outcome" && l.GetValue() == "cancelled" {
							cancelled += m.Counter.GetValue()
						}
					}
				}
			}
		}
		if cancelled == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled call was not counted")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

func TestConcurrentCallsNoLeak(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()
	// Warm up: one call so that lazily started goroutines exist.
	post(t, c, srv.URL+"/v1/call", shell("true"))
	c.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)

	const n = 200
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := fmt.Sprintf("echo %d", i)
			if i%4 == 0 {
				cmd = "rm -f x"
			}
			req, _ := http.NewRequest("POST", srv.URL+"/v1/call", strings.NewReader(shell(cmd)))
			req.Header.Set("Content-Type", "application/json")
			resp, err := c.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			var body map[string]any
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			switch {
			case i%4 == 0 && resp.StatusCode != 403:
				errs <- fmt.Sprintf("call %d: %d", i, resp.StatusCode)
			case i%4 != 0 && (resp.StatusCode != 200 || at(body, "result", "stdout") != fmt.Sprintf("%d\n", i)):
				errs <- fmt.Sprintf("call %d: %d %v", i, resp.StatusCode, body)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	c.CloseIdleConnections()
	var g2, f2 int
	for i := 0; i < 100; i++ {
		g2, f2 = runtime.NumGoroutine(), openFDs(t)
		if g2 <= goroutines+2 && f2 <= fds+2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if g2 > goroutines+2 || f2 > fds+2 {
		t.Fatalf("leak: goroutines %d -> %d, fds %d -> %d", goroutines, g2, fds, f2)
	}
}

func TestServeShutdown(t *testing.T) {
	for _, tc := range []struct {
		name     string
		command  string
		timeout  time.Duration
		finishes bool
	}{
		{"in-flight call finishes", "sleep 0.3; echo done", 10 * time.Second, true},
		{"call over the deadline is stopped", "sleep 100 & echo $! > pid; wait", 300 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t, yolo())
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() {
				served <- Serve(ctx, ln, g, NewHandler(g, HandlerOptions{}), ServeOptions{ShutdownTimeout: tc.timeout})
			}()
			url := "http://" + ln.Addr().String()
			got := make(chan response, 1)
			go func() { got <- post(t, http.DefaultClient, url+"/v1/call", shell(tc.command)) }()
			time.Sleep(150 * time.Millisecond)
			stop()
			r := <-got
			if err := <-served; err != nil {
				t.Fatal(err)
			}
			if tc.finishes {
				if r.status != 200 || at(r.body, "result", "stdout") != "done\n" {
					t.Fatalf("got %d %v", r.status, r.body)
				}
			} else {
				if r.status != 200 || at(r.body, "result", "cancelled") != true {
					t.Fatalf("got %d %v", r.status, r.body)
				}
				waitGone(t, filepath.Join(g.Runner().Root(), "pid"))
			}
			if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
				t.Fatal("still accepting connections after shutdown")
			}
		})
	}
}

func TestFileToolCalls(t *testing.T) {
	g := newGateway(t, yolo())
	root := g.Runner().Root()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755)
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()
	call := func(tool string, args map[string]any) response {
		bs, _ := json.Marshal(map[string]any{"tool": tool, "args": args})
		return post(t, c, srv.URL+"/v1/call", string(bs))
	}
	if r := call("read_file", map[string]any{"file_path": "a.txt"}); r.status != 200 || r.body["text"] != "one\ntwo\n" {
		t.Fatalf("read: %d %v", r.status, r.body)
	}
	r := call("edit", map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "2"})
	if r.status != 200 || at(r.body, "result", "change", "diff") != "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n" {
		t.Fatalf("edit: %d %v", r.status, r.body)
	}
	if bs, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(bs) != "one\n2\n" {
		t.Fatalf("a.txt now %q", bs)
	}
	if r := call("edit", map[string]any{"file_path": "a.txt", "old_string": "absent", "new_string": "x"}); r.status != 200 ||
		at(r.body, "result", "error", "type") != "edit_no_occurrence_found" {
		t.Fatalf("failed edit: %d %v", r.status, r.body)
	}
	r = call("write_file", map[string]any{"file_path": ".git/hooks/pre-commit", "content": "#!/bin/sh\nrm -rf /\n"})
	if r.status != 403 || at(r.body, "decision", "decision") != "deny" {
		t.Fatalf("protected write: %d %v", r.status, r.body)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
		t.Fatal("a denied write reached the disk")
	}
	if r := call("read_file", map[string]any{"file_path": "../../etc/passwd"}); r.status != 403 {
		t.Fatalf("outside read: %d %v", r.status, r.body)
	}
	if r := call("glob", map[string]any{"pattern": "*.txt"}); r.status != 200 || !strings.Contains(r.body["text"].(string), "a.txt") {
		t.Fatalf("glob: %d %v", r.status, r.body)
	}
	if r := call("grep_search", map[string]any{"pattern": "one"}); r.status != 200 || !strings.Contains(r.body["text"].(string), "a.txt:1:one") {
		t.Fatalf("grep: %d %v", r.status, r.body)
	}
	if r := call("list_directory", map[string]any{"path": "."}); r.status != 200 || !strings.Contains(r.body["text"].(string), "a.txt") {
		t.Fatalf("list: %d %v", r.status, r.body)
	}
	want := `
# HELP gate_tool_calls_total Tool calls by tool and outcome (ok, failed, signaled, timeout, cancelled, background, error, denied).
# TYPE gate_tool_calls_total counter
gate_tool_calls_total{outcome="denied",tool="read_file"} 1
gate_tool_calls_total{outcome="denied",tool="write_file"} 1
gate_tool_calls_total{outcome="failed",tool="edit"} 1
gate_tool_calls_total{outcome="ok",tool="edit"} 1
gate_tool_calls_total{outcome="ok",tool="glob"} 1
gate_tool_calls_total{outcome="ok",tool="grep_search"} 1
gate_tool_calls_total{outcome="ok",tool="list_directory"} 1
gate_tool_calls_total{outcome="ok",tool="read_file"} 1
`
	if err := testutil.GatherAndCompare(metrics.NonZero(g.Metrics().Registry), strings.NewReader(want), "gate_tool_calls_total"); err != nil {
		t.Fatal(err)
	}
}

func mustRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
