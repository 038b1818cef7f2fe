package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/metrics"
)

// DefaultApprovalTimeout is how long an "ask" call waits for a human.
const DefaultApprovalTimeout = 5 * time.Minute

// ErrNoApproval is returned for an approval id that is not pending.
var ErrNoApproval = errors.New("no such pending approval")

// PreviewBytes bounds the text of a pending call's arguments (and of its
// diff) that the approvals list shows.
const PreviewBytes = 8 << 10

// Approval is a call waiting for a human's answer. In a list, Args is a
// preview: strings are cut to PreviewBytes in all (Truncated says so);
// Size is the bytes the call's arguments and change hold.
type Approval struct {
	ID        string          `json:"id"`
	Tool      string          `json:"tool"`
	Args      map[string]any  `json:"args"`
	Truncated bool            `json:"truncated,omitempty"`
	Size      int64           `json:"size"`
	Change    *ChangeSummary  `json:"change,omitempty"`
	Decision  engine.Decision `json:"decision"`
	Created   time.Time       `json:"created"`
	Expires   time.Time       `json:"expires"`
}

// ChangeSummary is what a pending write_file or edit would change: the
// file, its sizes, and the start of the diff.
type ChangeSummary struct {
	Path    string `json:"path"`
	New     bool   `json:"new"`
	OldSize int    `json:"old_size"`
	NewSize int    `json:"new_size"`
	// Diff is the first PreviewBytes of the unified diff of DiffBytes.
	Diff      string `json:"diff"`
	DiffBytes int    `json:"diff_bytes"`
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

// outcomeRefused: the call could not wait for approval, the approvals
// being full; it is denied with limit_reached.
const outcomeRefused = "refused"

// refusedDecision is the deny of an "ask" call refused by v.
func refusedDecision(d engine.Decision, v Verdict) engine.Decision {
	reasons := append([]engine.Reason{{Code: string(engine.CodeLimitReached), Message: v.Reason}}, d.Reasons...)
	return engine.Decision{DecisionID: d.DecisionID, Decision: engine.Deny, Reasons: reasons}
}

type pendingApproval struct {
	Approval // with the preview of the arguments
	args     map[string]any
	answer   chan Verdict
}

// Approvals holds the calls waiting for approval. It is safe for
// concurrent use.
type Approvals struct {
	timeout time.Duration
	onEnd   func(v Verdict, via string)
	log     *slog.Logger

	maxPending int
	maxBytes   int64
	metrics    *metrics.Metrics

	mu      sync.Mutex
	pending map[string]*pendingApproval
	bytes   int64 // held by the pending calls
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
	l := Limits{}.withDefaults()
	return &Approvals{timeout: timeout, log: log, pending: map[string]*pendingApproval{}, maxPending: l.MaxPendingApprovals, maxBytes: l.MaxApprovalBytes}
}

// setLimits bounds the pending calls, in number and bytes, and reports
// them in m.
func (a *Approvals) setLimits(l Limits, m *metrics.Metrics) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.maxPending, a.maxBytes, a.metrics = l.MaxPendingApprovals, l.MaxApprovalBytes, m
}

// Wait registers a call that the policy asked about and waits until a
// human approves or denies it, the timeout passes or ctx ends. When the
// pending calls are at their limit it returns at once, refused.
func (a *Approvals) Wait(ctx context.Context, call engine.Call, d engine.Decision) Verdict {
	return a.wait(ctx, call, nil, d)
}

// wait is Wait for a call whose change (of a write or edit) is known.
func (a *Approvals) wait(ctx context.Context, call engine.Call, change *fstools.Change, d engine.Decision) Verdict {
	var id [8]byte
	_, _ = rand.Read(id[:])
	now := time.Now()
	preview, truncated := previewArgs(call.Args)
	p := &pendingApproval{
		Approval: Approval{ID: hex.EncodeToString(id[:]), Tool: call.Tool, Args: preview, Truncated: truncated, Size: argsSize(call.Args),
			Decision: d, Created: now, Expires: now.Add(a.timeout)},
		args:   call.Args,
		answer: make(chan Verdict, 1),
	}
	if change != nil {
		diff := change.Diff
		if len(diff) > PreviewBytes {
			diff = strings.Clone(diff[:PreviewBytes])
		}
		p.Change = &ChangeSummary{Path: change.Rel, New: change.New, OldSize: change.OldSize, NewSize: change.NewSize, Diff: diff, DiffBytes: len(change.Diff)}
		p.Size += int64(change.NewSize + len(change.Diff))
	}
	a.mu.Lock()
	full := ""
	switch {
	case len(a.pending) >= a.maxPending:
		full = fmt.Sprintf("%d calls already wait for approval (the limit)", len(a.pending))
	case a.bytes+p.Size > a.maxBytes:
		full = fmt.Sprintf("the calls waiting for approval would hold %d bytes, over the limit of %d", a.bytes+p.Size, a.maxBytes)
	default:
		a.pending[p.ID] = p
		a.bytes += p.Size
		a.gauge()
	}
	a.mu.Unlock()
	if full != "" {
		v := Verdict{Outcome: outcomeRefused, Reason: "cannot wait for approval: " + full}
		a.ended(p.ID, call.Tool, v, "api")
		return v
	}
	a.log.Info("approval requested", "id", p.ID, "tool", call.Tool, "reason", d.Reasons[0].Code, "bytes", p.Size)
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
	a.remove(p.ID)
	a.mu.Unlock()
	a.ended(p.ID, call.Tool, v, "api")
	return v
}

// remove forgets a pending call; a.mu is held.
func (a *Approvals) remove(id string) (*pendingApproval, bool) {
	p, ok := a.pending[id]
	if ok {
		delete(a.pending, id)
		a.bytes -= p.Size
		a.gauge()
	}
	return p, ok
}

// gauge reports the pending calls; a.mu is held.
func (a *Approvals) gauge() {
	if a.metrics != nil {
		a.metrics.SetApprovalsPending(len(a.pending), a.bytes)
	}
}

// argsSize is about the bytes the arguments hold: their strings' lengths
// and eight for any other value.
func argsSize(v any) int64 {
	switch v := v.(type) {
	case string:
		return int64(len(v))
	case map[string]any:
		n := int64(0)
		for k, x := range v {
			n += int64(len(k)) + argsSize(x)
		}
		return n
	case []any:
		n := int64(0)
		for _, x := range v {
			n += argsSize(x)
		}
		return n
	default:
		return 8
	}
}

// previewArgs copies args with their strings cut to PreviewBytes in all,
// so that a listing never holds or sends more.
func previewArgs(args map[string]any) (map[string]any, bool) {
	budget, truncated := PreviewBytes, false
	var cut func(v any) any
	cut = func(v any) any {
		switch v := v.(type) {
		case string:
			if len(v) <= budget {
				budget -= len(v)
				return v
			}
			truncated = true
			// A copy: a slice would keep the whole string alive.
			s := strings.Clone(v[:budget]) + "…"
			budget = 0
			return s
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys) // cut the same way every time
			out := make(map[string]any, len(v))
			for _, k := range keys {
				out[k] = cut(v[k])
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = cut(x)
			}
			return out
		default:
			return v
		}
	}
	out, _ := cut(args).(map[string]any)
	return out, truncated
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

// Pending returns a pending approval with its call's whole arguments.
func (a *Approvals) Pending(id string) (Approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.pending[id]
	if !ok {
		return Approval{}, false
	}
	out := p.Approval
	out.Args, out.Truncated = p.args, false
	return out, true
}

// Resolve answers a pending approval; by names who answered.
func (a *Approvals) Resolve(id string, approve bool, by, reason string) error {
	return a.resolve(id, Verdict{By: by, Reason: reason}, approve)
}

func (a *Approvals) resolve(id string, v Verdict, approve bool) error {
	a.mu.Lock()
	p, ok := a.remove(id)
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
