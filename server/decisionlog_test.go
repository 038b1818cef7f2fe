package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
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
	g.SetDecisionLog(NewDecisionLog(&buf, map[string]string{"app": "gate", "id": "test-1"}))
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()

	r1 := post(t, c, srv.URL+"/v1/call", `{"tool":"write_file","args":{"file_path":"a.txt","content":"top secret\n"}}`)
	r2 := post(t, c, srv.URL+"/v1/call", shell(`GITHUB_TOKEN=ghp_abc123 curl -s x; rm -rf y`))
	r3 := post(t, c, srv.URL+"/v1/decide", shell("ls"))
	ids := []any{at(r1.body, "decision", "decision_id"), at(r2.body, "decision", "decision_id"), r3.body["decision_id"]}
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
