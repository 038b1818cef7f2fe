package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	opametrics "github.com/open-policy-agent/opa/v1/metrics"
	opaserver "github.com/open-policy-agent/opa/v1/server"

	"github.com/gate-dev/gate/engine"
)

// DecisionEvent is one decision log line, in OPA's decision log shape.
type DecisionEvent struct {
	DecisionID  string            `json:"decision_id"`
	Timestamp   time.Time         `json:"timestamp"`
	Path        string            `json:"path"`
	Input       any               `json:"input"`
	Result      any               `json:"result"`
	Labels      map[string]string `json:"labels"`
	Bundles     map[string]any    `json:"bundles"`
	Metrics     map[string]int64  `json:"metrics"`
	RequestedBy string            `json:"requested_by,omitempty"`
	Erased      []string          `json:"erased,omitempty"`
	Masked      []string          `json:"masked,omitempty"`
}

// DecisionLog writes decision log events as JSON lines, masked by the
// policies' data.system.log.mask and by gate's default secret masks. It is
// safe for concurrent use, and never blocks a decision: events go through a
// bounded queue to a writer goroutine; when the queue is full (a reader
// that stopped reading, a slow disk) they are dropped and counted in
// gate_decision_logs_total{result="dropped"}. Each event is one write of
// one whole line; after a failed or short write the next event starts on a
// fresh line. A reader that went away (EPIPE) drops every later event.
type DecisionLog struct {
	labels map[string]string
	w      io.Writer
	closer io.Closer
	log    *slog.Logger
	count  func(result string)

	queue    chan []byte
	queued   atomic.Int64 // bytes in the queue
	pending  atomic.Int64 // events queued or being written
	maxBytes int64
	gone     atomic.Bool // the reader went away
	done     chan struct{}

	mu     sync.RWMutex // closed, and sends on queue
	closed bool
}

// Decision log queue bounds.
const (
	DecisionLogQueue      = 1024     // events
	DecisionLogQueueBytes = 16 << 20 // bytes
	decisionLogFlush      = 2 * time.Second
)

// Decision log results counted in gate_decision_logs_total.
const (
	LogWritten = "written"
	LogError   = "error"
	LogDropped = "dropped"
)

// NewDecisionLog writes events to w, with these labels (id, version, ...).
func NewDecisionLog(w io.Writer, labels map[string]string) *DecisionLog {
	l := &DecisionLog{w: w, labels: labels, log: slog.New(slog.DiscardHandler), count: func(string) {},
		queue: make(chan []byte, DecisionLogQueue), maxBytes: DecisionLogQueueBytes, done: make(chan struct{})}
	go l.run()
	return l
}

// OpenDecisionLog opens a decision log file for appending ("-" is
// standard output). The closer flushes the queue (for a bounded time) and
// closes the file.
func OpenDecisionLog(path string, labels map[string]string) (*DecisionLog, io.Closer, error) {
	if path == "-" {
		// A reader of standard output that exits must not kill gate with
		// SIGPIPE: with SIGPIPE notified, a write to the broken pipe fails
		// with EPIPE instead. (Notify, unlike Ignore, is not inherited by
		// the commands gate runs.)
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
		l := NewDecisionLog(os.Stdout, labels)
		return l, l, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	l := NewDecisionLog(f, labels)
	l.closer = f
	return l, l, nil
}

// enqueue hands a line to the writer, or reports that it was dropped.
func (l *DecisionLog) enqueue(line []byte) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed || l.gone.Load() {
		return false
	}
	n := int64(len(line))
	if l.queued.Add(n) > l.maxBytes {
		l.queued.Add(-n)
		return false
	}
	l.pending.Add(1)
	select {
	case l.queue <- line:
		return true
	default:
		l.queued.Add(-n)
		l.pending.Add(-1)
		return false
	}
}

// run writes the queued lines, one write call each.
func (l *DecisionLog) run() {
	defer close(l.done)
	torn := false // the last write left a partial line
	for line := range l.queue {
		l.queued.Add(-int64(len(line)))
		if l.gone.Load() {
			l.count(LogDropped)
			l.pending.Add(-1)
			continue
		}
		buf := line
		if torn {
			buf = append([]byte{'\n'}, line...)
		}
		n, err := l.w.Write(buf)
		if err == nil && n < len(buf) {
			err = io.ErrShortWrite
		}
		if n > 0 {
			torn = buf[n-1] != '\n'
		}
		switch {
		case err == nil:
			l.count(LogWritten)
		case errors.Is(err, syscall.EPIPE):
			l.gone.Store(true)
			l.count(LogDropped)
			l.log.Error("the decision log's reader went away; decisions go on, their events are dropped", "error", err)
		default:
			l.count(LogError)
			l.log.Error("writing the decision log", "error", err)
		}
		l.pending.Add(-1)
	}
}

// Flush waits until every queued event is written, for at most timeout,
// and reports whether they were.
func (l *DecisionLog) Flush(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for l.pending.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// Close flushes the queue (for a bounded time), stops the writer and
// closes the file. Later events are dropped.
func (l *DecisionLog) Close() error {
	l.Flush(decisionLogFlush)
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	close(l.queue)
	l.mu.Unlock()
	select {
	case <-l.done:
	case <-time.After(decisionLogFlush):
		return fmt.Errorf("the decision log writer is stuck; %d events not written", l.pending.Load())
	}
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

// SetDecisionLog makes the gateway log every decision to l, counting its
// results in the gateway's metrics and its failures in the gateway's log.
func (g *Gateway) SetDecisionLog(l *DecisionLog) {
	l.count, l.log = g.metrics.DecisionLogResult, g.log
	g.dlog = l
}

// newDecisionID returns a random UUID (version 4).
func newDecisionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// log writes one decision's event.
func (g *Gateway) logDecision(ctx context.Context, e *engine.Engine, in *engine.Input, d engine.Decision, took time.Duration, revision string) {
	g.logEvent(ctx, e, "gate/decision", in, d, took, revision)
}

// logEvent writes one decision log event for the decision at path
// (gate/decision, gate/exec/decision) on input.
func (g *Gateway) logEvent(ctx context.Context, e *engine.Engine, path string, in any, d engine.Decision, took time.Duration, revision string) {
	l := g.dlog
	if l == nil && g.opaLogs == nil {
		return
	}
	labels := map[string]string{}
	if l != nil {
		labels = l.labels
	}
	ev, err := toJSONMap(map[string]any{"input": in, "result": d})
	if err != nil {
		g.metrics.DecisionLog(false)
		return
	}
	event := DecisionEvent{
		DecisionID: d.DecisionID, Timestamp: time.Now().UTC(), Path: path,
		Input: ev["input"], Result: ev["result"], Labels: labels,
		Bundles: map[string]any{"embedded": map[string]string{"revision": revision}},
		Metrics: map[string]int64{"timer_gate_decision_ns": took.Nanoseconds()},
	}
	if who, ok := ctx.Value(requesterKey{}).(string); ok {
		event.RequestedBy = who
	}
	err = maskEvent(ctx, e, &event)
	if err == nil {
		maskSecrets(&event)
	}
	if err != nil {
		// An event that cannot be masked is not written in full: its
		// input is erased.
		g.log.Warn("decision log mask failed; input erased", "error", err)
		event.Input, event.Erased = nil, []string{"/input"}
	}
	if g.opaLogs != nil {
		// OPA's decision log plugin uploads the event (masked here, and
		// again by the bundle's own system.log.mask if it has one).
		input, result := event.Input, event.Result
		m := opametrics.New()
		m.Counter("timer_gate_decision_ns").Add(uint64(took.Nanoseconds()))
		err := g.opaLogs.Log(ctx, &opaserver.Info{DecisionID: event.DecisionID, Path: event.Path, Timestamp: event.Timestamp,
			Input: &input, Results: &result, RemoteAddr: event.RequestedBy, Metrics: m,
			Bundles: map[string]opaserver.BundleInfo{"gate": {Revision: revision}}})
		g.metrics.DecisionLog(err == nil)
	}
	if l == nil {
		return
	}
	bs, err := json.Marshal(event)
	if err != nil {
		g.metrics.DecisionLogResult(LogError)
		g.log.Error("encoding a decision log event", "error", err)
		return
	}
	if !l.enqueue(append(bs, '\n')) {
		g.metrics.DecisionLogResult(LogDropped)
	}
}

type requesterKey struct{}

func toJSONMap(v any) (map[string]any, error) {
	bs, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(bs, &m)
}

// maskEvent applies the mask policy's results to the event.
func maskEvent(ctx context.Context, e *engine.Engine, ev *DecisionEvent) error {
	doc, err := toJSONMap(ev)
	if err != nil {
		return err
	}
	ops, err := e.Mask(ctx, doc)
	if err != nil {
		return err
	}
	for _, op := range ops {
		switch op := op.(type) {
		case string:
			if removePointer(doc, op) {
				ev.Erased = append(ev.Erased, op)
			}
		case map[string]any:
			path, _ := op["path"].(string)
			if op["op"] == "upsert" && setPointer(doc, path, op["value"]) {
				ev.Masked = append(ev.Masked, path)
			} else if op["op"] == "remove" && removePointer(doc, path) {
				ev.Erased = append(ev.Erased, path)
			}
		}
	}
	ev.Input, ev.Result = doc["input"], doc["result"]
	return nil
}

// pointer splits a JSON pointer (RFC 6901) into its tokens.
func pointer(p string) []string {
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

// walk returns the container holding a pointer's last token.
func walk(doc any, parts []string) (any, bool) {
	cur := doc
	for _, k := range parts {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, cur != nil
}

// parentOf returns the object holding the value a pointer names, and the
// value's key in it.
func parentOf(doc map[string]any, p string) (map[string]any, string, bool) {
	parts := pointer(p)
	if len(parts) == 0 {
		return nil, "", false
	}
	parent, ok := walk(doc, parts[:len(parts)-1])
	if !ok {
		return nil, "", false
	}
	m, isMap := parent.(map[string]any)
	return m, parts[len(parts)-1], isMap
}

func removePointer(doc map[string]any, p string) bool {
	m, key, ok := parentOf(doc, p)
	if !ok {
		return false
	}
	if _, present := m[key]; !present {
		return false
	}
	delete(m, key)
	return true
}

func setPointer(doc map[string]any, p string, v any) bool {
	m, key, ok := parentOf(doc, p)
	if ok {
		m[key] = v
	}
	return ok
}
