package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/engine"
)

// gate hook without a compile per call: a gate serve or gate mcp listens
// on a unix socket in the hooks directory of gate's state, <pid>.sock, and
// names beside it, in <pid>.json, the identity of the engine it decides
// with (engine.Options.Identity). A gate hook whose own configuration has
// that identity sends it its calls (POST /v1/hook) instead of compiling
// the policies; the server decides them with the hook's layers and
// environment (engine.Engine.Scoped), so that the answer is the one the
// hook would have made.

// maxHookCalls bounds the calls of one hook request (a MultiEdit's edits).
const maxHookCalls = 1024

// HookRequest is what gate hook sends: the identity of its configuration,
// the layers and environment of the hook's process, and its calls.
type HookRequest struct {
	Identity string        `json:"identity"`
	Layers   []string      `json:"layers"`
	Env      []string      `json:"env"`
	Calls    []engine.Call `json:"calls"`
}

// HookResponse is the answer to a HookRequest: the decision of each call,
// in order, or the error that stopped them (a malformed call), as the
// hook's own engine would have returned it.
type HookResponse struct {
	Decisions []engine.Decision `json:"decisions"`
	Error     *HookError        `json:"error,omitempty"`
}

// HookError is a call's error in a HookResponse.
type HookError struct {
	Code    engine.Code `json:"code"`
	Message string      `json:"message"`
}

func (e *HookError) Error() string { return e.Message }

// DecideHook decides a hook's calls with the engine in use, when its
// identity is the request's; otherwise it is an error with
// CodeConfigMismatch. The calls are decided in order until one is
// malformed, whose error is the response's.
func (g *Gateway) DecideHook(ctx context.Context, req HookRequest) (*HookResponse, error) {
	e := g.engine.Load()
	if e == nil {
		return nil, &engine.Error{Code: engine.CodeNotReady, Message: "policies are not loaded yet"}
	}
	if id, err := e.Identity(); err != nil || id != req.Identity {
		msg := "this gate decides with another configuration than the hook's"
		if err != nil {
			msg = "this gate's configuration has no identity: " + err.Error()
		}
		return nil, &engine.Error{Code: engine.CodeConfigMismatch, Message: msg}
	}
	if len(req.Calls) > maxHookCalls {
		return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: fmt.Sprintf("%d calls in one hook request, over the limit of %d", len(req.Calls), maxHookCalls)}
	}
	release, err := g.deciding.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	scoped := e.Scoped(req.Layers, req.Env)
	out := &HookResponse{Decisions: make([]engine.Decision, 0, len(req.Calls))}
	for _, c := range req.Calls {
		start := time.Now()
		d, err := scoped.Decide(ctx, c)
		if err != nil {
			out.Error = &HookError{Code: engine.CodeOf(err), Message: err.Error()}
			return out, nil
		}
		reason := ""
		if len(d.Reasons) > 0 {
			reason = d.Reasons[0].Code
		}
		g.metrics.Decision(c.Tool, d.Decision, reason, time.Since(start))
		out.Decisions = append(out.Decisions, d)
	}
	return out, nil
}

func (h *handler) hook(w http.ResponseWriter, r *http.Request) {
	bs, err := readBody(w, r, h.opts.MaxBody)
	if err != nil {
		writeError(w, err)
		return
	}
	var req HookRequest
	// Decoded as gate hook decodes the agent's input (numbers are
	// float64), so that the calls are the ones it would decide.
	if err := json.Unmarshal(bs, &req); err != nil {
		writeError(w, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed hook request", Err: err})
		return
	}
	out, err := h.g.DecideHook(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// NewHookHandler is the API of a hook socket: POST /v1/hook only, behind
// the boundary of NewHandler (the bearer token).
func NewHookHandler(g *Gateway, opts HandlerOptions) http.Handler {
	h := newHandler(g, opts)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/hook", h.hook)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &engine.Error{Code: engine.CodeNotFound, Message: "no endpoint " + r.Method + " " + r.URL.Path + " on a hook socket"})
	})
	return h.guard(mux)
}

// HookSocket is a server's place in the hooks directory.
type HookSocket struct {
	dir, sock, meta string
	ln              net.Listener
	mu              sync.Mutex
	closed          bool
}

// hookMeta is the content of <pid>.json.
type hookMeta struct {
	PID      int    `json:"pid"`
	Identity string `json:"identity"`
}

// ListenHook makes dir (mode 0700), removes what dead servers left there
// and listens on dir/<pid>.sock (mode 0600). Nothing is published until
// Publish.
func ListenHook(dir string) (*HookSocket, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	removeStale(dir)
	pid := strconv.Itoa(os.Getpid())
	s := &HookSocket{dir: dir, sock: filepath.Join(dir, pid+".sock"), meta: filepath.Join(dir, pid+".json")}
	_ = os.Remove(s.sock) // a process of this pid that died
	_ = os.Remove(s.meta)
	ln, err := net.Listen("unix", s.sock)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(s.sock, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	s.ln = ln
	return s, nil
}

// privateDir checks that dir is a directory only its owner can enter,
// making it so when it is not.
func privateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows" {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// removeStale removes the sockets and identity files of servers that are
// no longer running.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for i, de := range entries {
		if i >= maxHookEntries {
			return
		}
		name := de.Name()
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".sock")
		pid, err := strconv.Atoi(base)
		if err != nil || base == name || pid <= 0 || pidAlive(pid) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, name))
	}
}

// Listener is the socket's listener.
func (s *HookSocket) Listener() net.Listener { return s.ln }

// Path is the socket's path.
func (s *HookSocket) Path() string { return s.sock }

// Publish names the identity hooks must have to be answered here (""
// withdraws it). The file is replaced at once: a reader sees the old or the
// new identity.
func (s *HookSocket) Publish(identity string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if identity == "" {
		if err := os.Remove(s.meta); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	bs, err := json.Marshal(hookMeta{PID: os.Getpid(), Identity: identity})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".hook-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(bs)
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.meta)
}

// Close stops listening and removes the socket and the identity file.
func (s *HookSocket) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	err := s.ln.Close()
	_ = os.Remove(s.sock)
	_ = os.Remove(s.meta)
	return err
}

// ServeHooks serves gate hook on s for g until ctx ends, publishing the
// identity of each engine g swaps in, and then removes s. Hooks are
// answered with opts' boundary (its token).
func ServeHooks(ctx context.Context, s *HookSocket, g *Gateway, opts HandlerOptions, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	defer s.Close()
	g.OnEngine(func(e *engine.Engine) {
		id := ""
		if e != nil {
			id, _ = e.Identity() // none (bundles): no hook is answered here
		}
		if err := s.Publish(id); err != nil {
			log.Warn("cannot publish the hook socket's identity", "err", err)
		}
	})
	srv := &http.Server{
		Handler:           NewHookHandler(g, opts),
		ReadHeaderTimeout: 5 * time.Second,
		MaxHeaderBytes:    ServerMaxHeaderBytes,
		IdleTimeout:       time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	select {
	case <-served:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = srv.Shutdown(sctx)
		cancel()
	}
}

// maxHookEntries bounds the entries of the hooks directory read.
const maxHookEntries = 256

// AskHook asks a server in dir whose identity is req.Identity to decide
// req's calls, with token as its bearer token (none when ""). ctx bounds
// the whole search. It returns the answer and the socket that gave it; an
// error means no server answered (none matches, a stale or busy one, a
// refusal), and the caller decides itself.
func AskHook(ctx context.Context, dir, token string, req HookRequest) (*HookResponse, string, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, "", err
	}
	if !fi.IsDir() || (fi.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows") {
		return nil, "", fmt.Errorf("%s is not a directory private to its owner", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, "", err
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, "", err
	}
	var errs []error
	for i, de := range entries {
		if i >= maxHookEntries {
			break
		}
		pid, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || !de.Type().IsRegular() {
			continue
		}
		n, err := strconv.Atoi(pid)
		if err != nil || n <= 0 {
			continue
		}
		var meta hookMeta
		bs, err := readSmall(filepath.Join(dir, de.Name()), 64<<10)
		if err != nil || json.Unmarshal(bs, &meta) != nil || meta.Identity != req.Identity || meta.PID != n {
			continue
		}
		if !pidAlive(n) {
			errs = append(errs, fmt.Errorf("pid %d: stale", n))
			continue
		}
		sock := filepath.Join(dir, pid+".sock")
		out, err := askSocket(ctx, sock, token, body)
		if err == nil {
			err = out.check(len(req.Calls))
		}
		if err == nil {
			return out, sock, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", sock, err))
		if ctx.Err() != nil {
			break
		}
	}
	if len(errs) == 0 {
		return nil, "", errors.New("no running gate has this configuration")
	}
	return nil, "", errors.Join(errs...)
}

// check refuses an answer that is not one for n calls.
func (r *HookResponse) check(n int) error {
	if r.Error != nil && (r.Error.Message == "" || len(r.Decisions) >= n) || r.Error == nil && len(r.Decisions) != n {
		return fmt.Errorf("an answer with %d decisions for %d calls", len(r.Decisions), n)
	}
	for _, d := range r.Decisions {
		switch d.Decision {
		case engine.Allow, engine.Deny, engine.Ask:
		default:
			return fmt.Errorf("an answer with the decision %q", d.Decision)
		}
	}
	return nil
}

func readSmall(file string, max int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// askSocket posts a hook request on one socket.
func askSocket(ctx context.Context, sock, token string, body []byte) (*HookResponse, error) {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://localhost/v1/hook", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Transport: tr}).Do(r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	bs, err := io.ReadAll(io.LimitReader(resp.Body, DefaultMaxBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var eb ErrorBody
		if json.Unmarshal(bs, &eb) == nil && eb.Error.Code != "" {
			return nil, fmt.Errorf("%s: %s", eb.Error.Code, eb.Error.Message)
		}
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var out HookResponse
	if err := json.Unmarshal(bs, &out); err != nil {
		return nil, fmt.Errorf("malformed answer: %w", err)
	}
	return &out, nil
}
