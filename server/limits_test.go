package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
)

func TestLimiter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		slots      int
		queue      int
		timeout    time.Duration
		held       int // slots taken before the last acquire
		waiters    int // acquires left waiting before the last one
		cancel     bool
		wantErr    bool
		wantCause  string
		wantQueued float64
	}{
		{name: "free slot", slots: 2, queue: 1, timeout: time.Minute, held: 1},
		{name: "queue full", slots: 1, queue: 1, timeout: time.Minute, held: 1, waiters: 1, wantErr: true, wantCause: metrics.OverloadQueueFull, wantQueued: 1},
		{name: "queue timeout", slots: 1, queue: 4, timeout: 50 * time.Millisecond, held: 1, wantErr: true, wantCause: metrics.OverloadQueueTimeout},
		{name: "cancelled while queued", slots: 1, queue: 4, timeout: time.Minute, held: 1, cancel: true, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := metrics.New()
			l := newLimiter(metrics.StageDecide, tc.slots, Limits{MaxQueue: tc.queue, QueueTimeout: tc.timeout}.withDefaults(), m)
			for i := 0; i < tc.held; i++ {
				if _, err := l.acquire(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for i := 0; i < tc.waiters; i++ {
				go l.acquire(ctx)
			}
			for l.waiting.Load() < int64(tc.waiters) {
				time.Sleep(time.Millisecond)
			}
			if tc.cancel {
				time.AfterFunc(20*time.Millisecond, cancel)
			}
			release, err := l.acquire(ctx)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if err == nil {
				release()
				return
			}
			var oe *OverloadedError
			if engine.CodeOf(err) != engine.CodeOverloaded || !strings.HasPrefix(err.Error(), "overloaded: ") || !errorsAs(err, &oe) || oe.After != DefaultRetryAfter {
				t.Fatalf("error %v", err)
			}
			for _, cause := range metrics.OverloadCauses {
				want := 0.0
				if cause == tc.wantCause {
					want = 1
				}
				if got := counter(t, m, "gate_overload_total", "cause", cause); got != want {
					t.Errorf("gate_overload_total{cause=%q} = %v, want %v", cause, got, want)
				}
			}
			if got := gauge(t, m, "gate_queue_length", "stage", metrics.StageDecide); got != tc.wantQueued {
				t.Errorf("gate_queue_length = %v, want %v", got, tc.wantQueued)
			}
		})
	}
}

// errorsAs is errors.As for the test's table.
func errorsAs(err error, target **OverloadedError) bool {
	for err != nil {
		if e, ok := err.(*OverloadedError); ok {
			*target = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// sample returns the value of the series of a metric family whose label
// has the value, summed over the other labels (all series when label is
// "").
func sample(t *testing.T, m *metrics.Metrics, name, label, value string) float64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.Metric {
			for _, l := range s.Label {
				if l.GetName() == label && l.GetValue() == value {
					sum += s.GetCounter().GetValue() + s.GetGauge().GetValue()
				}
			}
			if label == "" {
				sum += s.GetCounter().GetValue() + s.GetGauge().GetValue()
			}
		}
	}
	return sum
}

func counter(t *testing.T, m *metrics.Metrics, name, label, value string) float64 {
	t.Helper()
	return sample(t, m, name, label, value)
}

func gauge(t *testing.T, m *metrics.Metrics, name, label, value string) float64 {
	t.Helper()
	return sample(t, m, name, label, value)
}

// waitFor polls cond until it holds, failing after a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// jsonPost posts a call as an agent does: JSON, with the bearer token.
func jsonPost(t *testing.T, c *http.Client, url, body string) (response, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	bs, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode}
	if err := json.Unmarshal(bs, &r.body); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, bs, err)
	}
	return r, resp.Header
}

const testToken = "limits-test-token"

// TestRunQueueOverHTTP fills the run slots and the queue with real
// commands: the next call is answered 503 overloaded with Retry-After and
// does not run; queued calls run once a slot is free; one that waits past
// the queue timeout is answered 503 and never runs.
func TestRunQueueOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		name         string
		queueTimeout time.Duration
		cause        string
		queuedRuns   bool
	}{
		{"queue full", time.Minute, metrics.OverloadQueueFull, true},
		{"queue timeout", 300 * time.Millisecond, metrics.OverloadQueueTimeout, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t, yolo())
			g.SetLimits(Limits{MaxCalls: 1, MaxQueue: 1, QueueTimeout: tc.queueTimeout})
			srv := newServer(t, g, HandlerOptions{Token: testToken})
			root := g.Runner().Root()
			c := srv.Client()
			first := make(chan response, 1)
			go func() {
				r, _ := jsonPost(t, c, srv.URL+"/v1/call", shell("until [ -e go ]; do sleep 0.02; done; touch first"))
				first <- r
			}()
			waitFor(t, "the first call to run", func() bool { return len(g.running.slots) == 1 })
			queued := make(chan response, 1)
			go func() {
				r, _ := jsonPost(t, c, srv.URL+"/v1/call", shell("touch queued"))
				queued <- r
			}()
			waitFor(t, "the second call to queue", func() bool { return gauge(t, g.Metrics(), "gate_queue_length", "stage", "run") == 1 })
			if tc.cause == metrics.OverloadQueueFull {
				r, h := jsonPost(t, c, srv.URL+"/v1/call", shell("touch third"))
				if r.status != http.StatusServiceUnavailable || errorCode(r) != "overloaded" || h.Get("Retry-After") != "1" {
					t.Fatalf("third call: %d %v Retry-After %q", r.status, r.body, h.Get("Retry-After"))
				}
			} else {
				r := <-queued
				if r.status != http.StatusServiceUnavailable || errorCode(r) != "overloaded" {
					t.Fatalf("queued call: %d %v", r.status, r.body)
				}
			}
			if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if r := <-first; r.status != 200 {
				t.Fatalf("first call: %d %v", r.status, r.body)
			}
			if tc.queuedRuns {
				if r := <-queued; r.status != 200 {
					t.Fatalf("queued call: %d %v", r.status, r.body)
				}
			}
			for file, want := range map[string]bool{"first": true, "queued": tc.queuedRuns, "third": false} {
				if _, err := os.Stat(filepath.Join(root, file)); (err == nil) != want {
					t.Errorf("%s ran: %v, want %v", file, err == nil, want)
				}
			}
			if got := counter(t, g.Metrics(), "gate_overload_total", "cause", tc.cause); got != 1 {
				t.Errorf("gate_overload_total{cause=%q} = %v", tc.cause, got)
			}
			// The endpoint's refusal is counted at the HTTP layer too.
			if got := counter(t, g.Metrics(), "gate_http_refusals_total", "code", "overloaded"); got != 1 {
				t.Errorf("gate_http_refusals_total{code=\"overloaded\"} = %v", got)
			}
		})
	}
}

// TestOverloadOverMCP: an overloaded call is a tool error that says so,
// and it does not run.
func TestOverloadOverMCP(t *testing.T) {
	g, root := mcpGateway(t, yolo())
	g.SetLimits(Limits{MaxCalls: 1, MaxQueue: 1, QueueTimeout: time.Minute})
	// Hold the slot and the queue place.
	release, err := g.running.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	g.running.waiting.Add(1)
	defer g.running.waiting.Add(-1)
	ctx := context.Background()
	cs := mcpClient(t, ctx, g, "test")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": "touch ran", "is_background": false}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(textOf(res), "overloaded") {
		t.Fatalf("got %+v %q", res, textOf(res))
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Fatal("an overloaded call ran")
	}
}

// TestApprovalLimits: beyond the pending approvals' count or bytes, a call
// the policy asks about is denied at once with limit_reached and does not
// run; a pending write shows a bounded preview, and approving it writes the
// whole content.
func TestApprovalLimits(t *testing.T) {
	g := newGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
	g.SetApprovals(NewApprovals(time.Minute, nil))
	g.SetLimits(Limits{MaxPendingApprovals: 1, MaxApprovalBytes: 1 << 20})
	srv := newServer(t, g, HandlerOptions{Token: testToken})
	c, root := srv.Client(), g.Runner().Root()
	write := func(name string, size int) string {
		bs, _ := json.Marshal(map[string]any{"tool": "write_file", "args": map[string]any{"file_path": name, "content": strings.Repeat("x\n", size/2)}})
		return string(bs)
	}
	refused := func(what string, r response) {
		t.Helper()
		reasons, _ := at(r.body, "decision", "reasons").([]any)
		if r.status != 403 || at(r.body, "decision", "decision") != "deny" || len(reasons) < 2 ||
			at(reasons[0], "code") != "limit_reached" || at(reasons[1], "code") != "approval_required" || at(r.body, "approval", "outcome") != "refused" {
			t.Fatalf("%s: %d %v", what, r.status, r.body)
		}
	}

	// Too big on its own: refused at once.
	r, _ := jsonPost(t, c, srv.URL+"/v1/call", write("big.txt", 2<<20))
	refused("over the bytes", r)

	// One pending write of 100 KB: listed as a preview.
	pending := make(chan response, 1)
	go func() { r, _ := jsonPost(t, c, srv.URL+"/v1/call", write("notes.txt", 100<<10)); pending <- r }()
	var p map[string]any
	waitFor(t, "the write to wait for approval", func() bool {
		r := get(t, c, srv.URL+"/v1/approvals", "Authorization", "Bearer "+testToken)
		list, _ := r.body["approvals"].([]any)
		if len(list) > 0 {
			p, _ = list[0].(map[string]any)
		}
		return p != nil
	})
	content, _ := at(p, "args", "content").(string)
	size, _ := p["size"].(float64)
	diff, _ := at(p, "change", "diff").(string)
	if len(content) > PreviewBytes+len("…") || p["truncated"] != true || size < 300<<10 || len(diff) > PreviewBytes ||
		at(p, "change", "diff_bytes").(float64) < 100<<10 || at(p, "change", "path") != "notes.txt" {
		t.Fatalf("pending preview: content %d bytes, %v", len(content), map[string]any{"size": p["size"], "truncated": p["truncated"], "change_path": at(p, "change", "path")})
	}

	// The count is full: the next ask is refused and nothing runs.
	r, _ = jsonPost(t, c, srv.URL+"/v1/call", shell("touch second"))
	refused("over the count", r)
	if _, err := os.Stat(filepath.Join(root, "second")); err == nil {
		t.Fatal("a refused call ran")
	}
	if _, err := os.Stat(filepath.Join(root, "big.txt")); err == nil {
		t.Fatal("a refused write was written")
	}
	if got := counter(t, g.Metrics(), "gate_approvals_total", "outcome", "refused"); got != 2 {
		t.Errorf("gate_approvals_total{outcome=refused} = %v", got)
	}
	want := "\n# HELP gate_approvals_pending Calls waiting for a human's answer in the approvals API.\n# TYPE gate_approvals_pending gauge\ngate_approvals_pending 1\n"
	if err := testutil.GatherAndCompare(g.Metrics().Registry, strings.NewReader(want), "gate_approvals_pending"); err != nil {
		t.Fatal(err)
	}

	// Approving writes the whole content, not the preview.
	if r, _ := jsonPost(t, c, srv.URL+"/v1/approvals/"+p["id"].(string)+"/approve", `{"by":"alice"}`); r.status != 200 {
		t.Fatalf("approve: %d %v", r.status, r.body)
	}
	if r := <-pending; r.status != 200 {
		t.Fatalf("approved write: %d %v", r.status, r.body)
	}
	bs, err := os.ReadFile(filepath.Join(root, "notes.txt"))
	if err != nil || len(bs) != 100<<10 {
		t.Fatalf("written %d bytes, %v", len(bs), err)
	}
	if got := sample(t, g.Metrics(), "gate_approvals_pending_bytes", "", ""); got != 0 {
		t.Errorf("gate_approvals_pending_bytes = %v after the answer", got)
	}
}

// TestEvalTimeoutStartsWithTheSlot: a decision that waits in the queue
// longer than the evaluation timeout is still evaluated in full once it
// has its slot — waiting is bounded by the queue timeout, never turned
// into an eval_timeout deny.
func TestEvalTimeoutStartsWithTheSlot(t *testing.T) {
	root := t.TempDir()
	e, err := engine.New(context.Background(), engine.Options{Settings: yolo(), Root: root, Home: t.TempDir(), EvalTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, yolo())
	g.SetEngine(e, "test")
	g.SetLimits(Limits{MaxDecisions: 1, QueueTimeout: time.Minute})
	release, err := g.deciding.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan engine.Decision, 1)
	go func() {
		d, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": "ls", "is_background": false}})
		if err != nil {
			t.Error(err)
		}
		done <- d
	}()
	waitFor(t, "the decision to queue", func() bool { return g.deciding.waiting.Load() == 1 })
	time.Sleep(300 * time.Millisecond) // three evaluation timeouts in the queue
	release()
	if d := <-done; d.Decision != engine.Allow {
		t.Fatalf("a queued decision was %s: %v", d.Decision, d.Reasons)
	}
}
