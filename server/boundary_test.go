package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// req builds a request to the test server from a method, a path, a body and
// header pairs; "Host" sets the Host line.
func req(method, url, body string, header ...string) *http.Request {
	r, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body == "" {
		r.Body, r.ContentLength = http.NoBody, 0
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			r.Host = header[i+1]
			continue
		}
		r.Header.Set(header[i], header[i+1])
	}
	return r
}

// TestBoundary runs requests through the handler's boundary checks; every
// refused one must leave its marker file uncreated.
func TestBoundary(t *testing.T) {
	g := newGateway(t, yolo())
	g.SetApprovals(NewApprovals(time.Minute, nil))
	srv := newServer(t, g, HandlerOptions{Token: "s3cret", AllowedHosts: []string{"gate.internal"}, AllowedOrigins: []string{"https://ui.example"}})
	root := g.Runner().Root()
	auth := "Bearer s3cret"
	touch := func(name string) string { return shell("touch " + name) }
	for _, tc := range []struct {
		name   string
		r      *http.Request
		status int
		code   string
		ran    string // the marker that must exist afterwards, if any
	}{
		{"json with the token", req("POST", srv.URL+"/v1/call", touch("ok1"), "Content-Type", "application/json", "Authorization", auth), 200, "", "ok1"},
		{"json charset", req("POST", srv.URL+"/v1/call", touch("ok2"), "Content-Type", "Application/JSON; charset=utf-8", "Authorization", auth), 200, "", "ok2"},
		{"configured host and origin", req("POST", srv.URL+"/v1/call", touch("ok3"), "Content-Type", "application/json", "Authorization", auth,
			"Host", "GATE.internal:9999", "Origin", "https://ui.example"), 200, "", "ok3"},
		{"localhost", req("GET", srv.URL+"/v1/approvals", "", "Authorization", auth, "Host", "localhost:8787"), 200, "", ""},
		{"ipv6 loopback", req("GET", srv.URL+"/v1/approvals", "", "Authorization", auth, "Host", "[::1]:8787"), 200, "", ""},
		{"text/plain", req("POST", srv.URL+"/v1/call", touch("x1"), "Content-Type", "text/plain", "Authorization", auth), 415, "unsupported_media_type", ""},
		{"no content type", req("POST", srv.URL+"/v1/call", touch("x2"), "Authorization", auth), 415, "unsupported_media_type", ""},
		{"form", req("POST", srv.URL+"/v1/call", "a=b", "Content-Type", "application/x-www-form-urlencoded", "Authorization", auth), 415, "unsupported_media_type", ""},
		{"empty form", req("POST", srv.URL+"/v1/approvals/x/approve", "", "Content-Type", "application/x-www-form-urlencoded", "Authorization", auth), 415, "unsupported_media_type", ""},
		{"json-like type", req("POST", srv.URL+"/v1/call", touch("x3"), "Content-Type", "application/jsonp", "Authorization", auth), 415, "unsupported_media_type", ""},
		{"foreign host", req("POST", srv.URL+"/v1/call", touch("x4"), "Content-Type", "application/json", "Authorization", auth, "Host", "attacker.example:8787"), 403, "host_not_allowed", ""},
		{"localhost suffix", req("GET", srv.URL+"/v1/approvals", "", "Authorization", auth, "Host", "localhost.attacker.example"), 403, "host_not_allowed", ""},
		{"foreign origin", req("POST", srv.URL+"/v1/call", touch("x5"), "Content-Type", "application/json", "Authorization", auth, "Origin", "https://evil.example"), 403, "origin_not_allowed", ""},
		{"null origin", req("POST", srv.URL+"/v1/call", touch("x6"), "Content-Type", "application/json", "Authorization", auth, "Origin", "null"), 403, "origin_not_allowed", ""},
		{"no token", req("POST", srv.URL+"/v1/call", touch("x7"), "Content-Type", "application/json"), 401, "unauthorized", ""},
		{"empty bearer", req("POST", srv.URL+"/v1/call", touch("x8"), "Content-Type", "application/json", "Authorization", "Bearer "), 401, "unauthorized", ""},
		{"token prefix", req("POST", srv.URL+"/v1/call", touch("x9"), "Content-Type", "application/json", "Authorization", "Bearer s3cre"), 401, "unauthorized", ""},
		{"mcp foreign host", req("POST", srv.URL+"/mcp", `{}`, "Content-Type", "application/json", "Authorization", auth, "Host", "attacker.example"), 403, "host_not_allowed", ""},
		{"empty body needs no type", req("POST", srv.URL+"/v1/approvals/nope/approve", "", "Authorization", auth), 404, "not_found", ""},
		{"health with foreign host", req("GET", srv.URL+"/healthz", "", "Host", "attacker.example"), 200, "", ""},
		{"readiness without token", req("GET", srv.URL+"/readyz", ""), 200, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, all := counter(t, g.metrics, "gate_http_refusals_total", "code", tc.code), counter(t, g.metrics, "gate_http_refusals_total", "", "")
			r := do(t, srv.Client(), tc.r)
			if r.status != tc.status || errorCode(r) != tc.code {
				t.Fatalf("got %d %v, want %d %q", r.status, r.body, tc.status, tc.code)
			}
			// Each refusal is counted once, by its code; nothing else is.
			want := all
			if tc.status != 200 && tc.code != "not_found" {
				want++
				if got := counter(t, g.metrics, "gate_http_refusals_total", "code", tc.code); got != before+1 {
					t.Fatalf("gate_http_refusals_total{code=%q} went from %v to %v", tc.code, before, got)
				}
			}
			if got := counter(t, g.metrics, "gate_http_refusals_total", "", ""); got != want {
				t.Fatalf("gate_http_refusals_total went from %v to %v, want %v", all, got, want)
			}
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if e.Name() != tc.ran && !strings.HasPrefix(e.Name(), "ok") {
					t.Fatalf("%s was made: a refused request ran", e.Name())
				}
			}
			if tc.ran != "" {
				if _, err := os.Stat(filepath.Join(root, tc.ran)); err != nil {
					t.Fatalf("the accepted call did not run: %v", err)
				}
			}
		})
	}
}

// TestBoundaryBodyTimeout sends a body more slowly than the body timeout
// allows: the answer is a JSON 408, and the call never runs.
func TestBoundaryBodyTimeout(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{BodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := shell("touch slow")
	fmt.Fprintf(conn, "POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // only so that a broken server cannot hang the test
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || resp.StatusCode != 408 || e.Error.Code != "request_timeout" {
		t.Fatalf("got %d %+v %v", resp.StatusCode, e, err)
	}
	if _, err := os.Stat(filepath.Join(g.Runner().Root(), "slow")); err == nil {
		t.Fatal("the slow call ran")
	}
	if n := counter(t, g.metrics, "gate_http_refusals_total", "code", "request_timeout"); n != 1 {
		t.Fatalf("gate_http_refusals_total{code=\"request_timeout\"} = %v, want 1", n)
	}
}

// TestBoundaryLongCallOutlivesBodyTimeout: the body deadline is lifted once
// the body is read, so a call may run longer than it.
func TestBoundaryLongCallOutlivesBodyTimeout(t *testing.T) {
	g := newGateway(t, yolo())
	srv := newServer(t, g, HandlerOptions{BodyTimeout: 100 * time.Millisecond})
	r := post(t, srv.Client(), srv.URL+"/v1/call", shell("sleep 0.5; echo done"))
	if r.status != 200 || at(r.body, "result", "stdout") != "done\n" || at(r.body, "result", "cancelled") == true {
		t.Fatalf("got %d %v", r.status, r.body)
	}
}

// TestBoundaryHeadersTooLarge: headers over the handler's bound get a JSON
// 431 (net/http's own plain-text 431 only comes above ServerMaxHeaderBytes).
func TestBoundaryHeadersTooLarge(t *testing.T) {
	g := newGateway(t, yolo())
	h := NewHandler(g, HandlerOptions{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, MaxHeaderBytes: ServerMaxHeaderBytes}
	go srv.Serve(ln)
	defer srv.Close()
	r := get(t, http.DefaultClient, "http://"+ln.Addr().String()+"/v1/background", "X-Big", strings.Repeat("a", DefaultMaxHeaderBytes))
	if r.status != 431 || errorCode(r) != "headers_too_large" {
		t.Fatalf("got %d %v", r.status, r.body)
	}
	if n := counter(t, g.metrics, "gate_http_refusals_total", "code", "headers_too_large"); n != 1 {
		t.Fatalf("gate_http_refusals_total{code=\"headers_too_large\"} = %v, want 1", n)
	}
}
