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
	"time"

	"github.com/gate-dev/gate/engine"
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
//   - a body that does not arrive within BodyTimeout: 408 request_timeout,
//     or that is over MaxBody: 413 request_too_large.
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
		if err := h.readWholeBody(w, r); err != nil {
			refuse(engine.CodeOf(err), err.Error())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readWholeBody checks the Content-Type of a request, reads its body
// within the body timeout and the size limit, and puts it back as an
// in-memory body.
func (h *handler) readWholeBody(w http.ResponseWriter, r *http.Request) error {
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	if ct := r.Header.Get("Content-Type"); ct != "" || hasBody {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			if ct == "" {
				ct = "none"
			}
			return &engine.Error{Code: engine.CodeUnsupportedMediaType, Message: fmt.Sprintf("a request body must be Content-Type: application/json (got %s)", ct)}
		}
	}
	if !hasBody {
		return nil
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	bs, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	if err != nil {
		return bodyError(err, h.opts.BodyTimeout)
	}
	// Lift the deadline: the connection's background read that notices a
	// client going away must not time out during a long call.
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(bs))
	return nil
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
