package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
)

// jsonCT is the header every request of these tests sends.
var jsonCT = []string{"Content-Type", "application/json"}

// sessionServer is a gateway with the given settings and runner options
// (interactive shells on unless off is set), served on 127.0.0.1.
type sessionServer struct {
	g    *Gateway
	root string
	url  string
	c    *http.Client
}

func newSessionServer(t *testing.T, s engine.Settings, ro runner.Options) *sessionServer {
	t.Helper()
	root := t.TempDir()
	e, err := engine.New(context.Background(), engine.Options{Settings: s, Root: root, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ro.Root, ro.KillGrace = root, 300*time.Millisecond
	if ro.Env == nil {
		ro.Env = testEnv(t)
	}
	r, err := runner.New(ro)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	g := NewGateway(e, r, metrics.New(), nil)
	srv := httptest.NewServer(NewHandler(g, HandlerOptions{}))
	t.Cleanup(srv.Close)
	return &sessionServer{g: g, root: root, url: srv.URL, c: srv.Client()}
}

func (s *sessionServer) post(t *testing.T, path, body string) response {
	t.Helper()
	return post(t, s.c, s.url+path, body, jsonCT...)
}

func (s *sessionServer) get(t *testing.T, path string) response {
	t.Helper()
	return get(t, s.c, s.url+path, jsonCT...)
}

// waitText polls a session's screen until it holds want.
func (s *sessionServer) waitText(t *testing.T, id, want string) response {
	t.Helper()
	var r response
	for i := 0; i < 500; i++ {
		if r = s.get(t, "/v1/sessions/"+id); strings.Contains(r.body["text"].(string), want) {
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %q: %v", want, r.body)
	return r
}

func interactive() runner.Options { return runner.Options{Interactive: true} }

func TestSessionsOverHTTP(t *testing.T) {
	s := newSessionServer(t, yolo("run_shell_command(rm)"), interactive())

	r := s.post(t, "/v1/sessions", `{"command":"read -p \"Name? \" n; echo \"hi $n\"","rows":10,"cols":40}`)
	if r.status != 201 || at(r.body, "session", "pty") != true {
		t.Fatalf("start: %d %v", r.status, r.body)
	}
	id := at(r.body, "session", "id").(string)
	screen := s.waitText(t, id, "Name?")
	if screen.body["rows"] != 10.0 || screen.body["running"] != true {
		t.Fatalf("screen: %v", screen.body)
	}
	if r := s.post(t, "/v1/sessions/"+id+"/input", `{"text":"gate","keys":["Enter"]}`); r.status != 200 {
		t.Fatalf("input: %d %v", r.status, r.body)
	}
	r = s.post(t, "/v1/sessions/"+id+"/wait", `{"timeout_ms":5000}`)
	if r.body["running"] != false || r.body["exit_code"] != 0.0 || !strings.Contains(r.body["text"].(string), "hi gate") {
		t.Fatalf("wait: %v", r.body)
	}
	if r := s.post(t, "/v1/sessions/"+id+"/input", `{"keys":["Hyper-Q"]}`); r.status != 400 {
		t.Fatalf("input after the end: %d", r.status)
	}

	// The policy gates sessions like any command.
	if r := s.post(t, "/v1/sessions", `{"command":"vim x; rm -rf y"}`); r.status != 403 || at(r.body, "decision", "decision") != "deny" {
		t.Fatalf("denied session: %d %v", r.status, r.body)
	}
	if r := s.post(t, "/v1/sessions", `{"command":"ls","directory":"../.."}`); r.status != 400 {
		t.Fatalf("directory escape: %d %v", r.status, r.body)
	}

	// Killing ends a running session.
	r = s.post(t, "/v1/sessions", `{"command":"sleep 100"}`)
	id2 := at(r.body, "session", "id").(string)
	if r := do(t, s.c, mustRequest(t, "DELETE", s.url+"/v1/sessions/"+id2)); r.status != 200 || r.body["running"] != false || r.body["ended"] != "killed" {
		t.Fatalf("kill: %d %v", r.status, r.body)
	}
	if r := s.get(t, "/v1/sessions/"+id2); r.status != 404 {
		t.Fatalf("killed session still listed: %d", r.status)
	}
	want := `
# HELP gate_sessions_open Interactive (pseudo-terminal) sessions whose command still runs.
# TYPE gate_sessions_open gauge
gate_sessions_open 0
# HELP gate_sessions_total Interactive sessions started, and ended by outcome (exited, killed, idle, failed).
# TYPE gate_sessions_total counter
gate_sessions_total{outcome="exited"} 1
gate_sessions_total{outcome="killed"} 1
gate_sessions_total{outcome="started"} 2
# HELP gate_sessions_removed_total Sessions forgotten, with their screens, by reason (deleted; expired or evicted once ended).
# TYPE gate_sessions_removed_total counter
gate_sessions_removed_total{reason="deleted"} 1
`
	if err := testutil.GatherAndCompare(metrics.NonZero(s.g.Metrics().Registry), strings.NewReader(want), "gate_sessions_open", "gate_sessions_total", "gate_sessions_removed_total"); err != nil {
		t.Fatal(err)
	}
}

// Without tools.shell.enableInteractiveShell no session endpoint serves,
// and nothing runs.
func TestSessionsDisabled(t *testing.T) {
	s := newSessionServer(t, yolo(), runner.Options{})
	for _, req := range []struct{ method, path, body string }{
		{"POST", "/v1/sessions", `{"command":"touch made"}`},
		{"GET", "/v1/sessions", ""},
		{"GET", "/v1/sessions/x", ""},
		{"POST", "/v1/sessions/x/input", `{"text":"touch made\n"}`},
		{"POST", "/v1/sessions/x/resize", `{"rows":10,"cols":10}`},
		{"POST", "/v1/sessions/x/wait", `{}`},
		{"DELETE", "/v1/sessions/x", ""},
	} {
		hr, _ := http.NewRequest(req.method, s.url+req.path, strings.NewReader(req.body))
		hr.Header.Set(jsonCT[0], jsonCT[1])
		r := do(t, s.c, hr)
		msg, _ := at(r.body, "error", "message").(string)
		if r.status != 403 || errorCode(r) != string(engine.CodeSessionsDisabled) || !strings.Contains(msg, "tools.shell.enableInteractiveShell") {
			t.Errorf("%s %s: %d %v", req.method, req.path, r.status, r.body)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(s.root, "made")); err == nil {
		t.Fatal("a session ran with interactive shells off")
	}
	refused(t, s.g, map[string]int{"disabled": 7})
}

// refused compares gate_sessions_refused_total with want (other reasons 0).
func refused(t *testing.T, g *Gateway, want map[string]int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# HELP gate_sessions_refused_total Sessions refused before the policy was asked, by reason (disabled, max-sessions, max-session-cells; resizes over max-session-cells too).\n# TYPE gate_sessions_refused_total counter\n")
	for _, r := range metrics.SessionRefusals {
		b.WriteString(`gate_sessions_refused_total{reason="` + r + `"} ` + strconv.Itoa(want[r]) + "\n")
	}
	if err := testutil.GatherAndCompare(g.Metrics().Registry, strings.NewReader(b.String()), "gate_sessions_refused_total"); err != nil {
		t.Fatal(err)
	}
}

// shells are commands that start an interactive shell or REPL.
var shells = []string{"bash", "env bash", "sh -i", "python3", "exec bash", "bash -", "bash -s", "zsh", "env X=1 bash --norc"}

// startOrSkip starts a session; when it started (which must not happen in
// the attack tests), it types command into it, so that the harm, if any,
// is done before the test looks.
func (s *sessionServer) tryAttack(t *testing.T, shell, typed string) response {
	t.Helper()
	r := s.post(t, "/v1/sessions", `{"command":`+strconv.Quote(shell)+`}`)
	if id, ok := at(r.body, "session", "id").(string); ok {
		s.post(t, "/v1/sessions/"+id+"/input", `{"text":`+strconv.Quote(typed)+`,"keys":["Enter"]}`)
		s.post(t, "/v1/sessions/"+id+"/input", `{"text":"exit","keys":["Enter"]}`)
		s.post(t, "/v1/sessions/"+id+"/wait", `{"timeout_ms":3000}`)
	}
	return r
}

// TestSessionShellAttack: under a restriction, a session running a shell
// or REPL is refused, so the commands typed into it (rm, which the settings
// exclude) cannot run: the victim file survives. Without any restriction,
// in yolo mode, the same session starts and runs what is typed (the
// positive control, which shows the harm check can see harm).
func TestSessionShellAttack(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the attack needs a real shell")
	}
	for _, tc := range []struct {
		name     string
		settings engine.Settings
		code     string
	}{
		{"exclude rm, yolo", yolo("run_shell_command(rm)"), "command_unprovable"},
		{"core ls, default mode", engine.Settings{Core: []string{"run_shell_command(ls)"}, ApprovalMode: engine.ApprovalDefault}, "command_not_allowed"},
		{"default mode", engine.Settings{ApprovalMode: engine.ApprovalDefault}, "command_unprovable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSessionServer(t, tc.settings, interactive())
			s.g.SetApprovals(NewApprovals(time.Minute, nil))
			victim := filepath.Join(s.root, "victim.txt")
			if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, sh := range shells {
				r := s.tryAttack(t, sh, "rm victim.txt")
				codes := map[string]bool{}
				for _, reason := range at(r.body, "decision", "reasons").([]any) {
					codes[reason.(map[string]any)["code"].(string)] = true
				}
				if r.status != 403 || at(r.body, "decision", "decision") != "deny" || !codes[tc.code] || !codes["command_unprovable"] {
					t.Errorf("%s: %d %v", sh, r.status, r.body)
				}
				if _, err := os.Stat(victim); err != nil {
					t.Fatalf("%s: victim.txt was deleted through a session", sh)
				}
			}
			if r := s.get(t, "/v1/sessions"); len(r.body["sessions"].([]any)) != 0 {
				t.Fatalf("sessions started: %v", r.body)
			}
			// Refused outright, not asked: no human is asked about a
			// shell whose commands nobody can see.
			if r := s.get(t, "/v1/approvals"); len(r.body["approvals"].([]any)) != 0 {
				t.Fatalf("pending approvals: %v", r.body)
			}
			// Decided as run_shell_command calls, and counted so.
			n := counterWith(t, s.g, "gate_decisions_total", map[string]string{"tool": engine.ToolShell, "decision": engine.Deny, "reason": tc.code})
			if int(n) != len(shells) {
				t.Fatalf("gate_decisions_total{reason=%q} = %v, want %d", tc.code, n, len(shells))
			}
		})
	}
	t.Run("positive control: no restriction, yolo", func(t *testing.T) {
		s := newSessionServer(t, yolo(), interactive())
		victim := filepath.Join(s.root, "victim.txt")
		os.WriteFile(victim, []byte("x"), 0o644)
		r := s.post(t, "/v1/sessions", `{"command":"bash"}`)
		if r.status != 201 {
			t.Fatalf("start: %d %v", r.status, r.body)
		}
		id := at(r.body, "session", "id").(string)
		s.post(t, "/v1/sessions/"+id+"/input", `{"text":"echo h''i","keys":["Enter"]}`)
		s.waitText(t, id, "hi")
		if r := s.tryAttack(t, "bash", "rm victim.txt"); r.status != 201 {
			t.Fatalf("start: %d %v", r.status, r.body)
		}
		if _, err := os.Stat(victim); !os.IsNotExist(err) {
			t.Fatalf("the control attack did not delete victim.txt (%v): the harm check cannot see harm", err)
		}
	})
}

// counterWith returns the value of the counter name with exactly these labels.
func counterWith(t *testing.T, g *Gateway, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := g.Metrics().Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) != len(labels) {
				continue
			}
			for _, l := range m.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue next
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

func TestSessionLimitsOverHTTP(t *testing.T) {
	s := newSessionServer(t, yolo(), runner.Options{Interactive: true, Sessions: runner.SessionLimits{MaxOpen: 1, MaxCells: 2400}})
	r := s.post(t, "/v1/sessions", `{"command":"sleep 100","rows":30,"cols":80}`)
	if r.status != 201 {
		t.Fatalf("start: %d %v", r.status, r.body)
	}
	id := at(r.body, "session", "id").(string)
	for _, tc := range []struct {
		name, path, body, limit string
	}{
		{"second session", "/v1/sessions", `{"command":"touch made"}`, "max-sessions"},
		{"too large", "/v1/sessions", `{"command":"touch made","rows":50,"cols":80}`, "max-session-cells"},
		{"resize too large", "/v1/sessions/" + id + "/resize", `{"rows":60,"cols":80}`, "max-session-cells"},
	} {
		r := s.post(t, tc.path, tc.body)
		msg, _ := at(r.body, "error", "message").(string)
		if r.status != 429 || errorCode(r) != string(engine.CodeLimitReached) || !strings.Contains(msg, tc.limit) {
			t.Errorf("%s: %d %v", tc.name, r.status, r.body)
		}
	}
	if _, err := os.Stat(filepath.Join(s.root, "made")); err == nil {
		t.Fatal("a refused session ran")
	}
	if r := s.post(t, "/v1/sessions/"+id+"/resize", `{"rows":20,"cols":100}`); r.status != 200 || r.body["cols"] != 100.0 {
		t.Fatalf("resize: %d %v", r.status, r.body)
	}
	refused(t, s.g, map[string]int{"max-sessions": 1, "max-session-cells": 2})
	// Refused before the policy was asked: only the first start was decided.
	if n := counterWith(t, s.g, "gate_decisions_total", map[string]string{"tool": engine.ToolShell, "decision": engine.Allow, "reason": "allowed"}); n != 1 {
		t.Fatalf("decisions %v", n)
	}
	do(t, s.c, mustRequest(t, "DELETE", s.url+"/v1/sessions/"+id))
	if r := s.post(t, "/v1/sessions", `{"command":"true"}`); r.status != 201 {
		t.Fatalf("a place is free again: %d %v", r.status, r.body)
	}
}

// TestCommandsDoNotSeeGateSecrets: with gate's token and the OPA token in
// gate's environment, a command that prints its environment (allowed in
// yolo mode) shows neither; under tools.core=[ls] in default mode, env and
// printenv need someone's approval like any program.
func TestCommandsDoNotSeeGateSecrets(t *testing.T) {
	t.Setenv("GATE_TOKEN", "secret-gate-token")
	t.Setenv("GATE_OPA_TOKEN", "secret-opa-token")
	t.Setenv("GATE_TOKEN_FILE", "/secret/token/file")
	s := newSessionServer(t, yolo(), interactive())
	for _, cmd := range []string{"env", "env X=1", "printenv", "cat /proc/self/environ | tr '\\0' '\\n'", "(env) & wait"} {
		r := s.post(t, "/v1/call", shell(cmd))
		out, _ := at(r.body, "result", "stdout").(string)
		if r.status != 200 || !strings.Contains(out, "GATE=1") {
			t.Fatalf("%s: %d %v", cmd, r.status, r.body)
		}
		for _, secret := range []string{"secret-gate-token", "secret-opa-token", "/secret/token/file", "GATE_TOKEN", "GATE_OPA_TOKEN"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s printed %s:\n%s", cmd, secret, out)
			}
		}
	}
	r := s.post(t, "/v1/sessions", `{"command":"env | grep -i -e gate -e secret; echo END-OF-ENV; sleep 100"}`)
	id := at(r.body, "session", "id").(string)
	if sc := s.waitText(t, id, "END-OF-ENV"); !strings.Contains(sc.body["text"].(string), "GATE=1") || strings.Contains(sc.body["text"].(string), "secret") {
		t.Errorf("a session printed a secret:\n%s", sc.body["text"])
	}

	core := newSessionServer(t, engine.Settings{Core: []string{"run_shell_command(ls)"}, ApprovalMode: engine.ApprovalDefault}, runner.Options{})
	for _, cmd := range []string{"env X=1", "env", "printenv", "printenv GATE_TOKEN", "env -i X=1", "nice"} {
		r := core.post(t, "/v1/call", shell(cmd))
		if r.status != 403 || at(r.body, "result") != nil || at(r.body, "decision", "decision") == "allow" {
			t.Errorf("%s ran under tools.core=[ls]: %d %v", cmd, r.status, r.body)
		}
	}
	defaultMode := newSessionServer(t, engine.Settings{ApprovalMode: engine.ApprovalDefault}, runner.Options{})
	for _, cmd := range []string{"env X=1", "env", "printenv"} {
		r := defaultMode.post(t, "/v1/call", shell(cmd))
		if r.status != 403 || at(r.body, "decision", "decision") != "ask" {
			t.Errorf("%s ran without approval in default mode: %d %v", cmd, r.status, r.body)
		}
	}
}

// Over MCP the session tools exist only with interactive shells on, and
// session_start refuses a shell under a restriction like the HTTP API.
func TestMCPSessionTools(t *testing.T) {
	connect := func(t *testing.T, ro runner.Options) (*mcp.ClientSession, string) {
		root := t.TempDir()
		e, err := engine.New(context.Background(), engine.Options{Root: root, Home: t.TempDir(), Settings: yolo("run_shell_command(rm)")})
		if err != nil {
			t.Fatal(err)
		}
		ro.Root = root
		r, err := runner.New(ro)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Shutdown(context.Background()) })
		ct, st := mcp.NewInMemoryTransports()
		ctx := context.Background()
		ss, err := NewMCPServer(NewGateway(e, r, nil, nil), "test").Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs, root
	}
	tools := func(t *testing.T, cs *mcp.ClientSession) map[string]bool {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, tool := range res.Tools {
			out[tool.Name] = true
		}
		return out
	}
	t.Run("off", func(t *testing.T) {
		cs, _ := connect(t, runner.Options{})
		got := tools(t, cs)
		for _, name := range []string{"session_start", "session_send", "session_screen", "session_kill"} {
			if got[name] {
				t.Errorf("%s offered with interactive shells off", name)
			}
		}
		if !got["run_shell_command"] {
			t.Fatalf("tools %v", got)
		}
	})
	t.Run("on", func(t *testing.T) {
		cs, root := connect(t, runner.Options{Interactive: true})
		victim := filepath.Join(root, "victim.txt")
		os.WriteFile(victim, []byte("x"), 0o644)
		for _, sh := range shells {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "session_start", Arguments: map[string]any{"command": sh}})
			if err != nil {
				t.Fatal(err)
			}
			out := textOf(res)
			if !res.IsError || !strings.Contains(out, "command_unprovable") {
				t.Errorf("%s: %q", sh, out)
			}
			if !strings.HasPrefix(out, "Session ") {
				continue
			}
			id := strings.Fields(strings.TrimPrefix(out, "Session "))[0]
			cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "session_send", Arguments: map[string]any{"id": id, "text": "rm victim.txt", "keys": []any{"Enter"}}})
		}
		if _, err := os.Stat(victim); err != nil {
			t.Fatal("victim.txt was deleted through an MCP session")
		}
	})
}

// testEnv is gate's environment with a home of the test's own: shells in
// sessions read no user's rc files and write no user's history.
func testEnv(t *testing.T) []string {
	t.Helper()
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "HISTFILE=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+t.TempDir(), "HISTFILE=/dev/null")
}

// TestSessionRefusedApproval: with the pending approvals full, a session
// the policy asks about is denied at once with limit_reached, like a call,
// and does not start.
func TestSessionRefusedApproval(t *testing.T) {
	s := newSessionServer(t, engine.Settings{ApprovalMode: engine.ApprovalDefault}, interactive())
	s.g.SetApprovals(NewApprovals(time.Minute, nil))
	s.g.SetLimits(Limits{MaxPendingApprovals: 1})
	pending := make(chan response, 1)
	go func() { pending <- s.post(t, "/v1/call", shell("touch first")) }()
	waitFor(t, "a call to wait for approval", func() bool { return gauge(t, s.g.Metrics(), "gate_approvals_pending", "", "") == 1 })

	r := s.post(t, "/v1/sessions", `{"command":"touch session"}`)
	reasons, _ := at(r.body, "decision", "reasons").([]any)
	if r.status != 403 || at(r.body, "decision", "decision") != "deny" || len(reasons) < 2 ||
		at(reasons[0], "code") != "limit_reached" || at(reasons[1], "code") != "approval_required" || at(r.body, "approval", "outcome") != "refused" || r.body["session"] != nil {
		t.Fatalf("session start with the approvals full: %d %v", r.status, r.body)
	}
	if got := counter(t, s.g.Metrics(), "gate_decisions_total", "reason", "approval_required"); got != 2 {
		t.Errorf("asks counted: %v, want 2 (the pending call and the session)", got)
	}
	if list := s.get(t, "/v1/sessions").body["sessions"].([]any); len(list) != 0 {
		t.Fatalf("a session started: %v", list)
	}
	if _, err := os.Stat(filepath.Join(s.root, "session")); err == nil {
		t.Fatal("the refused session's command ran")
	}
	for _, p := range s.g.approvals.List() {
		s.g.approvals.Resolve(p.ID, false, "test", "")
	}
	if r := <-pending; r.status != 403 {
		t.Fatalf("the pending call, denied: %d %v", r.status, r.body)
	}
}
