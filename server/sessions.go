package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/runner"
)

// SessionStart is the answer to starting an interactive session.
type SessionStart struct {
	Decision engine.Decision `json:"decision"`
	Approval *Verdict        `json:"approval,omitempty"`
	// Session is set when the session started.
	Session *SessionInfo `json:"session,omitempty"`
}

// SessionInfo identifies a started session.
type SessionInfo struct {
	ID     string `json:"id"`
	PID    int    `json:"pid"`
	PTY    bool   `json:"pty"`
	Notice string `json:"notice,omitempty"`
}

// sessionsOff is the error for sessions asked for while interactive
// shells are off.
var sessionsOff = &engine.Error{Code: engine.CodeSessionsDisabled,
	Message: "interactive sessions are off: set tools.shell.enableInteractiveShell to true in the settings to turn them on"}

// sessionsEnabled reports whether interactive sessions are served
// (tools.shell.enableInteractiveShell).
func (g *Gateway) sessionsEnabled() bool { return g.runner.Interactive() }

// sessionError turns a runner error about sessions into an engine error:
// a limit reached is CodeLimitReached (and counted), a bad argument
// CodeInvalidCall.
func (g *Gateway) sessionError(err error, doing string) *engine.Error {
	var le *runner.LimitError
	if errors.As(err, &le) {
		g.metrics.SessionRefused(le.Limit)
		return &engine.Error{Code: engine.CodeLimitReached, Message: le.Message}
	}
	var ae *runner.ArgError
	if errors.As(err, &ae) {
		return &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()}
	}
	if e := enforcementError(err); e != nil {
		return e
	}
	return &engine.Error{Code: engine.CodeInternal, Message: doing, Err: err}
}

// StartSession decides a command exactly as a run_shell_command call
// (the same input, approvals, metrics and decision log) and, when allowed
// (or approved), starts it in a pseudo-terminal. Sessions are served only
// with tools.shell.enableInteractiveShell on (CodeSessionsDisabled), and
// within the runner's session limits (CodeLimitReached, checked before
// the policy is asked and again when the session starts).
func (g *Gateway) StartSession(ctx context.Context, req runner.SessionRequest) (*SessionStart, error) {
	if !g.sessionsEnabled() {
		g.metrics.SessionRefused("disabled")
		return nil, sessionsOff
	}
	call := engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": req.Command, "is_background": false}, Session: true}
	if req.Directory != "" {
		call.Args["directory"] = req.Directory
	}
	if _, err := runner.ParseArgs(call.Args); err != nil {
		return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()}
	}
	if err := g.runner.Sessions().Check(req.Rows, req.Cols); err != nil {
		return nil, g.sessionError(err, "starting the session")
	}
	e, in, res, err := g.authorize(ctx, call)
	if err != nil {
		return nil, err
	}
	out := &SessionStart{Decision: res.Decision, Approval: res.Approval}
	if !res.Authorized() {
		return out, nil
	}
	// What is typed into the session is decided program by program.
	req.Exec = g.ExecDecider(ctx, e, call, in, res.Decision.DecisionID)
	s, err := g.runner.Sessions().Start(req)
	if err != nil {
		e := g.sessionError(err, "starting the session")
		if e.Code == engine.CodeInternal {
			g.metrics.Session("failed")
		}
		return nil, e
	}
	g.metrics.Session("started")
	g.log.Info("session started", "id", s.ID, "pid", s.PID, "pty", s.PTY)
	out.Session = &SessionInfo{ID: s.ID, PID: s.PID, PTY: s.PTY, Notice: s.Notice}
	return out, nil
}

// enabled answers sessions_disabled, and reports false, when interactive
// sessions are off.
func (h *handler) enabled(w http.ResponseWriter) bool {
	if !h.g.sessionsEnabled() {
		h.g.metrics.SessionRefused("disabled")
		writeError(w, sessionsOff)
		return false
	}
	return true
}

func (h *handler) session(w http.ResponseWriter, r *http.Request) *runner.Session {
	if !h.enabled(w) {
		return nil
	}
	s, err := h.g.runner.Sessions().Get(r.PathValue("id"))
	if err != nil {
		writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no session " + r.PathValue("id")})
		return nil
	}
	return s
}

func (h *handler) readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := decodeBody(w, r, h.opts.MaxBody, v); err != nil {
		writeError(w, err)
		return false
	}
	return true
}

func (h *handler) startSession(w http.ResponseWriter, r *http.Request) {
	if !h.enabled(w) {
		return
	}
	var body struct {
		Command   string `json:"command"`
		Directory string `json:"directory"`
		Rows      int    `json:"rows"`
		Cols      int    `json:"cols"`
	}
	if !h.readJSON(w, r, &body) {
		return
	}
	if body.Command == "" {
		writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: `missing required parameter "command"`})
		return
	}
	// The session outlives this request: it ends by exit, kill or idleness.
	out, err := h.g.StartSession(context.WithoutCancel(r.Context()), runner.SessionRequest{Command: body.Command, Directory: body.Directory, Rows: body.Rows, Cols: body.Cols})
	if err != nil {
		writeError(w, err)
		return
	}
	status := http.StatusCreated
	if out.Session == nil {
		status = http.StatusForbidden
	}
	writeJSON(w, status, out)
}

func (h *handler) listSessions(w http.ResponseWriter, _ *http.Request) {
	if !h.enabled(w) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": h.g.runner.Sessions().List()})
}

func (h *handler) screen(w http.ResponseWriter, r *http.Request) {
	if s := h.session(w, r); s != nil {
		styled, _ := strconv.ParseBool(r.URL.Query().Get("styled"))
		writeJSON(w, http.StatusOK, s.Screen(styled))
	}
}

func (h *handler) sessionInput(w http.ResponseWriter, r *http.Request) {
	s := h.session(w, r)
	if s == nil {
		return
	}
	var body struct {
		Text string   `json:"text"`
		Keys []string `json:"keys"`
	}
	if !h.readJSON(w, r, &body) {
		return
	}
	if err := s.Send(body.Text, body.Keys...); err != nil {
		writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"sent": "ok"})
}

func (h *handler) resizeSession(w http.ResponseWriter, r *http.Request) {
	s := h.session(w, r)
	if s == nil {
		return
	}
	var body struct{ Rows, Cols int }
	if !h.readJSON(w, r, &body) {
		return
	}
	if err := s.Resize(body.Rows, body.Cols); err != nil {
		if e := h.g.sessionError(err, "resizing the session"); e.Code != engine.CodeInternal {
			writeError(w, e)
		} else {
			writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()})
		}
		return
	}
	writeJSON(w, http.StatusOK, s.Screen(false))
}

// waitSession waits for the command to exit, up to timeout_ms (default
// 30 s, at most 10 minutes), and returns the screen.
func (h *handler) waitSession(w http.ResponseWriter, r *http.Request) {
	s := h.session(w, r)
	if s == nil {
		return
	}
	var body struct {
		TimeoutMS int `json:"timeout_ms"`
	}
	if !h.readJSON(w, r, &body) {
		return
	}
	d := time.Duration(body.TimeoutMS) * time.Millisecond
	if d <= 0 {
		d = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), min(d, runner.MaxTimeout))
	defer cancel()
	s.Wait(ctx)
	writeJSON(w, http.StatusOK, s.Screen(false))
}

func (h *handler) killSession(w http.ResponseWriter, r *http.Request) {
	s := h.session(w, r)
	if s == nil {
		return
	}
	_ = h.g.runner.Sessions().Remove(s.ID)
	writeJSON(w, http.StatusOK, s.Screen(false))
}
