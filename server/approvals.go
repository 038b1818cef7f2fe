package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/gate-dev/gate/engine"
)

// DefaultApprovalTimeout is how long an "ask" call waits for a human.
const DefaultApprovalTimeout = 5 * time.Minute

// ErrNoApproval is returned for an approval id that is not pending.
var ErrNoApproval = errors.New("no such pending approval")

// Approval is a call waiting for a human's answer.
type Approval struct {
	ID       string          `json:"id"`
	Tool     string          `json:"tool"`
	Args     map[string]any  `json:"args"`
	Decision engine.Decision `json:"decision"`
	Created  time.Time       `json:"created"`
	Expires  time.Time       `json:"expires"`
}

// Verdict is how an approval ended.
type Verdict struct {
	// Outcome is approved, denied, timeout or cancelled.
	Outcome string `json:"outcome"`
	// By names who answered (the approver, or "elicitation").
	By string `json:"by,omitempty"`
	// Reason is the approver's reason, or why nobody answered.
	Reason string `json:"reason,omitempty"`
	// Always is set when the approver allowed such calls from now on.
	Always bool `json:"always,omitempty"`
	// Rules are the rules an "always" answer added.
	Rules []string `json:"rules,omitempty"`
}

// Approved reports whether the call may run.
func (v Verdict) Approved() bool { return v.Outcome == "approved" }

type pendingApproval struct {
	Approval
	answer chan Verdict
}

// Approvals holds the calls waiting for approval. It is safe for
// concurrent use.
type Approvals struct {
	timeout time.Duration
	onEnd   func(v Verdict, via string)
	log     *slog.Logger

	mu      sync.Mutex
	pending map[string]*pendingApproval
}

// NewApprovals returns an empty set of approvals; calls wait up to timeout
// (DefaultApprovalTimeout when zero).
func NewApprovals(timeout time.Duration, log *slog.Logger) *Approvals {
	if timeout <= 0 {
		timeout = DefaultApprovalTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Approvals{timeout: timeout, log: log, pending: map[string]*pendingApproval{}}
}

// Wait registers a call that the policy asked about and waits until a
// human approves or denies it, the timeout passes or ctx ends.
func (a *Approvals) Wait(ctx context.Context, call engine.Call, d engine.Decision) Verdict {
	var id [8]byte
	_, _ = rand.Read(id[:])
	now := time.Now()
	p := &pendingApproval{
		Approval: Approval{ID: hex.EncodeToString(id[:]), Tool: call.Tool, Args: call.Args, Decision: d, Created: now, Expires: now.Add(a.timeout)},
		answer:   make(chan Verdict, 1),
	}
	a.mu.Lock()
	a.pending[p.ID] = p
	a.mu.Unlock()
	a.log.Info("approval requested", "id", p.ID, "tool", call.Tool, "reason", d.Reasons[0].Code)
	timer := time.NewTimer(a.timeout)
	defer timer.Stop()
	var v Verdict
	select {
	case v = <-p.answer:
	case <-timer.C:
		v = Verdict{Outcome: "timeout", Reason: "nobody answered within " + a.timeout.String()}
	case <-ctx.Done():
		v = Verdict{Outcome: "cancelled", Reason: "the call was cancelled while waiting for approval"}
	}
	a.mu.Lock()
	delete(a.pending, p.ID)
	a.mu.Unlock()
	a.ended(p.ID, call.Tool, v, "api")
	return v
}

func (a *Approvals) ended(id, tool string, v Verdict, via string) {
	a.log.Info("approval ended", "id", id, "tool", tool, "outcome", v.Outcome, "by", v.By, "via", via, "reason", v.Reason)
	if a.onEnd != nil {
		a.onEnd(v, via)
	}
}

// List returns the pending approvals, oldest first.
func (a *Approvals) List() []Approval {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Approval, 0, len(a.pending))
	for _, p := range a.pending {
		out = append(out, p.Approval)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// Pending returns a pending approval.
func (a *Approvals) Pending(id string) (Approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.pending[id]
	if !ok {
		return Approval{}, false
	}
	return p.Approval, true
}

// Resolve answers a pending approval; by names who answered.
func (a *Approvals) Resolve(id string, approve bool, by, reason string) error {
	return a.resolve(id, Verdict{By: by, Reason: reason}, approve)
}

func (a *Approvals) resolve(id string, v Verdict, approve bool) error {
	a.mu.Lock()
	p, ok := a.pending[id]
	if ok {
		delete(a.pending, id)
	}
	a.mu.Unlock()
	if !ok {
		return ErrNoApproval
	}
	if v.By == "" {
		v.By = "anonymous"
	}
	v.Outcome = "denied"
	if approve {
		v.Outcome = "approved"
	}
	p.answer <- v
	return nil
}

// asker asks the user of the current client (MCP elicitation) to approve a
// call; ok is false when the client cannot be asked.
type asker func(ctx context.Context, call engine.Call, d engine.Decision) (v Verdict, ok bool)

type askerKey struct{}

func withAsker(ctx context.Context, f asker) context.Context {
	return context.WithValue(ctx, askerKey{}, f)
}
