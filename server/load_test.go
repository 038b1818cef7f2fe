package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

// The load figures of the README ("Operating a fleet") come from
//
//	go test ./server -run TestLoad -v
//
// which logs them; -short runs a tenth of the decisions.

// loadResult tallies the answers of a load run.
type loadResult struct {
	mu       sync.Mutex
	statuses map[int]int
	reasons  map[string]int // first reason code of answered decisions
	wrong    []string       // answers that are neither right nor 503 overloaded
}

func (r *loadResult) String() string {
	return "statuses " + jsonString(r.statuses) + ", reasons " + jsonString(r.reasons)
}

func jsonString(v any) string { bs, _ := json.Marshal(v); return string(bs) }

// load sends n requests to url with at most conc in flight, each with body,
// and checks every answer with check (which returns "" when it is right);
// a 503 must be overloaded with a Retry-After.
func load(t *testing.T, url, body string, n, conc int, check func(status int, ans map[string]any) string) *loadResult {
	t.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 5 * time.Minute}
	res := &loadResult{statuses: map[int]int{}, reasons: map[string]int{}}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				req, _ := http.NewRequest("POST", url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+testToken)
				resp, err := c.Do(req)
				if err != nil {
					res.mu.Lock()
					res.wrong = append(res.wrong, err.Error())
					res.mu.Unlock()
					continue
				}
				bs, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var ans map[string]any
				_ = json.Unmarshal(bs, &ans)
				problem := ""
				if resp.StatusCode == http.StatusServiceUnavailable {
					if at(ans, "error", "code") != "overloaded" || resp.Header.Get("Retry-After") == "" {
						problem = "503 without overloaded and Retry-After: " + string(bs)
					}
				} else {
					problem = check(resp.StatusCode, ans)
				}
				reason, _ := at(ans, "reasons").([]any)
				if d, ok := ans["decision"].(map[string]any); ok {
					reason, _ = d["reasons"].([]any)
				}
				res.mu.Lock()
				res.statuses[resp.StatusCode]++
				if len(reason) > 0 {
					code, _ := at(reason[0], "code").(string)
					res.reasons[code]++
				}
				if problem != "" && len(res.wrong) < 10 {
					res.wrong = append(res.wrong, problem)
				}
				res.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return res
}

// memWatch samples the heap in use and the peak resident set while a load
// runs.
type memWatch struct {
	stop     chan struct{}
	done     chan struct{}
	peakHeap uint64
}

func watchMemory() *memWatch {
	w := &memWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			w.peakHeap = max(w.peakHeap, ms.HeapInuse)
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *memWatch) end() (peakHeapMB float64) {
	close(w.stop)
	<-w.done
	return float64(w.peakHeap) / (1 << 20)
}

// vmHWM is the process's peak resident set in MB, or 0 where /proc has no
// status.
func vmHWM() float64 {
	bs, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(bs), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// TestLoad runs the load against a real HTTP server on loopback:
// 1,000 concurrent calls and 20,000 decisions at concurrency 1,000 are all
// answered right (no allowed call denied for eval_timeout); with a small
// queue, overload is answered 503 and every other answer is still right.
func TestLoad(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	srv := newServer(t, g, HandlerOptions{Token: testToken})
	decisions := 20000
	if testing.Short() {
		decisions = 2000
	}
	allowed := func(status int, ans map[string]any) string {
		if status != 200 || ans["decision"] != "allow" {
			return "decide: " + strconv.Itoa(status) + " " + jsonString(ans)
		}
		return ""
	}
	ran := func(status int, ans map[string]any) string {
		if status != 200 || at(ans, "decision", "decision") != "allow" || at(ans, "result", "exit_code") != 0.0 {
			return "call: " + strconv.Itoa(status) + " " + jsonString(ans)
		}
		return ""
	}

	t.Run("1000 concurrent calls", func(t *testing.T) {
		w := watchMemory()
		start := time.Now()
		r := load(t, srv.URL+"/v1/call", shell("true"), 1000, 1000, ran)
		heap := w.end()
		t.Logf("1,000 calls of `true` at concurrency 1,000 in %s: %s; peak heap in use %.0f MB, VmHWM %.0f MB",
			time.Since(start).Round(10*time.Millisecond), r, heap, vmHWM())
		if len(r.wrong) > 0 || r.statuses[200] != 1000 {
			t.Fatalf("%s; wrong answers: %v", r, r.wrong)
		}
	})

	t.Run("decisions at concurrency 1000", func(t *testing.T) {
		w := watchMemory()
		start := time.Now()
		r := load(t, srv.URL+"/v1/decide", shell("git status && ls -la | head"), decisions, 1000, allowed)
		heap := w.end()
		t.Logf("%d decisions at concurrency 1,000 in %s: %s; peak heap in use %.0f MB, VmHWM %.0f MB",
			decisions, time.Since(start).Round(10*time.Millisecond), r, heap, vmHWM())
		if len(r.wrong) > 0 || r.statuses[200] != decisions || r.reasons["eval_timeout"] != 0 {
			t.Fatalf("%s; wrong answers: %v", r, r.wrong)
		}
	})

	t.Run("small queue answers 503", func(t *testing.T) {
		g.SetLimits(Limits{MaxDecisions: 1, MaxQueue: 4, QueueTimeout: time.Minute})
		defer g.SetLimits(Limits{})
		before := counter(t, g.Metrics(), "gate_overload_total", "stage", "decide")
		r := load(t, srv.URL+"/v1/decide", shell("git status && ls -la | head"), 2000, 200, allowed)
		overloads := counter(t, g.Metrics(), "gate_overload_total", "stage", "decide") - before
		t.Logf("2,000 decisions at concurrency 200 with 1 slot and a queue of 4: %s; gate_overload_total +%.0f", r, overloads)
		if len(r.wrong) > 0 || r.statuses[503] == 0 || r.statuses[200]+r.statuses[503] != 2000 || float64(r.statuses[503]) != overloads {
			t.Fatalf("%s, %v overloads counted; wrong answers: %v", r, overloads, r.wrong)
		}
	})
}

// TestPendingApprovalsMemory: 20 writes of 8 MB waiting for approval
// (1.7 GB before the caps) are held up to --max-approval-bytes; the rest
// are denied at once with limit_reached, and the heap stays bounded.
func TestPendingApprovalsMemory(t *testing.T) {
	g := newGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
	g.SetApprovals(NewApprovals(time.Minute, nil))
	srv := newServer(t, g, HandlerOptions{Token: testToken})
	content := bytes.Repeat([]byte("0123456789abcde\n"), (8<<20)/16)
	var wg sync.WaitGroup
	statuses := make(chan string, 20)
	runtime.GC()
	w := watchMemory()
	// One after the other: each write is pending, or refused at once.
	refused := 0
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bs, _ := json.Marshal(map[string]any{"tool": "write_file", "args": map[string]any{"file_path": "f" + strconv.Itoa(i), "content": string(content)}})
			r, _ := jsonPost(t, srv.Client(), srv.URL+"/v1/call", string(bs))
			reasons, _ := at(r.body, "decision", "reasons").([]any)
			code := ""
			if len(reasons) > 0 {
				code, _ = at(reasons[0], "code").(string)
			}
			statuses <- strconv.Itoa(r.status) + " " + code
		}()
		waitFor(t, "the write to be pending or refused", func() bool {
			for len(statuses) > 0 {
				if s := <-statuses; s != "403 limit_reached" {
					t.Fatalf("a write was answered %s while others wait", s)
				}
				refused++
			}
			return refused+len(g.Approvals().List()) == i+1
		})
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	pending := len(g.Approvals().List())
	heldMB := sample(t, g.Metrics(), "gate_approvals_pending_bytes", "", "") / (1 << 20)
	t.Logf("20 writes of 8 MB in default mode: %d pending (%.0f MB counted of the %d MB cap), %d refused with limit_reached; heap in use after GC %.0f MB, peak %.0f MB",
		pending, heldMB, DefaultMaxApprovalBytes>>20, refused, float64(ms.HeapInuse)/(1<<20), w.end())
	if pending == 0 || refused == 0 || heldMB > float64(DefaultMaxApprovalBytes>>20) {
		t.Fatalf("%d pending, %d refused, %.0f MB held", pending, refused, heldMB)
	}
	// The listing sends previews, not the 8 MB.
	r := get(t, srv.Client(), srv.URL+"/v1/approvals", "Authorization", "Bearer "+testToken)
	if bs, _ := json.Marshal(r.body); len(bs) > pending*(4*PreviewBytes) {
		t.Errorf("the approvals list is %d bytes for %d pending calls", len(bs), pending)
	}
	for _, p := range g.Approvals().List() {
		_ = g.Approvals().Resolve(p.ID, false, "test", "done")
	}
	wg.Wait()
}
