package server

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
)

// Defaults of Limits.
const (
	// DefaultDecisionsPerCPU times GOMAXPROCS is how many decisions are
	// evaluated at once: evaluation is CPU-bound, so more at once only
	// makes each one slower (and late for its eval timeout).
	DefaultDecisionsPerCPU = 2
	// DefaultMaxCalls is how many allowed calls run at once.
	DefaultMaxCalls = 64
	// DefaultMaxQueue is how many decisions, and how many calls, may wait
	// for a slot; beyond it a request is answered overloaded (503).
	DefaultMaxQueue = 4096
	// DefaultQueueTimeout is how long a request waits for a slot before it
	// is answered overloaded.
	DefaultQueueTimeout = 30 * time.Second
	// DefaultRetryAfter is the Retry-After of an overloaded answer.
	DefaultRetryAfter = time.Second
	// DefaultMaxPendingApprovals bounds the calls waiting for a human.
	DefaultMaxPendingApprovals = 64
	// DefaultMaxApprovalBytes bounds the bytes of arguments and changes
	// pending approvals hold.
	DefaultMaxApprovalBytes = 64 << 20
)

// Limits bound the work a gateway does at once. Zero fields take their
// defaults.
type Limits struct {
	// MaxDecisions is how many decisions (parsing and policy evaluation)
	// run at once; the evaluation timeout starts once a decision has its
	// slot. Zero means DefaultDecisionsPerCPU × GOMAXPROCS.
	MaxDecisions int
	// MaxCalls is how many allowed calls (commands, file tools) run at
	// once.
	MaxCalls int
	// MaxQueue is how many decisions, and separately how many calls, may
	// wait for a slot.
	MaxQueue int
	// QueueTimeout bounds how long one waits for a slot.
	QueueTimeout time.Duration
	// RetryAfter is sent with overloaded answers.
	RetryAfter time.Duration
	// MaxPendingApprovals and MaxApprovalBytes bound the calls waiting for
	// a human's answer, in number and in the bytes their arguments and
	// changes hold; a call beyond is denied at once (limit_reached).
	MaxPendingApprovals int
	MaxApprovalBytes    int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxDecisions <= 0 {
		l.MaxDecisions = DefaultDecisionsPerCPU * runtime.GOMAXPROCS(0)
	}
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultMaxCalls
	}
	if l.MaxQueue <= 0 {
		l.MaxQueue = DefaultMaxQueue
	}
	if l.QueueTimeout <= 0 {
		l.QueueTimeout = DefaultQueueTimeout
	}
	if l.RetryAfter <= 0 {
		l.RetryAfter = DefaultRetryAfter
	}
	if l.MaxPendingApprovals <= 0 {
		l.MaxPendingApprovals = DefaultMaxPendingApprovals
	}
	if l.MaxApprovalBytes <= 0 {
		l.MaxApprovalBytes = DefaultMaxApprovalBytes
	}
	return l
}

// SetLimits bounds the decisions and calls g serves at once and the
// approvals they wait for. Call it before serving; NewGateway starts with
// the defaults.
func (g *Gateway) SetLimits(l Limits) {
	l = l.withDefaults()
	g.limits = l
	g.deciding = newLimiter(metrics.StageDecide, l.MaxDecisions, l, g.metrics)
	g.running = newLimiter(metrics.StageRun, l.MaxCalls, l, g.metrics)
	if g.approvals != nil {
		g.approvals.setLimits(l, g.metrics)
	}
}

// Limits returns the limits in force.
func (g *Gateway) Limits() Limits { return g.limits }

// limiter lets at most cap(slots) holders work at once and at most queue
// more wait, each for at most timeout.
type limiter struct {
	stage      string
	slots      chan struct{}
	queue      int64
	waiting    atomic.Int64
	timeout    time.Duration
	retryAfter time.Duration
	metrics    *metrics.Metrics
}

func newLimiter(stage string, slots int, l Limits, m *metrics.Metrics) *limiter {
	return &limiter{stage: stage, slots: make(chan struct{}, slots), queue: int64(l.MaxQueue), timeout: l.QueueTimeout, retryAfter: l.RetryAfter, metrics: m}
}

// OverloadedError says when to try again; it is the Err of the
// *engine.Error (CodeOverloaded) a full queue answers with.
type OverloadedError struct {
	After time.Duration
}

func (e *OverloadedError) Error() string { return "retry after " + e.After.String() }

// acquire waits for a slot; release it when done. It fails with
// CodeOverloaded when the queue is full, the wait passes the queue timeout
// or ctx ends first.
func (l *limiter) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-l.slots }
	select {
	case l.slots <- struct{}{}:
		l.metrics.QueueWait(l.stage, 0)
		return release, nil
	default:
	}
	if n := l.waiting.Add(1); n > l.queue {
		l.waiting.Add(-1)
		l.metrics.Overload(l.stage, metrics.OverloadQueueFull)
		return nil, l.overloaded(fmt.Sprintf("%d %s slots are taken and %d requests wait", cap(l.slots), l.stage, l.queue))
	}
	l.metrics.SetQueued(l.stage, int(l.waiting.Load()))
	defer func() { l.metrics.SetQueued(l.stage, int(l.waiting.Add(-1))) }()
	start := time.Now()
	timer := time.NewTimer(l.timeout)
	defer timer.Stop()
	select {
	case l.slots <- struct{}{}:
		l.metrics.QueueWait(l.stage, time.Since(start))
		return release, nil
	case <-timer.C:
		l.metrics.Overload(l.stage, metrics.OverloadQueueTimeout)
		return nil, l.overloaded(fmt.Sprintf("no %s slot came free within %s", l.stage, l.timeout))
	case <-ctx.Done():
		return nil, &engine.Error{Code: engine.CodeOverloaded, Message: "overloaded: the request ended while it waited for a " + l.stage + " slot", Err: &OverloadedError{After: l.retryAfter}}
	}
}

func (l *limiter) overloaded(msg string) error {
	return &engine.Error{Code: engine.CodeOverloaded, Message: "overloaded: " + msg, Err: &OverloadedError{After: l.retryAfter}}
}
