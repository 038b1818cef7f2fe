package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/plugins/logs"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
)

// Gateway decides and runs tool calls. It is safe for concurrent use.
type Gateway struct {
	engine    atomic.Pointer[engine.Engine]
	runner    *runner.Runner
	metrics   *metrics.Metrics
	log       *slog.Logger
	approvals *Approvals
	rules     *Rules
	dlog      *DecisionLog
	opaLogs   *logs.Plugin
	revision  atomic.Value // string
	// limits bound decisions and calls at once (limits.go).
	limits            Limits
	deciding, running *limiter

	// canaries are the latest calls, to smoke-evaluate a reload with;
	// reloadDelay is Watch's debounce interval (0: the default).
	canaries    canaryRing
	reloadDelay time.Duration

	// onEngine are told of every engine swapped in.
	onEngineMu sync.Mutex
	onEngine   []func(*engine.Engine)
}

// SetApprovals makes calls the policy asks about wait for a human's answer
// in a; without approvals they are refused at once.
func (g *Gateway) SetApprovals(a *Approvals) {
	a.onEnd = func(v Verdict, via string) { g.metrics.Approval(v.Outcome, via) }
	a.setLimits(g.limits, g.metrics)
	g.approvals = a
}

// Approvals returns the pending approvals, or nil.
func (g *Gateway) Approvals() *Approvals { return g.approvals }

// NewGateway returns a gateway; e may be nil until SetEngine is called (the
// gateway is not ready until then and refuses every call).
func NewGateway(e *engine.Engine, r *runner.Runner, m *metrics.Metrics, log *slog.Logger) *Gateway {
	if m == nil {
		m = metrics.New()
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &Gateway{runner: r, metrics: m, log: log}
	g.SetLimits(Limits{})
	if e != nil {
		g.SetEngine(e, "embedded")
	}
	r.Background().OnChange(m.SetBackground)
	r.Sessions().OnChange(m.SetSessionsOpen, m.Session)
	r.Sessions().OnRemove(m.SessionRemoved)
	return g
}

// SetEngine swaps in the engine used for new decisions.
func (g *Gateway) SetEngine(e *engine.Engine, revision string) {
	g.onEngineMu.Lock()
	defer g.onEngineMu.Unlock()
	g.revision.Store(revision)
	g.engine.Store(e)
	g.metrics.SetPolicyRevision(revision)
	for _, f := range g.onEngine {
		f(e)
	}
}

// OnEngine calls f with the engine in use (nil before the first) and with
// every engine swapped in after it, in order.
func (g *Gateway) OnEngine(f func(*engine.Engine)) {
	g.onEngineMu.Lock()
	defer g.onEngineMu.Unlock()
	g.onEngine = append(g.onEngine, f)
	f(g.engine.Load())
}

// Ready reports whether policies are compiled and calls can be decided.
func (g *Gateway) Ready() bool { return g.engine.Load() != nil }

// Metrics returns the gateway's metrics.
func (g *Gateway) Metrics() *metrics.Metrics { return g.metrics }

// Runner returns the gateway's runner.
func (g *Gateway) Runner() *runner.Runner { return g.runner }

// Decide decides a call without running it. A malformed call is an
// *engine.Error with CodeInvalidCall; every decision is counted.
func (g *Gateway) Decide(ctx context.Context, call engine.Call) (engine.Decision, error) {
	call, err := engine.Canonical(call)
	if err != nil {
		return engine.Decision{}, err
	}
	_, _, d, err := g.decide(ctx, call)
	return d, err
}

// decide builds the policy input of a call and evaluates it, with the
// engine in use at that moment.
func (g *Gateway) decide(ctx context.Context, call engine.Call) (*engine.Engine, *engine.Input, engine.Decision, error) {
	e := g.engine.Load()
	if e == nil {
		return nil, nil, engine.Decision{}, &engine.Error{Code: engine.CodeNotReady, Message: "policies are not loaded yet"}
	}
	// The decision's time budget starts once it holds a slot.
	release, err := g.deciding.acquire(ctx)
	if err != nil {
		return nil, nil, engine.Decision{}, err
	}
	defer release()
	start := time.Now()
	in, d, err := e.DecideInput(ctx, call) // a panic there is an internal_error deny
	if err != nil {
		return nil, nil, engine.Decision{}, err
	}
	g.canaries.add(call)
	took := time.Since(start)
	d.DecisionID = newDecisionID()
	reason := ""
	if len(d.Reasons) > 0 {
		reason = d.Reasons[0].Code
	}
	g.metrics.Decision(call.Tool, d.Decision, reason, took)
	rev, _ := g.revision.Load().(string)
	g.logDecision(ctx, e, in, d, took, rev)
	return e, in, d, nil
}

// CallResult is the outcome of Call.
type CallResult struct {
	// Decision is the policy's decision; the call ran only if it is allow.
	Decision engine.Decision `json:"decision"`
	// Result is the tool's result when the call ran: a *runner.Result for
	// run_shell_command, an *fstools.Result for the file tools.
	Result any `json:"result,omitempty"`
	// Text is the result as the agent reads it (the reference's layout).
	Text string `json:"text,omitempty"`
	// Approval is how a human answered when the policy asked.
	Approval *Verdict `json:"approval,omitempty"`
}

// Ran reports whether the call ran.
func (r *CallResult) Ran() bool { return r.Result != nil }

// Call decides a call and runs it when the decision is allow. Errors are
// *engine.Error values: CodeToolUnknown, CodeInvalidCall (arguments that
// fail validation, naming the parameter), CodeNotReady.
func (g *Gateway) Call(ctx context.Context, call engine.Call) (_ *CallResult, err error) {
	done := g.metrics.Inflight()
	defer done()
	defer g.recoverCall(call.Tool, &err)
	if !engine.KnownTool(call.Tool) {
		g.metrics.ToolCall(call.Tool, "error", 0)
		return nil, &engine.Error{Code: engine.CodeToolUnknown, Message: "unknown tool " + quote(call.Tool)}
	}
	// The seed's parameter names from here on: what is decided is what runs.
	call, err = engine.Canonical(call)
	if err != nil {
		g.metrics.ToolCall(call.Tool, "error", 0)
		return nil, err
	}
	var req runner.Request
	if call.Tool == engine.ToolShell {
		var err error
		if req, err = runner.ParseArgs(call.Args); err != nil {
			g.metrics.ToolCall(call.Tool, "error", 0)
			return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()}
		}
	}
	start := time.Now()
	e, in, out, err := g.authorize(ctx, call)
	if err != nil {
		g.metrics.ToolCall(call.Tool, "error", 0)
		return nil, err
	}
	if !out.Authorized() {
		g.metrics.ToolCall(call.Tool, "denied", 0)
		return out, nil
	}
	release, err := g.running.acquire(ctx)
	if err != nil {
		g.metrics.ToolCall(call.Tool, "error", 0)
		return nil, err
	}
	defer release()
	if call.Tool != engine.ToolShell {
		res, err := g.runFile(e, call, in)
		if err != nil {
			g.metrics.ToolCall(call.Tool, "error", 0)
			return nil, err
		}
		outcome := "ok"
		if res.Error != nil {
			outcome = "failed"
		}
		took := time.Since(start)
		g.metrics.ToolCall(call.Tool, outcome, took)
		g.log.Info("call ran", "tool", call.Tool, "outcome", outcome, "duration", took)
		out.Result = res
		out.Text = res.Content
		return out, nil
	}
	// Every program the command starts is decided at exec time too.
	req.Exec = g.ExecDecider(ctx, e, call, in, out.Decision.DecisionID)
	res, err := g.runner.Run(ctx, req)
	if err != nil {
		g.metrics.ToolCall(call.Tool, "error", 0)
		var ae *runner.ArgError
		if errors.As(err, &ae) {
			return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: err.Error()}
		}
		if e := enforcementError(err); e != nil {
			return nil, e
		}
		return nil, &engine.Error{Code: engine.CodeInternal, Message: "running the command", Err: err}
	}
	g.metrics.ToolCall(call.Tool, res.Outcome(), res.Duration)
	exit := -1
	if res.ExitCode != nil {
		exit = *res.ExitCode
	}
	g.log.Info("call ran", "tool", call.Tool, "outcome", res.Outcome(), "exit_code", exit, "duration", res.Duration)
	out.Result = res
	out.Text = res.Text()
	return out, nil
}

// Authorized reports whether the call may run: the policy allowed it, or
// it asked and a human approved.
func (r *CallResult) Authorized() bool {
	return r.Decision.Decision == engine.Allow || (r.Approval != nil && r.Approval.Approved())
}

// authorize decides a call and, when the policy asks, waits for a human's
// answer: the one path every command takes before it runs, whether as a
// tool call or as an interactive session. A refusal is logged.
func (g *Gateway) authorize(ctx context.Context, call engine.Call) (*engine.Engine, *engine.Input, *CallResult, error) {
	e, in, d, err := g.decide(ctx, call)
	if err != nil {
		return nil, nil, nil, err
	}
	out := &CallResult{Decision: d}
	if d.Decision == engine.Ask {
		if v, ok := g.approveChange(ctx, call, in.Change, d); ok {
			out.Approval = &v
			if v.Outcome == outcomeRefused {
				out.Decision = refusedDecision(d, v)
			}
		}
	}
	if !out.Authorized() {
		g.log.Info("call refused", "tool", call.Tool, "decision", d.Decision, "reason", d.Reasons[0].Code)
	}
	return e, in, out, nil
}

// approve asks for a human's answer: through the client (MCP elicitation)
// when it can be asked, through the approvals API otherwise. ok is false
// when there is nobody to ask.
func (g *Gateway) approve(ctx context.Context, call engine.Call, d engine.Decision) (Verdict, bool) {
	return g.approveChange(ctx, call, nil, d)
}

// approveChange is approve for a call whose change (a write or edit) is
// known, for the approver to see.
func (g *Gateway) approveChange(ctx context.Context, call engine.Call, change *fstools.Change, d engine.Decision) (Verdict, bool) {
	if f, _ := ctx.Value(askerKey{}).(asker); f != nil {
		if v, ok := f(ctx, call, d); ok {
			if v.Outcome == outcomeInputRequired {
				return v, true
			}
			g.log.Info("approval ended", "tool", call.Tool, "outcome", v.Outcome, "by", v.By, "via", "elicitation")
			g.metrics.Approval(v.Outcome, "elicitation")
			return v, true
		}
	}
	if g.approvals == nil {
		return Verdict{}, false
	}
	return g.approvals.wait(ctx, call, change, d), true
}

// runFile runs an allowed file tool call. A write or edit applies the
// change the policy saw, and only if the file still holds what it was
// computed from.
func (g *Gateway) runFile(e *engine.Engine, call engine.Call, in *engine.Input) (*fstools.Result, error) {
	files := e.Files()
	var (
		res *fstools.Result
		err error
	)
	switch {
	case in.ChangeError != nil:
		d := in.ChangeError.Display
		if d == "" {
			d = in.ChangeError.Message
		}
		res = &fstools.Result{Content: in.ChangeError.Message, Display: "Error: " + d, Error: in.ChangeError}
	case in.Change != nil:
		res = files.Apply(in.Change)
	default:
		res, err = files.Run(call.Tool, call.Args)
	}
	if err != nil {
		var ae *fstools.ArgError
		if errors.As(err, &ae) {
			return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: ae.Message}
		}
		return nil, &engine.Error{Code: engine.CodeInternal, Message: "running " + call.Tool, Err: err}
	}
	return res, nil
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return "\"" + s + "\""
}

// recoverCall turns a panic while handling a call into an internal_error,
// logged with its stack, so that one bad call does not end the process.
func (g *Gateway) recoverCall(what string, err *error) {
	if v := recover(); v != nil {
		g.log.Error("panic while handling a call", "call", what, "panic", v, "stack", string(debug.Stack()))
		*err = &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("internal error: panic while handling %s: %v", what, v)}
	}
}
