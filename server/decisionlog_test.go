package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("decision log line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// TestDecisionLog checks every decision's log line: OPA's shape, the
// decision id the response carries, secrets masked.
func TestDecisionLog(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	var buf syncBuffer
	dl := NewDecisionLog(&buf, map[string]string{"app": "gate", "id": "test-1"})
	g.SetDecisionLog(dl)
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()

	r1 := post(t, c, srv.URL+"/v1/call", `{"tool":"write_file","args":{"file_path":"a.txt","content":"top secret\n"}}`)
	r2 := post(t, c, srv.URL+"/v1/call", shell(`GITHUB_TOKEN=ghp_abc123 curl -s x; rm -rf y`))
	r3 := post(t, c, srv.URL+"/v1/decide", shell("ls"))
	ids := []any{at(r1.body, "decision", "decision_id"), at(r2.body, "decision", "decision_id"), r3.body["decision_id"]}
	if !dl.Flush(10 * time.Second) {
		t.Fatal("the decision log did not flush")
	}
	lines := buf.lines(t)
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		for _, f := range []string{"decision_id", "timestamp", "path", "input", "result", "labels", "bundles", "metrics"} {
			if _, ok := l[f]; !ok {
				t.Errorf("line %d lacks %s: %v", i, f, l)
			}
		}
		if l["decision_id"] != ids[i] || l["decision_id"] == "" || l["path"] != "gate/decision" || at(l, "labels", "id") != "test-1" {
			t.Errorf("line %d: id %v (response %v), path %v, labels %v", i, l["decision_id"], ids[i], l["path"], l["labels"])
		}
		if _, err := time.Parse(time.RFC3339Nano, l["timestamp"].(string)); err != nil {
			t.Errorf("line %d timestamp: %v", i, err)
		}
		if m, _ := l["metrics"].(map[string]any); m["timer_gate_decision_ns"] == nil {
			t.Errorf("line %d metrics %v", i, m)
		}
		if !strings.HasPrefix(l["requested_by"].(string), "127.0.0.1:") {
			t.Errorf("line %d requested_by %v", i, l["requested_by"])
		}
	}
	all := buf.b.String()
	for _, secret := range []string{"top secret", "ghp_abc123"} {
		if strings.Contains(all, secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
	if at(lines[0], "input", "args", "content") != nil || at(lines[0], "input", "change", "diff") != nil {
		t.Errorf("content not erased: %v", lines[0]["input"])
	}
	if erased, _ := lines[0]["erased"].([]any); len(erased) != 2 {
		t.Errorf("erased %v", lines[0]["erased"])
	}
	if at(lines[1], "input", "args", "command") != "GITHUB_TOKEN=*** curl -s x; rm -rf y" || at(lines[1], "result", "decision") != "deny" {
		t.Errorf("token not masked: %v", at(lines[1], "input", "args"))
	}
	if masked, _ := lines[1]["masked"].([]any); len(masked) != 2 {
		t.Errorf("masked %v", lines[1]["masked"])
	}
	if at(lines[2], "input", "shell", "segments") == nil {
		t.Error("segments erased without a reason")
	}
}

// decisionLogs returns gate_decision_logs_total by result.
func decisionLogs(t *testing.T, g *Gateway) map[string]float64 {
	return countersBy(t, g, "gate_decision_logs_total")
}

// decideMany runs n decisions, failing if they do not all complete.
func decideMany(t *testing.T, g *Gateway, n int) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < n; i++ {
			if _, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": fmt.Sprintf("ls -la dir%d", i), "is_background": false}}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("decisions hang behind the decision log")
	}
}

// TestDecisionLogStuckReader logs to a real pipe whose reader never
// reads: decisions keep completing, and the events that do not fit are
// dropped and counted; what the reader finally reads is whole lines.
func TestDecisionLogStuckReader(t *testing.T) {
	g := newGateway(t, yolo())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dl := NewDecisionLog(w, nil)
	g.SetDecisionLog(dl)
	if got := decisionLogs(t, g); got["dropped"] != 0 || len(got) != 3 {
		t.Fatalf("decision log counters before any decision: %v", got)
	}
	const n = DecisionLogQueue + 500
	decideMany(t, g, n)
	got := decisionLogs(t, g)
	if got["dropped"] == 0 {
		t.Fatalf("nothing dropped behind a reader that does not read: %v", got)
	}
	// The reader wakes up: every event that was not dropped arrives whole.
	go func() { dl.Close(); w.Close() }()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v: %.200q", lines, err, sc.Text())
		}
		lines++
	}
	got = decisionLogs(t, g)
	if float64(lines) != got["written"] || got["written"]+got["dropped"] != n || got["error"] != 0 {
		t.Fatalf("%d lines read; counters %v for %d decisions", lines, got, n)
	}
}

// TestDecisionLogReaderGone closes the pipe's reader: writes fail with
// EPIPE, the events are dropped and counted, and decisions go on.
func TestDecisionLogReaderGone(t *testing.T) {
	g := newGateway(t, yolo())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	dl := NewDecisionLog(w, nil)
	g.SetDecisionLog(dl)
	decideMany(t, g, 50)
	dl.Flush(10 * time.Second)
	if got := decisionLogs(t, g); got["dropped"] != 50 || got["written"] != 0 {
		t.Fatalf("counters %v", got)
	}
}

// TestDecisionLogSubprocessReaderGone runs a real process that logs its
// decisions to standard output (OpenDecisionLog("-")), whose reader exits
// after the first line: the process is not killed by SIGPIPE and goes on
// deciding.
func TestDecisionLogSubprocessReaderGone(t *testing.T) {
	if os.Getenv("GATE_DECISION_LOG_CHILD") == "1" {
		g := newGateway(t, yolo())
		dl, closer, err := OpenDecisionLog("-", nil)
		if err != nil {
			t.Fatal(err)
		}
		g.SetDecisionLog(dl)
		decideMany(t, g, 1)
		dl.Flush(10 * time.Second)
		time.Sleep(200 * time.Millisecond) // the parent closes its end
		decideMany(t, g, 200)
		closer.Close()
		fmt.Fprintf(os.Stderr, "alive counters=%v\n", decisionLogs(t, g))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDecisionLogSubprocessReaderGone$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GATE_DECISION_LOG_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(first, `"decision_id"`) {
		t.Fatalf("first line %q: %v", first, err)
	}
	out.Close() // the reader exits
	err = cmd.Wait()
	if err != nil {
		t.Fatalf("the child died: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "alive counters=map[dropped:200 error:0 written:1]") {
		t.Fatalf("child: %s", stderr.String())
	}
}

// failingWriter fails some writes: a short write with ENOSPC (a full disk)
// or nothing written at all.
type failingWriter struct {
	syncBuffer
	calls int
	fail  map[int]string // call number → "short" or "none"
}

func (f *failingWriter) Write(p []byte) (int, error) {
	f.calls++
	switch f.fail[f.calls] {
	case "short":
		n, _ := f.syncBuffer.Write(p[:len(p)/2])
		return n, syscall.ENOSPC
	case "none":
		return 0, syscall.ENOSPC
	}
	return f.syncBuffer.Write(p)
}

// TestDecisionLogTornLine makes writes fail midway: the torn line stays,
// but every later event is a whole line of its own, never glued to it.
func TestDecisionLogTornLine(t *testing.T) {
	g := newGateway(t, yolo())
	fw := &failingWriter{fail: map[int]string{2: "short", 3: "none", 5: "short", 6: "short"}}
	dl := NewDecisionLog(fw, nil)
	g.SetDecisionLog(dl)
	decideMany(t, g, 8)
	dl.Flush(10 * time.Second)
	var whole, torn int
	for _, line := range strings.Split(strings.TrimSuffix(fw.b.String(), "\n"), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			whole++
			continue
		}
		if strings.Count(line, `"decision_id"`) > 1 {
			t.Fatalf("events glued: %.300q", line)
		}
		torn++
	}
	// Events 2, 5 and 6 tore; 3 wrote nothing; the rest are whole.
	if got := decisionLogs(t, g); whole != 4 || torn != 3 || got["written"] != 4 || got["error"] != 4 {
		t.Fatalf("%d whole lines, %d torn; counters %v\n%s", whole, torn, got, fw.b.String())
	}
}

func TestMaskString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`curl -H "Authorization: Bearer abc.def-123" https://x`, `curl -H "Authorization: Bearer ***" https://x`},
		{`curl -H 'authorization: basic dXNlcjpwYXNz' x`, `curl -H 'authorization: basic ***' x`},
		{`http GET x "Bearer eyJhbGciOi"`, `http GET x "Bearer ***"`},
		{`DB_PASSWORD=hunter2 ./migrate`, `DB_PASSWORD=*** ./migrate`},
		{`export MYSQL_ROOT_PASSWORD='s3cr et'; run`, `export MYSQL_ROOT_PASSWORD=***; run`},
		{`AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG aws s3 ls`, `AWS_SECRET_ACCESS_KEY=*** aws s3 ls`},
		{`GITHUB_TOKEN=ghp_x gh pr list`, `GITHUB_TOKEN=*** gh pr list`},
		{`mysql --password=hunter2 db`, `mysql --password=*** db`},
		{`git clone https://alice:hunter2@github.com/a/b.git`, `git clone https://alice:***@github.com/a/b.git`},
		{`psql postgres://u:p4ss@db:5432/x`, `psql postgres://u:***@db:5432/x`},
		{`git clone https://github.com/a/b.git && ls -la`, `git clone https://github.com/a/b.git && ls -la`},
		{`echo password is fine; PATH=/bin ls`, `echo password is fine; PATH=/bin ls`},
	} {
		if got := maskString(tc.in); got != tc.want {
			t.Errorf("maskString(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDecisionLogMasksSecrets logs calls carrying secrets in commands and
// arguments: none reaches the log, in the input, the parsed segments or
// the reasons.
func TestDecisionLogMasksSecrets(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(curl)"))
	var buf syncBuffer
	dl := NewDecisionLog(&buf, nil)
	g.SetDecisionLog(dl)
	calls := []engine.Call{
		{Tool: engine.ToolShell, Args: map[string]any{"command": `curl -H "Authorization: Bearer s3cr3tA" https://bob:s3cr3tB@example.org`, "is_background": false}},
		{Tool: engine.ToolShell, Args: map[string]any{"command": `AWS_SECRET_ACCESS_KEY=s3cr3tC DB_PASSWORD=s3cr3tD aws s3 ls`, "is_background": false}},
		{Tool: engine.ToolGlob, Args: map[string]any{"pattern": "*", "path": "https://eve:s3cr3tE@host/x"}},
	}
	for _, c := range calls {
		if _, err := g.Decide(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	dl.Flush(10 * time.Second)
	lines := buf.lines(t)
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	if strings.Contains(buf.b.String(), "s3cr3t") {
		t.Fatalf("a secret reached the decision log:\n%s", buf.b.String())
	}
	if at(lines[0], "input", "args", "command") != `curl -H "Authorization: Bearer ***" https://bob:***@example.org` {
		t.Errorf("command %v", at(lines[0], "input", "args", "command"))
	}
	if masked, _ := lines[1]["masked"].([]any); len(masked) == 0 || masked[0] == "" {
		t.Errorf("masked %v", lines[1]["masked"])
	}
}
