package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gate-dev/gate/engine"
)

// Tools are the tool label values; any other tool name counts as "other".
var Tools = engine.Tools

// Outcomes are the outcome label values of gate_tool_calls_total.
var Outcomes = []string{"ok", "failed", "signaled", "timeout", "cancelled", "background", "error", "denied"}

// Metrics are gate's collectors, registered in their own registry.
type Metrics struct {
	// Registry holds gate's metrics and the Go and process collectors.
	Registry *prometheus.Registry

	decisions        *prometheus.CounterVec
	decisionDuration *prometheus.HistogramVec
	toolCalls        *prometheus.CounterVec
	toolDuration     *prometheus.HistogramVec
	inflight         prometheus.Gauge
	background       prometheus.Gauge
	policyInfo       *prometheus.GaugeVec
	approvals        *prometheus.CounterVec
	sessionsOpen     prometheus.Gauge
	sessions         *prometheus.CounterVec
	reloads          *prometheus.CounterVec
	decisionLogs     *prometheus.CounterVec
}

// SessionOutcomes are the outcome label values of gate_sessions_total.
var SessionOutcomes = []string{"started", "exited", "killed", "idle", "failed"}

// ApprovalOutcomes are the outcome label values of gate_approvals_total.
var ApprovalOutcomes = []string{"approved", "denied", "timeout", "cancelled"}

// New creates the metrics in a new registry.
func New() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_decisions_total",
			Help: "Policy decisions by tool, decision (allow, deny, ask) and first reason code.",
		}, []string{"tool", "decision", "reason"}),
		decisionDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gate_decision_duration_seconds",
			Help:    "Time to decide one call: parsing, policy input and evaluation.",
			Buckets: []float64{25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 100e-3, 1},
		}, []string{"tool"}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_tool_calls_total",
			Help: "Tool calls by tool and outcome (ok, failed, signaled, timeout, cancelled, background, error, denied).",
		}, []string{"tool", "outcome"}),
		toolDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gate_tool_duration_seconds",
			Help:    "Time to run allowed tool calls, from start to result.",
			Buckets: []float64{1e-3, 5e-3, 10e-3, 50e-3, 100e-3, 500e-3, 1, 5, 10, 30, 60, 120, 300, 600},
		}, []string{"tool"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_inflight_calls",
			Help: "Tool calls being decided or run.",
		}),
		background: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_background_processes",
			Help: "Background process groups gate started that are still running.",
		}),
		approvals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_approvals_total",
			Help: "Answers to calls the policy asked about, by outcome (approved, denied, timeout, cancelled) and channel (api, elicitation).",
		}, []string{"outcome", "via"}),
		sessionsOpen: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_sessions_open",
			Help: "Interactive (pseudo-terminal) sessions whose command still runs.",
		}),
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_sessions_total",
			Help: "Interactive sessions started, and ended by outcome (exited, killed, idle, failed).",
		}, []string{"outcome"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_policy_reloads_total",
			Help: "Policy and settings reloads by result (ok: swapped in; error: refused, the last good policy kept).",
		}, []string{"result"}),
		decisionLogs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_decision_logs_total",
			Help: "Decision log events by result (written; error when one could not be written; dropped when the queue was full or its reader gone).",
		}, []string{"result"}),
		policyInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_policy_info",
			Help: "The policy revision in use (value 1).",
		}, []string{"revision"}),
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.decisions, m.decisionDuration, m.toolCalls, m.toolDuration, m.inflight, m.background, m.policyInfo, m.approvals, m.sessionsOpen, m.sessions, m.reloads, m.decisionLogs,
	)
	for _, r := range []string{"written", "error", "dropped"} {
		m.decisionLogs.WithLabelValues(r)
	}
	return m
}

// Tool bounds a tool name for use as a label.
func Tool(name string) string {
	if engine.KnownTool(name) {
		return name
	}
	return "other"
}

func outcome(o string) string {
	for _, x := range Outcomes {
		if x == o {
			return x
		}
	}
	return "error"
}

// Decision counts one decision; reason is the code of its first reason.
func (m *Metrics) Decision(tool, decision, reason string, took time.Duration) {
	switch decision {
	case engine.Allow, engine.Deny, engine.Ask:
	default:
		decision = engine.Deny
	}
	t := Tool(tool)
	m.decisions.WithLabelValues(t, decision, string(engine.Bounded(reason))).Inc()
	m.decisionDuration.WithLabelValues(t).Observe(took.Seconds())
}

// ToolCall counts one call's outcome; took is observed for calls that ran.
func (m *Metrics) ToolCall(tool, result string, took time.Duration) {
	t := Tool(tool)
	m.toolCalls.WithLabelValues(t, outcome(result)).Inc()
	if took > 0 {
		m.toolDuration.WithLabelValues(t).Observe(took.Seconds())
	}
}

// Approval counts one answer to an "ask".
func (m *Metrics) Approval(outcome, via string) {
	ok := false
	for _, o := range ApprovalOutcomes {
		ok = ok || o == outcome
	}
	if !ok {
		outcome = "cancelled"
	}
	if via != "elicitation" {
		via = "api"
	}
	m.approvals.WithLabelValues(outcome, via).Inc()
}

// SetSessionsOpen sets the number of running interactive sessions.
func (m *Metrics) SetSessionsOpen(n int) { m.sessionsOpen.Set(float64(n)) }

// Session counts a session started or ended.
func (m *Metrics) Session(outcome string) {
	for _, o := range SessionOutcomes {
		if o == outcome {
			m.sessions.WithLabelValues(o).Inc()
			return
		}
	}
	m.sessions.WithLabelValues("failed").Inc()
}

// Reload counts a policy reload: ok, or error (the old policy kept).
func (m *Metrics) Reload(ok bool) {
	if ok {
		m.reloads.WithLabelValues("ok").Inc()
	} else {
		m.reloads.WithLabelValues("error").Inc()
	}
}

// DecisionLog counts a decision log event written, or one that failed.
func (m *Metrics) DecisionLog(ok bool) {
	if ok {
		m.decisionLogs.WithLabelValues("written").Inc()
	} else {
		m.decisionLogs.WithLabelValues("error").Inc()
	}
}

// DecisionLogResult counts a decision log event by result: written,
// error (a failed write), dropped (the queue was full, or its reader gone).
func (m *Metrics) DecisionLogResult(result string) {
	m.decisionLogs.WithLabelValues(result).Inc()
}

// Inflight tracks a call in progress; call the returned function when it
// ends.
func (m *Metrics) Inflight() func() {
	m.inflight.Inc()
	return m.inflight.Dec
}

// SetBackground sets the number of running background process groups.
func (m *Metrics) SetBackground(n int) { m.background.Set(float64(n)) }

// SetPolicyRevision records the revision of the policies in use.
func (m *Metrics) SetPolicyRevision(revision string) {
	m.policyInfo.Reset()
	m.policyInfo.WithLabelValues(revision).Set(1)
}

// Handler serves the registry in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}
