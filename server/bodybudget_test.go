package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gate-dev/gate/metrics"
)

// writeCall is a write_file call of size bytes of content to name.
func writeCall(name string, size int) (call []byte, content []byte) {
	content = bytes.Repeat([]byte("0123456789abcde\n"), size/16)
	call, _ = json.Marshal(map[string]any{"tool": "write_file", "args": map[string]any{"file_path": name, "content": string(content)}})
	return call, content
}

// slowBody is a request whose body arrives in two parts: its first KiB at
// once, the rest when release is closed.
type slowBody struct {
	req     *http.Request
	release chan struct{}
}

func newSlowBody(t *testing.T, url string, body []byte, chunked bool) *slowBody {
	t.Helper()
	pr, pw := io.Pipe()
	s := &slowBody{release: make(chan struct{})}
	go func() {
		pw.Write(body[:1024])
		<-s.release
		pw.Write(body[1024:])
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", url, pr)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testToken)
	if !chunked {
		req.ContentLength = int64(len(body))
	}
	s.req = req
	return s
}

// send sends the request; a refused request may see its connection closed
// while its body is still being sent, which is reported as status 0.
func (s *slowBody) send(c *http.Client) (int, http.Header, map[string]any) {
	resp, err := c.Do(s.req)
	if err != nil {
		return 0, nil, nil
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, resp.Header, body
}

// TestBodyBudget sends 20 writes of 1 MiB at once, each holding its
// connection after the first KiB, to a server whose bodies may hold 8 MiB
// at once: 8 are taken in (their Content-Length counts before they are
// read), 12 are answered 503 overloaded with Retry-After before their
// bodies are read, and once the 8 bodies arrive they are written whole.
// Then a body without a Content-Length is refused as it arrives, when what
// it would add passes the budget.
func TestBodyBudget(t *testing.T) {
	const size, fit = 1 << 20, 8
	g := newGateway(t, yolo())
	one, _ := writeCall("f00", size) // the length of each call's body
	srv := newServer(t, g, HandlerOptions{Token: testToken, MaxBody: 8 * int64(len(one)), MaxBodyInflight: fit * int64(len(one))})
	root := g.Runner().Root()
	type answer struct {
		i      int
		status int
		header http.Header
		body   map[string]any
	}
	answers := make(chan answer, 20)
	bodies := make([]*slowBody, 20)
	contents := make([][]byte, 20)
	for i := range bodies {
		var call []byte
		call, contents[i] = writeCall(fmt.Sprintf("f%02d", i), size)
		bodies[i] = newSlowBody(t, srv.URL+"/v1/call", call, false)
		go func() {
			st, h, b := bodies[i].send(srv.Client())
			answers <- answer{i, st, h, b}
		}()
	}
	overloaded := func() float64 { return counter(t, g.Metrics(), "gate_overload_total", "stage", metrics.StageBody) }
	waitFor(t, "8 bodies taken in and 12 refused", func() bool {
		return overloaded() == 20-fit && gauge(t, g.Metrics(), "gate_request_body_bytes", "", "") == float64(fit*len(one))
	})
	refused := map[int]bool{}
	for range 20 - fit {
		a := <-answers
		refused[a.i] = true
		if a.status != 0 && (a.status != 503 || at(a.body, "error", "code") != "overloaded" || a.header.Get("Retry-After") != "1") {
			t.Fatalf("a body over the budget: %d %v Retry-After %q", a.status, a.body, a.header.Get("Retry-After"))
		}
	}
	for _, b := range bodies {
		close(b.release)
	}
	for range fit {
		a := <-answers
		if refused[a.i] || a.status != 200 || at(a.body, "decision", "decision") != "allow" {
			t.Fatalf("write %d: %d %v", a.i, a.status, at(a.body, "decision"))
		}
	}
	for i, want := range contents {
		got, err := os.ReadFile(filepath.Join(root, fmt.Sprintf("f%02d", i)))
		switch {
		case refused[i] && err == nil:
			t.Errorf("f%d was written, its request refused", i)
		case !refused[i] && !bytes.Equal(got, want):
			t.Errorf("f%d: %d bytes written, want %d (%v)", i, len(got), len(want), err)
		}
	}
	if n := gauge(t, g.Metrics(), "gate_request_body_bytes", "", ""); n != 0 {
		t.Fatalf("gate_request_body_bytes = %v after every request ended", n)
	}
	if n := counter(t, g.Metrics(), "gate_http_refusals_total", "code", "overloaded"); n != 20-fit {
		t.Errorf("gate_http_refusals_total{code=\"overloaded\"} = %v", n)
	}

	// Without a Content-Length: a body that holds most of the budget while
	// it arrives leaves too little for a second one, which is refused as
	// it arrives; the first is then written whole.
	big, bigContent := writeCall("chunked-big", (fit-2)*size)
	small, _ := writeCall("chunked-small", 5*size/2)
	first := newSlowBody(t, srv.URL+"/v1/call", big, false)
	done := make(chan answer, 1)
	go func() { st, h, b := first.send(srv.Client()); done <- answer{0, st, h, b} }()
	waitFor(t, "the first body to be taken in", func() bool { return gauge(t, g.Metrics(), "gate_request_body_bytes", "", "") > 0 })
	second := newSlowBody(t, srv.URL+"/v1/call", small, true)
	close(second.release)
	if st, h, b := second.send(srv.Client()); st != 0 && (st != 503 || at(b, "error", "code") != "overloaded" || h.Get("Retry-After") != "1") {
		t.Fatalf("a chunked body over the budget: %d %v", st, b)
	}
	if n := overloaded(); n != 20-fit+1 {
		t.Fatalf("gate_overload_total{stage=\"body\"} = %v, want %d", n, 20-fit+1)
	}
	close(first.release)
	if a := <-done; a.status != 200 {
		t.Fatalf("the first body: %d %v", a.status, a.body)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "chunked-big")); !bytes.Equal(got, bigContent) {
		t.Fatalf("chunked-big: %d bytes", len(got))
	}
	if _, err := os.Stat(filepath.Join(root, "chunked-small")); err == nil {
		t.Fatal("the refused chunked write was written")
	}
	// Alone, the same chunked body is taken in.
	alone := newSlowBody(t, srv.URL+"/v1/decide", small, true)
	close(alone.release)
	if st, _, b := alone.send(srv.Client()); st != 200 || b["decision"] != "allow" {
		t.Fatalf("the chunked body alone: %d %v", st, b)
	}
}

// TestBodyBudgetMemory: 20 writes of 8 MB sent at once to /v1/decide, with
// the default --max-body-inflight and with no budget, logging the peak
// heap of each (the README's figures). With the budget, each is decided
// allow or answered 503 overloaded.
func TestBodyBudgetMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: sends 320 MB of bodies")
	}
	call, _ := writeCall("big.txt", 8<<20)
	for _, tc := range []struct {
		name   string
		budget int64
	}{
		{"no budget", 1 << 40},
		{"default budget", DefaultMaxBodyInflight},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t, yolo())
			srv := newServer(t, g, HandlerOptions{Token: testToken, MaxBodyInflight: tc.budget})
			runtime.GC()
			w := watchMemory()
			var wg sync.WaitGroup
			var mu sync.Mutex
			statuses := map[string]int{}
			for range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req, _ := http.NewRequest("POST", srv.URL+"/v1/decide", bytes.NewReader(call))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+testToken)
					key := "connection closed"
					if resp, err := srv.Client().Do(req); err == nil {
						var b map[string]any
						json.NewDecoder(resp.Body).Decode(&b)
						resp.Body.Close()
						key = fmt.Sprintf("%d %v%v", resp.StatusCode, at(b, "decision"), at(b, "error", "code"))
						if rs, _ := b["reasons"].([]any); len(rs) > 0 && at(b, "decision") != "allow" {
							key += fmt.Sprint(" ", at(rs[0], "code"), at(rs[0], "message"))
						}
					}
					mu.Lock()
					statuses[key]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			peak := w.end()
			refused := counter(t, g.Metrics(), "gate_overload_total", "stage", metrics.StageBody)
			t.Logf("20 concurrent 8 MB /v1/decide, %s: peak heap %.0f MB, %v refused for the body budget; answers %v", tc.name, peak, refused, statuses)
			if tc.budget != DefaultMaxBodyInflight {
				// The comparison figure only: without a budget, twenty
				// 8 MB diffs at once may outlast the decision's time
				// budget on a busy machine (eval_timeout, a deny).
				return
			}
			for key, n := range statuses {
				// A deny for the decision's time budget is fail-closed, not
				// a leak: twenty 8 MB diffs share a busy machine's cores.
				if key != "200 allow<nil>" && key != "503 <nil>overloaded" && key != "connection closed" &&
					!strings.HasPrefix(key, "200 deny<nil> eval_timeout") {
					t.Errorf("%d answers %q", n, key)
				}
			}
			if float64(statuses["503 <nil>overloaded"]+statuses["connection closed"]) != refused {
				t.Errorf("answers %v, %v refused", statuses, refused)
			}
		})
	}
}
