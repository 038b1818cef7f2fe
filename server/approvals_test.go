package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
)

// waitPending polls GET /v1/approvals until one call waits, and returns it.
func waitPending(t *testing.T, url string, c *http.Client) map[string]any {
	t.Helper()
	for i := 0; i < 200; i++ {
		r := get(t, c, url+"/v1/approvals")
		if list, _ := r.body["approvals"].([]any); len(list) > 0 {
			return list[0].(map[string]any)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no call waited for approval")
	return nil
}

func TestApprovals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string // approve, deny, or "" to let it time out
		status  int
		outcome string
		ran     bool
	}{
		{"approve", "approve", 200, "approved", true},
		{"deny", "deny", 403, "denied", false},
		{"timeout", "", 403, "timeout", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
			g.SetApprovals(NewApprovals(500*time.Millisecond, nil))
			srv := newServer(t, g, HandlerOptions{})
			done := make(chan response, 1)
			go func() { done <- post(t, srv.Client(), srv.URL+"/v1/call", shell("touch made")) }()
			p := waitPending(t, srv.URL, srv.Client())
			if p["tool"] != "run_shell_command" || at(p, "args", "command") != "touch made" || at(p, "decision", "decision") != "ask" {
				t.Fatalf("pending %v", p)
			}
			if tc.answer != "" {
				r := post(t, srv.Client(), srv.URL+"/v1/approvals/"+p["id"].(string)+"/"+tc.answer, `{"by":"alice","reason":"checked"}`)
				if r.status != 200 || r.body["outcome"] != tc.outcome {
					t.Fatalf("answer: %d %v", r.status, r.body)
				}
			}
			r := <-done
			if r.status != tc.status || at(r.body, "approval", "outcome") != tc.outcome {
				t.Fatalf("call: %d %v", r.status, r.body)
			}
			if tc.answer != "" && at(r.body, "approval", "by") != "alice" {
				t.Errorf("approval by %v", at(r.body, "approval", "by"))
			}
			_, err := os.Stat(filepath.Join(g.Runner().Root(), "made"))
			if (err == nil) != tc.ran {
				t.Fatalf("ran %v, want %v", err == nil, tc.ran)
			}
			want := "\n# HELP gate_approvals_total Answers to calls the policy asked about, by outcome (approved, denied, timeout, cancelled; refused when the pending approvals were full) and channel (api, elicitation).\n# TYPE gate_approvals_total counter\ngate_approvals_total{outcome=\"" + tc.outcome + "\",via=\"api\"} 1\n"
			if err := testutil.GatherAndCompare(metrics.NonZero(g.Metrics().Registry), strings.NewReader(want), "gate_approvals_total"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestApprovalErrors(t *testing.T) {
	g := newGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
	srv := newServer(t, g, HandlerOptions{})
	// Without approvals configured an ask is refused at once.
	if r := post(t, srv.Client(), srv.URL+"/v1/call", shell("ls")); r.status != 403 || r.body["approval"] != nil {
		t.Fatalf("ask without approvals: %d %v", r.status, r.body)
	}
	g.SetApprovals(NewApprovals(time.Second, nil))
	if r := post(t, srv.Client(), srv.URL+"/v1/approvals/nope/approve", ""); r.status != 404 || errorCode(r) != "not_found" {
		t.Fatalf("unknown id: %d %v", r.status, r.body)
	}
	if r := post(t, srv.Client(), srv.URL+"/v1/approvals/nope/approve", "{"); r.status != 400 {
		t.Fatalf("bad body: %d %v", r.status, r.body)
	}
	r := get(t, srv.Client(), srv.URL+"/v1/approvals")
	if bs, _ := json.Marshal(r.body); string(bs) != `{"approvals":[]}` {
		t.Fatalf("empty list: %s", bs)
	}
}
