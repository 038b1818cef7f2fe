package server

import (
	"context"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/runner"
	"github.com/gate-dev/gate/supervise"
)

// ExecDecider returns the decider of every program the command of a call
// runs under supervision: the exec-time policy (data.gate.exec.decision)
// with the call's input, counted in gate_exec_decisions_total and written
// to the decision log with the call's decision id. When the policy asks,
// the process waits, stopped, for a human's answer, through the client
// (MCP elicitation) or the approvals API; where nobody can answer, ask is
// deny. ctx is the call's: its values (the requester, the client to ask)
// serve the approvals and the log.
func (g *Gateway) ExecDecider(ctx context.Context, e *engine.Engine, call engine.Call, in *engine.Input, callDecision string) supervise.Decider {
	// The call's input is converted once, at the first exec: a command of
	// builtins never needs it.
	var (
		once sync.Once
		ec   *engine.ExecCall
		err  error
	)
	values := context.WithoutCancel(ctx)
	return func(tctx context.Context, x supervise.Exec) supervise.Verdict {
		start := time.Now()
		once.Do(func() { ec, err = e.ExecCall(in) })
		var d engine.Decision
		if err != nil {
			d = engine.DenyWith(engine.CodeInternal, "cannot build the exec-time input: "+err.Error())
		} else {
			d = e.DecideExec(tctx, ec, x)
		}
		took := time.Since(start)
		d.DecisionID = newDecisionID()
		reason := ""
		if len(d.Reasons) > 0 {
			reason = d.Reasons[0].Code
		}
		g.metrics.ExecDecision(d.Decision, reason, took)
		rev, _ := g.revision.Load().(string)
		g.logEvent(values, e, "gate/exec/decision", map[string]any{"exec": x, "call_decision_id": callDecision}, d, took, rev)
		allow := d.Decision == engine.Allow
		if d.Decision == engine.Ask {
			allow = g.approveExec(values, tctx, call, x, &d)
		}
		if !allow {
			g.log.Info("exec blocked", "program", x.Program, "decision", d.Decision, "reason", reason, "call_decision_id", callDecision)
		}
		info := runner.BlockInfo{DecisionID: d.DecisionID}
		for _, r := range d.Reasons {
			info.Reasons = append(info.Reasons, runner.BlockReason{Code: r.Code, Message: r.Message})
		}
		return supervise.Verdict{Allow: allow, Reason: reasonText(d), Info: info}
	}
}

// DecideToRun decides a shell call that the caller runs itself (gate exec
// --interactive), and returns the exec-time decider of its command when
// the decision is allow.
func (g *Gateway) DecideToRun(ctx context.Context, call engine.Call) (engine.Decision, supervise.Decider, error) {
	e, in, d, err := g.decide(ctx, call)
	if err != nil || d.Decision != engine.Allow {
		return d, nil, err
	}
	return d, g.ExecDecider(ctx, e, call, in, d.DecisionID), nil
}

// approveExec asks a human about an exec the policy asked about, with the
// process stopped; d becomes the deny when nobody can answer.
func (g *Gateway) approveExec(values, tctx context.Context, call engine.Call, x supervise.Exec, d *engine.Decision) bool {
	actx, cancel := context.WithCancel(values)
	defer cancel()
	stop := context.AfterFunc(tctx, cancel)
	defer stop()
	pseudo := engine.Call{Tool: engine.ToolShell, Args: map[string]any{
		"command": quoteArgv(x.Argv), "description": "a program the command " + quoteShort(call) + " runs",
		"program": x.Program, "is_background": false,
	}}
	v, ok := g.approveChange(actx, pseudo, nil, *d)
	if !ok {
		*d = engine.DenyWith(engine.CodeApprovalUnavailable, "The policy asks about "+x.Program+" before it runs, and nobody can answer here: "+reasonText(*d))
		return false
	}
	return v.Approved()
}

func reasonText(d engine.Decision) string {
	msgs := make([]string, 0, len(d.Reasons))
	for _, r := range d.Reasons {
		msgs = append(msgs, r.Message)
	}
	return strings.Join(msgs, "; ")
}

// quoteArgv writes argv as a shell command line.
func quoteArgv(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = "'?'"
		}
		words[i] = q
	}
	return strings.Join(words, " ")
}

func quoteShort(call engine.Call) string {
	s, _ := call.Args["command"].(string)
	return quote(s)
}
