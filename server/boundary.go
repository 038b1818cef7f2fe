package server

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
)

// Limits of the server boundary.
const (
	// DefaultBodyTimeout bounds how long a request body may take to arrive.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultMaxHeaderBytes bounds a request's line and headers; larger
	// ones get a JSON 431 headers_too_large.
	DefaultMaxHeaderBytes = 64 << 10
	// ServerMaxHeaderBytes is net/http's own bound (its default), over
	// which net/http itself answers a plain-text 431 before gate sees the
	// request.
	ServerMaxHeaderBytes = 1 << 20
	// DefaultMaxBodyInflight bounds the bytes of request bodies held at
	// once (see HandlerOptions.MaxBodyInflight).
	DefaultMaxBodyInflight = 64 << 20
	// bodyChunk is the share of the budget a body of unknown length takes
	// at a time, as it arrives.
	bodyChunk = 64 << 10
)

// loopbackHosts are the Host names accepted without configuration: a page
// served from another name (DNS rebinding) cannot send them.
var loopbackHosts = []string{"localhost", "127.0.0.1", "::1"}

// guard checks every request at the boundary, in this order, before any
// endpoint sees it; each refusal is an ErrorBody:
//
//   - request line and headers over MaxHeaderBytes: 431 headers_too_large;
//   - /healthz and /readyz are served at once, to anyone;
//   - a Host that is not a loopback name nor AllowedHosts (requests on a
//     unix socket excepted): 403 host_not_allowed;
//   - an Origin header that is not in AllowedOrigins: 403 origin_not_allowed;
//   - without "Authorization: Bearer TOKEN" when Token is set: 401
//     unauthorized;
//   - a Content-Type other than application/json, or a body without a
//     Content-Type: 415 unsupported_media_type (an empty body needs none);
//   - a body over MaxBody: 413 request_too_large (at once when its
//     Content-Length says so);
//   - a body that would take the bodies held at once over MaxBodyInflight:
//     503 overloaded with Retry-After (a body with a Content-Length takes
//     its length before it is read; one without, 64 KiB at a time as it
//     arrives); the bytes are given back when the request ends;
//   - a body that does not arrive within BodyTimeout: 408 request_timeout.
//
// The body is read whole here, so that its read deadline can be lifted
// before the endpoint runs: a call may run for minutes, and a deadline
// left on the connection would cancel it.
func (h *handler) guard(next http.Handler) http.Handler {
	hosts := map[string]bool{}
	for _, n := range append(append([]string{}, loopbackHosts...), h.opts.AllowedHosts...) {
		hosts[normalHost(n)] = true
	}
	origins := map[string]bool{}
	for _, o := range h.opts.AllowedOrigins {
		origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse := func(code engine.Code, msg string) {
			h.g.log.Warn("request refused", "code", code, "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr,
				"host", r.Host, "origin", r.Header.Get("Origin"))
			if code == engine.CodeUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="gate"`)
			}
			w.Header().Set("Connection", "close")
			h.g.metrics.HTTPRefusal(code)
			writeError(w, &engine.Error{Code: code, Message: msg})
		}
		if n := headerBytes(r); n > h.opts.MaxHeaderBytes {
			refuse(engine.CodeHeadersTooLarge, fmt.Sprintf("request line and headers are %d bytes, over the limit of %d", n, h.opts.MaxHeaderBytes))
			return
		}
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			next.ServeHTTP(w, r)
			return
		}
		if !onUnixSocket(r) && !hosts[normalHost(r.Host)] {
			refuse(engine.CodeHostNotAllowed, fmt.Sprintf("Host %q is not served: gate answers localhost, 127.0.0.1, [::1] and the names given with --allowed-host", r.Host))
			return
		}
		if o, ok := r.Header["Origin"]; ok && (len(o) != 1 || !origins[strings.ToLower(strings.TrimSuffix(o[0], "/"))]) {
			refuse(engine.CodeOriginNotAllowed, fmt.Sprintf("Origin %q is not allowed: a web page may not call gate unless --allowed-origin names it", strings.Join(o, ", ")))
			return
		}
		if h.opts.Token != "" {
			tok, ok := bearerToken(r.Header.Get("Authorization"))
			if !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(h.opts.Token)) != 1 {
				refuse(engine.CodeUnauthorized, "missing or wrong bearer token (send Authorization: Bearer TOKEN; gate serve logs where its token file is)")
				return
			}
		}
		held, err := h.readWholeBody(w, r)
		defer h.bodies.give(held)
		if err != nil {
			if _, ok := errors.AsType[*OverloadedError](err); ok {
				h.g.metrics.Overload(metrics.StageBody, metrics.OverloadBodyBytes)
				h.g.metrics.HTTPRefusal(engine.CodeOverloaded)
				w.Header().Set("Connection", "close")
				writeError(w, err)
				return
			}
			refuse(engine.CodeOf(err), err.Error())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readWholeBody checks the Content-Type of a request, reads its body
// within the body timeout, the size limit and the budget of bodies held at
// once, and puts it back as an in-memory body. held is the budget it took,
// to give back when the request ends (also on an error).
func (h *handler) readWholeBody(w http.ResponseWriter, r *http.Request) (held int64, err error) {
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	if ct := r.Header.Get("Content-Type"); ct != "" || hasBody {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			if ct == "" {
				ct = "none"
			}
			return 0, &engine.Error{Code: engine.CodeUnsupportedMediaType, Message: fmt.Sprintf("a request body must be Content-Type: application/json (got %s)", ct)}
		}
	}
	if !hasBody {
		return 0, nil
	}
	if r.ContentLength > h.opts.MaxBody {
		return 0, &engine.Error{Code: engine.CodeRequestTooLarge, Message: fmt.Sprintf("request body of %d bytes is over %d bytes", r.ContentLength, h.opts.MaxBody)}
	}
	body := &budgetReader{r: http.MaxBytesReader(w, r.Body, h.opts.MaxBody), budget: h.bodies}
	if r.ContentLength > 0 {
		if !h.bodies.take(r.ContentLength) {
			return 0, h.bodies.overloaded(r.ContentLength)
		}
		body.held, body.known = r.ContentLength, true
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+1))
	_, err = buf.ReadFrom(body)
	if err != nil {
		if _, ok := errors.AsType[*OverloadedError](err); ok {
			return body.held, err
		}
		return body.held, bodyError(err, h.opts.BodyTimeout)
	}
	// Lift the deadline: the connection's background read that notices a
	// client going away must not time out during a long call.
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(buf.Bytes()))
	return body.held, nil
}

// bodyBudget counts the bytes of request bodies held at once.
type bodyBudget struct {
	mu        sync.Mutex
	max, used int64
	metrics   *metrics.Metrics
}

// take reserves n bytes, unless that would pass the maximum.
func (b *bodyBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return false
	}
	b.used += n
	b.metrics.SetBodyBytes(b.used)
	return true
}

// give returns n bytes taken.
func (b *bodyBudget) give(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	b.metrics.SetBodyBytes(b.used)
}

func (b *bodyBudget) overloaded(n int64) error {
	return &engine.Error{Code: engine.CodeOverloaded,
		Message: fmt.Sprintf("overloaded: a request body of %d more bytes would take the bodies held at once over %d bytes (--max-body-inflight)", n, b.max),
		Err:     &OverloadedError{After: DefaultRetryAfter}}
}

// budgetReader reads a body within the budget: one whose length is known
// has taken it already; one whose length is not takes bodyChunk before
// each chunk it reads.
type budgetReader struct {
	r      io.Reader
	budget *bodyBudget
	known  bool
	held   int64 // taken from the budget
	read   int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if !b.known {
		if b.read+int64(len(p)) > b.held {
			if !b.budget.take(bodyChunk) {
				return 0, b.budget.overloaded(bodyChunk)
			}
			b.held += bodyChunk
		}
		p = p[:min(int64(len(p)), b.held-b.read)]
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

// bodyError names why a request body could not be read.
func bodyError(err error, timeout time.Duration) error {
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return &engine.Error{Code: engine.CodeRequestTooLarge, Message: "request body over " + strconv.FormatInt(mbe.Limit, 10) + " bytes"}
	case errors.As(err, &ne) && ne.Timeout():
		return &engine.Error{Code: engine.CodeRequestTimeout, Message: fmt.Sprintf("the request body did not arrive within %s", timeout)}
	}
	return &engine.Error{Code: engine.CodeInvalidCall, Message: "cannot read the request body", Err: err}
}

// bearerToken returns the token of an Authorization header of the Bearer
// scheme, whose name is case-insensitive (RFC 9110 §11.1).
func bearerToken(header string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// normalHost returns the host name of a Host header or a configured name:
// lower case, without port, brackets or a trailing dot.
func normalHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// onUnixSocket reports whether r came over a unix socket, which only local
// processes with the file's permissions can reach (no browser can).
func onUnixSocket(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && a != nil && a.Network() == "unix"
}

// headerBytes is the size of a request's line and headers as sent.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	n += len("Host: \r\n") + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}
