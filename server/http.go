package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/runner"
)

// DefaultMaxBody bounds request bodies.
const DefaultMaxBody = 10 << 20

// HandlerOptions configure the HTTP API.
type HandlerOptions struct {
	// Token, when set, is required as "Authorization: Bearer TOKEN" (the
	// scheme in any case) on every endpoint but /healthz and /readyz.
	Token string
	// MaxBody bounds request bodies; zero means DefaultMaxBody.
	MaxBody int64
	// MaxBodyInflight bounds the bytes of request bodies held at once,
	// from the start of their reading until their request ends; a body
	// that would pass it is answered 503 overloaded with Retry-After. Zero
	// means DefaultMaxBodyInflight; it is raised to MaxBody if below.
	MaxBodyInflight int64
	// AllowedHosts are Host names (any port) served besides localhost,
	// 127.0.0.1 and [::1]; requests naming another host are refused.
	AllowedHosts []string
	// AllowedOrigins are the Origin values (scheme://host[:port]) accepted;
	// a request carrying any other Origin header is refused.
	AllowedOrigins []string
	// BodyTimeout bounds the time a request body may take to arrive; zero
	// means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers; zero means
	// DefaultMaxHeaderBytes.
	MaxHeaderBytes int
	// MCP, when set, is served at /mcp (see NewMCPHandler).
	MCP http.Handler
}

// ErrorBody is the JSON of an error response: {"error": {"code", "message"}}.
type ErrorBody struct {
	Error struct {
		Code    engine.Code `json:"code"`
		Message string      `json:"message"`
	} `json:"error"`
}

// NewHandler returns the HTTP API of g:
//
//	POST   /v1/decide                      a call → its decision (dry run)
//	POST   /v1/call                        a call → {"decision", "result", "text"}; 403 unless allowed
//	POST   /v1/hook                        gate hook's calls → their decisions (hooks.go)
//	GET    /v1/background                  background processes
//	GET    /v1/background/{pid}            one, with its latest output
//	POST   /v1/background/{pid}/stop       stop its process group (also DELETE /v1/background/{pid})
//	GET    /v1/approvals                   calls waiting for a human's answer
//	POST   /v1/approvals/{id}/approve      let one run ({"by", "reason", "always"} optional)
//	POST   /v1/approvals/{id}/deny         refuse it
//	POST   /v1/sessions                    start a command in a pseudo-terminal ({"command","directory","rows","cols"})
//	GET    /v1/sessions[/{id}]             sessions / one's rendered screen (?styled=true for colours)
//	POST   /v1/sessions/{id}/input         type {"text", "keys": ["Enter", "Ctrl-C", ...]}
//	POST   /v1/sessions/{id}/resize        {"rows", "cols"}
//	POST   /v1/sessions/{id}/wait          wait for the exit ({"timeout_ms"}), then the screen
//	DELETE /v1/sessions/{id}               kill its process group
//	GET    /v1/rules                       persisted "always allow" rules
//	DELETE /v1/rules?entry=E               revoke one
//	       /mcp                            MCP over streamable HTTP, when configured
//	GET    /metrics, /healthz, /readyz
func NewHandler(g *Gateway, opts HandlerOptions) http.Handler {
	h := newHandler(g, opts)
	opts = h.opts
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/decide", h.decide)
	mux.HandleFunc("POST /v1/call", h.call)
	mux.HandleFunc("POST /v1/hook", h.hook)
	mux.HandleFunc("GET /v1/background", h.listBackground)
	mux.HandleFunc("GET /v1/background/{pid}", h.getBackground)
	mux.HandleFunc("POST /v1/background/{pid}/stop", h.stopBackground)
	mux.HandleFunc("DELETE /v1/background/{pid}", h.stopBackground)
	mux.HandleFunc("GET /v1/approvals", h.listApprovals)
	mux.HandleFunc("POST /v1/approvals/{id}/approve", h.answerApproval(true))
	mux.HandleFunc("POST /v1/approvals/{id}/deny", h.answerApproval(false))
	mux.HandleFunc("POST /v1/sessions", h.startSession)
	mux.HandleFunc("GET /v1/sessions", h.listSessions)
	mux.HandleFunc("GET /v1/sessions/{id}", h.screen)
	mux.HandleFunc("POST /v1/sessions/{id}/input", h.sessionInput)
	mux.HandleFunc("POST /v1/sessions/{id}/resize", h.resizeSession)
	mux.HandleFunc("POST /v1/sessions/{id}/wait", h.waitSession)
	mux.HandleFunc("DELETE /v1/sessions/{id}", h.killSession)
	mux.HandleFunc("GET /v1/rules", h.listRules)
	mux.HandleFunc("DELETE /v1/rules", h.revokeRule)
	if opts.MCP != nil {
		mux.Handle("/mcp", opts.MCP)
	}
	mux.Handle("GET /metrics", g.metrics.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !g.Ready() {
			writeError(w, &engine.Error{Code: engine.CodeNotReady, Message: "policies are not compiled yet"})
			return
		}
		writeJSON(w, http.StatusOK, readyBody(g))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no endpoint " + r.Method + " " + r.URL.Path})
	})
	return h.guard(withRequester(h.countRefusals(mux)))
}

// newHandler is a handler with opts' zero fields set to their defaults.
func newHandler(g *Gateway, opts HandlerOptions) *handler {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.MaxBodyInflight <= 0 {
		opts.MaxBodyInflight = DefaultMaxBodyInflight
	}
	opts.MaxBodyInflight = max(opts.MaxBodyInflight, opts.MaxBody)
	if opts.MaxHeaderBytes <= 0 {
		opts.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return &handler{g: g, opts: opts, bodies: &bodyBudget{max: opts.MaxBodyInflight, metrics: g.metrics}}
}

// refusalWriter remembers the code writeError answered with.
type refusalWriter struct {
	http.ResponseWriter
	code engine.Code
}

// Unwrap lets http.ResponseController reach the connection.
func (w *refusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// countRefusals counts the refusals endpoints answer (overloaded,
// limit_reached, ...) in gate_http_refusals_total; the guard counts its
// own. /mcp answers refusals as tool errors, and streams: it is passed
// through as it is.
func (h *handler) countRefusals(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			next.ServeHTTP(w, r)
			return
		}
		rw := &refusalWriter{ResponseWriter: w}
		next.ServeHTTP(rw, r)
		if rw.code != "" {
			h.g.metrics.HTTPRefusal(rw.code)
		}
	})
}

type handler struct {
	g      *Gateway
	opts   HandlerOptions
	bodies *bodyBudget
}

// withRequester records who sent a request, for the decision log.
func withRequester(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requesterKey{}, r.RemoteAddr)))
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	var body ErrorBody
	body.Error.Code = engine.CodeOf(err)
	body.Error.Message = err.Error()
	if rw, ok := w.(*refusalWriter); ok {
		rw.code = body.Error.Code
	}
	if ra, ok := errors.AsType[*OverloadedError](err); ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(ra.After.Seconds()))))
	}
	writeJSON(w, engine.HTTPStatus(body.Error.Code), body)
}

// readBody reads a request body of at most max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	bs, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		return nil, bodyError(err, 0)
	}
	return bs, nil
}

// decodeBody decodes a JSON request body into v; an empty body is an
// empty object.
func decodeBody(w http.ResponseWriter, r *http.Request, max int64, v any) error {
	bs, err := readBody(w, r, max)
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(bs))) == 0 {
		return nil
	}
	if err := json.Unmarshal(bs, v); err != nil {
		return &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed JSON body", Err: err}
	}
	return nil
}

// readCall decodes a request body {"tool", "args"}.
func (h *handler) readCall(w http.ResponseWriter, r *http.Request) (engine.Call, error) {
	var call engine.Call
	bs, err := readBody(w, r, h.opts.MaxBody)
	if err != nil {
		return call, err
	}
	dec := json.NewDecoder(strings.NewReader(string(bs)))
	dec.UseNumber()
	if err := dec.Decode(&call); err != nil {
		return call, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed JSON call", Err: err}
	}
	if dec.More() {
		return call, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed JSON call: more than one value"}
	}
	if call.Tool == "" {
		return call, &engine.Error{Code: engine.CodeInvalidCall, Message: `missing "tool"`}
	}
	if call.Args == nil {
		call.Args = map[string]any{}
	}
	return call, nil
}

func (h *handler) decide(w http.ResponseWriter, r *http.Request) {
	call, err := h.readCall(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if call.Tool == engine.ToolShell {
		// A dry run validates the arguments as /v1/call does, so that it
		// answers as the call would.
		if _, err := runner.ParseArgs(call.Args); err != nil {
			writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()})
			return
		}
	}
	d, err := h.g.Decide(r.Context(), call)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (h *handler) call(w http.ResponseWriter, r *http.Request) {
	call, err := h.readCall(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	out, err := h.g.Call(r.Context(), call)
	if err != nil {
		writeError(w, err)
		return
	}
	status := http.StatusOK
	if !out.Ran() {
		status = http.StatusForbidden
	}
	writeJSON(w, status, out)
}

func (h *handler) listRules(w http.ResponseWriter, _ *http.Request) {
	r := h.g.Rules()
	if r == nil {
		writeJSON(w, http.StatusOK, map[string]any{"rules": []Rule{}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"rules": r.List(), "file": r.Path()})
}

// revokeRule removes the rule named by the entry query parameter.
func (h *handler) revokeRule(w http.ResponseWriter, r *http.Request) {
	entry := r.URL.Query().Get("entry")
	if entry == "" {
		writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: "missing the entry query parameter"})
		return
	}
	err := h.g.Revoke(entry, r.URL.Query().Get("by"))
	switch {
	case errors.Is(err, ErrNoRule):
		writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no rule " + entry})
	case err != nil:
		writeError(w, &engine.Error{Code: engine.CodeInternal, Message: "revoking " + entry, Err: err})
	default:
		writeJSON(w, http.StatusOK, map[string]string{"revoked": entry})
	}
}

func (h *handler) listApprovals(w http.ResponseWriter, _ *http.Request) {
	list := []Approval{}
	if a := h.g.Approvals(); a != nil {
		list = a.List()
	}
	writeJSON(w, http.StatusOK, map[string]any{"approvals": list})
}

// answerApproval approves or denies a pending call; the body may name who
// answers and why: {"by": "alice", "reason": "..."}.
func (h *handler) answerApproval(approve bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			By     string `json:"by"`
			Reason string `json:"reason"`
			Always bool   `json:"always"`
		}
		if err := decodeBody(w, r, 64<<10, &body); err != nil {
			writeError(w, err)
			return
		}
		a := h.g.Approvals()
		id := r.PathValue("id")
		p, ok := Approval{}, false
		if a != nil {
			p, ok = a.Pending(id)
		}
		if !ok {
			writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no pending approval " + id})
			return
		}
		v := Verdict{By: body.By, Reason: body.Reason}
		if approve && body.Always {
			rules, err := h.g.AllowAlways(engine.Call{Tool: p.Tool, Args: p.Args}, body.By)
			if err != nil {
				writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: "cannot allow always: " + err.Error()})
				return
			}
			v.Always, v.Rules = true, rules
		}
		if a.resolve(id, v, approve) != nil {
			writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no pending approval " + id})
			return
		}
		outcome := "denied"
		if approve {
			outcome = "approved"
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "outcome": outcome, "rules": v.Rules})
	}
}

func (h *handler) pid(w http.ResponseWriter, r *http.Request) (int, bool) {
	pid, err := strconv.Atoi(r.PathValue("pid"))
	if err != nil || pid <= 0 {
		writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: "process id must be a positive integer"})
		return 0, false
	}
	return pid, true
}

func (h *handler) listBackground(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"processes": h.g.runner.Background().List()})
}

func (h *handler) getBackground(w http.ResponseWriter, r *http.Request) {
	pid, ok := h.pid(w, r)
	if !ok {
		return
	}
	p, err := h.g.runner.Background().Get(pid)
	if err != nil {
		writeError(w, backgroundError(err, pid))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (h *handler) stopBackground(w http.ResponseWriter, r *http.Request) {
	pid, ok := h.pid(w, r)
	if !ok {
		return
	}
	p, err := h.g.runner.Background().Stop(pid)
	if err != nil {
		writeError(w, backgroundError(err, pid))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func backgroundError(err error, pid int) error {
	if errors.Is(err, runner.ErrNoProcess) {
		return &engine.Error{Code: engine.CodeNotFound, Message: "no background process " + strconv.Itoa(pid)}
	}
	return err
}

// readyBody is /readyz's answer: ready, with the enforcement layers active
// around the commands gate runs and why each missing one is missing.
func readyBody(g *Gateway) map[string]any {
	body := map[string]any{"status": "ready"}
	if g.runner != nil {
		rep := g.runner.Layers()
		body["layers"] = rep.Map()
		if len(rep.Missing) > 0 {
			body["layers_missing"] = rep.Missing
		}
	}
	return body
}
