package metrics

import (
	"net/http"
	"runtime"
	"runtime/debug"
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
	cacheResults     *prometheus.CounterVec
	cacheEntries     prometheus.Gauge
	parseResults     *prometheus.CounterVec
	parseEntries     prometheus.Gauge
	approvals        *prometheus.CounterVec
	sessionsOpen     prometheus.Gauge
	sessions         *prometheus.CounterVec
	sessionsRefused  *prometheus.CounterVec
	sessionsRemoved  *prometheus.CounterVec
	reloads          *prometheus.CounterVec
	decisionLogs     *prometheus.CounterVec
	execDecisions    *prometheus.CounterVec
	execDuration     prometheus.Histogram
	bundleLoads      *prometheus.CounterVec
	queued           *prometheus.GaugeVec
	queueWait        *prometheus.HistogramVec
	overloads        *prometheus.CounterVec
	approvalsPending prometheus.Gauge
	approvalBytes    prometheus.Gauge
	layers           *prometheus.GaugeVec
	httpRefusals     *prometheus.CounterVec
	bodyBytes        prometheus.Gauge
}

// Stages of work that wait for a slot (the stage label).
const (
	StageDecide = "decide"
	StageRun    = "run"
)

// Stages are the stage label values.
var Stages = []string{StageDecide, StageRun}

// StageBody is the stage of gate_overload_total for request bodies refused
// because the bodies held at once would be over --max-body-inflight
// (cause OverloadBodyBytes).
const (
	StageBody         = "body"
	OverloadBodyBytes = "body_bytes"
)

// Why a request was answered overloaded (the cause label of
// gate_overload_total).
const (
	OverloadQueueFull    = "queue_full"
	OverloadQueueTimeout = "queue_timeout"
)

// OverloadCauses are the cause label values.
var OverloadCauses = []string{OverloadQueueFull, OverloadQueueTimeout}

// BundleResults are the result label values of gate_bundle_loads_total:
// activated, refused (a bundle that cannot be verified, read, activated or
// compiled; the last good policy keeps deciding) or unavailable (the
// bundle server could not be reached or answered an error status).
var BundleResults = []string{"activated", "refused", "unavailable"}

// DecisionReasons are the reason codes gate's policies and engine give
// first: every decision × reason pair is exported from the start (at 0).
var DecisionReasons = map[string][]engine.Code{
	engine.Allow: {engine.CodeAllowed, engine.CodeCustom},
	engine.Ask: {engine.CodeApprovalRequired, engine.CodePathSensitive, engine.CodePathOutsideRoot, engine.CodePathUnknown,
		engine.CodeCommandReview, engine.CodeCommandEquivalent, engine.CodeCustom},
	engine.Deny: {engine.CodeToolUnknown, engine.CodeToolNotEnabled, engine.CodeToolExcluded, engine.CodeShellDisabled,
		engine.CodeParseError, engine.CodeCommandExcluded, engine.CodeCommandNotAllowed, engine.CodeCommandUnprovable,
		engine.CodeCommandReview, engine.CodeCommandEquivalent, engine.CodePathProtected, engine.CodePathSensitive,
		engine.CodePathOutsideRoot, engine.CodePathUnknown, engine.CodeCommandTooComplex, engine.CodeApprovalUnavailable,
		engine.CodePolicyError, engine.CodePolicyUndefined, engine.CodeEvalTimeout, engine.CodeInternal,
		engine.CodeRemoteUnavailable, engine.CodeBadSettings, engine.CodeBadPolicy, engine.CodeInvalidCall,
		engine.CodeLimitReached, engine.CodeCustom},
}

// HTTPRefusals are the code label values of gate_http_refusals_total:
// requests the HTTP API refused at its boundary (token, Host, Origin,
// content type, body) or for want of capacity, before or instead of a
// decision. Other error codes (invalid_call, not_found) are not counted.
var HTTPRefusals = []engine.Code{engine.CodeUnauthorized, engine.CodeHostNotAllowed, engine.CodeOriginNotAllowed,
	engine.CodeUnsupportedMediaType, engine.CodeRequestTimeout, engine.CodeHeadersTooLarge, engine.CodeRequestTooLarge,
	engine.CodeOverloaded, engine.CodeLimitReached, engine.CodeSessionsDisabled, engine.CodeNotReady}

// SessionOutcomes are the outcome label values of gate_sessions_total.
var SessionOutcomes = []string{"started", "exited", "killed", "idle", "failed"}

// SessionRefusals are the reason label values of gate_sessions_refused_total:
// sessions off, or a limit reached (the flag that sets it).
var SessionRefusals = []string{"disabled", "max-sessions", "max-session-cells"}

// SessionRemovals are the reason label values of gate_sessions_removed_total.
var SessionRemovals = []string{"deleted", "expired", "evicted"}

// ApprovalOutcomes are the outcome label values of gate_approvals_total
// (refused: the pending approvals were full, the call was denied at once).
var ApprovalOutcomes = []string{"approved", "denied", "timeout", "cancelled", "refused"}

// ApprovalChannels are the via label values of gate_approvals_total.
var ApprovalChannels = []string{"api", "elicitation"}

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
			Help: "Answers to calls the policy asked about, by outcome (approved, denied, timeout, cancelled; refused when the pending approvals were full) and channel (api, elicitation).",
		}, []string{"outcome", "via"}),
		sessionsOpen: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_sessions_open",
			Help: "Interactive (pseudo-terminal) sessions whose command still runs.",
		}),
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_sessions_total",
			Help: "Interactive sessions started, and ended by outcome (exited, killed, idle, failed).",
		}, []string{"outcome"}),
		sessionsRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_sessions_refused_total",
			Help: "Sessions refused before the policy was asked, by reason (disabled, max-sessions, max-session-cells; resizes over max-session-cells too).",
		}, []string{"reason"}),
		sessionsRemoved: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_sessions_removed_total",
			Help: "Sessions forgotten, with their screens, by reason (deleted; expired or evicted once ended).",
		}, []string{"reason"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_policy_reloads_total",
			Help: "Policy and settings reloads by result (ok: swapped in; error: refused, the last good policy kept).",
		}, []string{"result"}),
		decisionLogs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_decision_logs_total",
			Help: "Decision log events by result (written; error when one could not be written; dropped when the queue was full or its reader gone).",
		}, []string{"result"}),
		bundleLoads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_bundle_loads_total",
			Help: "OPA bundle loads by result (activated; refused: unverifiable, unreadable or not compiling, the last good policy kept; unavailable: the bundle server failed).",
		}, []string{"result"}),
		queued: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_queue_length",
			Help: "Requests waiting for a slot, by stage (decide: policy evaluation; run: running an allowed call).",
		}, []string{"stage"}),
		queueWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gate_queue_wait_seconds",
			Help:    "Time a request waited for a slot, by stage (decide, run).",
			Buckets: []float64{0, 100e-6, 1e-3, 10e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1, 2.5, 5, 10, 30},
		}, []string{"stage"}),
		overloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_overload_total",
			Help: "Requests answered overloaded (503), by stage (decide, run) and cause (queue_full, queue_timeout).",
		}, []string{"stage", "cause"}),
		approvalsPending: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_approvals_pending",
			Help: "Calls waiting for a human's answer in the approvals API.",
		}),
		approvalBytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_approvals_pending_bytes",
			Help: "Bytes of arguments and changes the calls waiting for approval hold.",
		}),
		execDecisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_exec_decisions_total",
			Help: "Exec-time decisions on programs supervised commands were about to run, by decision and first reason code.",
		}, []string{"decision", "reason"}),
		execDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "gate_exec_decision_duration_seconds",
			Help:    "Time to decide one exec of a supervised command (facts and evaluation; an approval's wait excluded).",
			Buckets: []float64{25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 100e-3, 1},
		}),
		layers: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_enforcement_layer",
			Help: "Whether an enforcement layer (static, exec, fs) is active around the commands gate runs: 1 active, 0 not.",
		}, []string{"layer"}),
		httpRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_http_refusals_total",
			Help: "HTTP requests refused with an error code, by code (unauthorized, host_not_allowed, origin_not_allowed, unsupported_media_type, request_timeout, headers_too_large, request_too_large, overloaded, limit_reached, sessions_disabled, not_ready).",
		}, []string{"code"}),
		bodyBytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_request_body_bytes",
			Help: "Bytes of request bodies being read or held by requests in progress, bounded by --max-body-inflight.",
		}),
		cacheResults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_decision_cache_total",
			Help: "Decision cache lookups and evictions, by result: hit, miss, bypass (an input too large to keep), evict (a miss that pushed out the least recently used entry).",
		}, []string{"result"}),
		cacheEntries: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_decision_cache_entries",
			Help: "Decisions the decision cache holds (emptied on every policy reload).",
		}),
		parseResults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_parse_cache_total",
			Help: "Parse cache lookups and evictions, by result: hit, miss, bypass (a command too long to keep), evict (a miss that pushed out the least recently used entry).",
		}, []string{"result"}),
		parseEntries: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_parse_cache_entries",
			Help: "Parsed commands the parse cache holds (emptied on every policy reload).",
		}),
		policyInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_policy_info",
			Help: "The policy revision in use (value 1).",
		}, []string{"revision"}),
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.decisions, m.decisionDuration, m.toolCalls, m.toolDuration, m.inflight, m.background, m.policyInfo, m.approvals, m.sessionsOpen, m.sessions, m.reloads, m.decisionLogs,
		m.sessionsRefused, m.sessionsRemoved,
		m.execDecisions, m.execDuration,
		m.bundleLoads, m.queued, m.queueWait, m.overloads, m.approvalsPending, m.approvalBytes, m.layers,
		m.httpRefusals, m.bodyBytes, m.cacheResults, m.cacheEntries, m.parseResults, m.parseEntries,
	)
	m.Registry.MustRegister(buildInfo())
	m.zero()
	return m
}

// buildInfo is gate_build_info{version,revision,goversion} 1, from the
// binary's build information (as gate version prints it).
func buildInfo() prometheus.Collector {
	version, revision := "devel", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gate_build_info",
		Help: "gate's build: version, VCS revision and Go version (value 1).",
	}, []string{"version", "revision", "goversion"})
	g.WithLabelValues(version, revision, runtime.Version()).Set(1)
	return g
}

// zero exports every counter at 0 for each known label value, so that
// increase() sees the first event, and the queue series from the start.
func (m *Metrics) zero() {
	for d, reasons := range DecisionReasons {
		for _, r := range reasons {
			m.execDecisions.WithLabelValues(d, string(r))
		}
	}
	for _, t := range Tools {
		for d, reasons := range DecisionReasons {
			for _, r := range reasons {
				m.decisions.WithLabelValues(t, d, string(r))
			}
		}
		for _, o := range Outcomes {
			m.toolCalls.WithLabelValues(t, o)
		}
	}
	m.toolCalls.WithLabelValues("other", "error")
	for _, r := range engine.CacheResults {
		m.cacheResults.WithLabelValues(r)
		m.parseResults.WithLabelValues(r)
	}
	for _, o := range ApprovalOutcomes {
		for _, v := range ApprovalChannels {
			m.approvals.WithLabelValues(o, v)
		}
	}
	for _, o := range SessionOutcomes {
		m.sessions.WithLabelValues(o)
	}
	for _, r := range SessionRefusals {
		m.sessionsRefused.WithLabelValues(r)
	}
	for _, r := range SessionRemovals {
		m.sessionsRemoved.WithLabelValues(r)
	}
	for _, r := range []string{"ok", "error"} {
		m.reloads.WithLabelValues(r)
	}
	for _, r := range []string{"written", "error", "dropped"} {
		m.decisionLogs.WithLabelValues(r)
	}
	for _, r := range BundleResults {
		m.bundleLoads.WithLabelValues(r)
	}
	m.SetLayers([]string{"static"})
	for _, c := range HTTPRefusals {
		m.httpRefusals.WithLabelValues(string(c))
	}
	m.overloads.WithLabelValues(StageBody, OverloadBodyBytes)
	for _, s := range Stages {
		m.queued.WithLabelValues(s)
		m.queueWait.WithLabelValues(s)
		for _, c := range OverloadCauses {
			m.overloads.WithLabelValues(s, c)
		}
	}
}

// Layers are the enforcement layers gate_enforcement_layer reports.
var Layers = []string{"static", "exec", "fs"}

// SetLayers sets gate_enforcement_layer: 1 for each layer in active, 0 for
// the others.
func (m *Metrics) SetLayers(active []string) {
	for _, l := range Layers {
		v := 0.0
		for _, a := range active {
			if a == l {
				v = 1
			}
		}
		m.layers.WithLabelValues(l).Set(v)
	}
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
	if via != "elicitation" { // one of ApprovalChannels
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

// SessionRefused counts a session (or a resize) refused before the policy
// was asked; unknown reasons count as "disabled".
func (m *Metrics) SessionRefused(reason string) {
	m.sessionsRefused.WithLabelValues(bounded(reason, SessionRefusals)).Inc()
}

// SessionRemoved counts a session forgotten; unknown reasons count as
// "deleted".
func (m *Metrics) SessionRemoved(reason string) {
	m.sessionsRemoved.WithLabelValues(bounded(reason, SessionRemovals)).Inc()
}

// bounded returns v when it is one of values, values[0] otherwise.
func bounded(v string, values []string) string {
	for _, x := range values {
		if x == v {
			return v
		}
	}
	return values[0]
}

// ExecDecision counts one exec-time decision; reason is the code of its
// first reason.
func (m *Metrics) ExecDecision(decision, reason string, took time.Duration) {
	switch decision {
	case engine.Allow, engine.Deny, engine.Ask:
	default:
		decision = engine.Deny
	}
	m.execDecisions.WithLabelValues(decision, string(engine.Bounded(reason))).Inc()
	m.execDuration.Observe(took.Seconds())
}

// CacheResult counts one decision cache result (engine.CacheObserver).
func (m *Metrics) CacheResult(result string) {
	m.cacheResults.WithLabelValues(bounded(result, engine.CacheResults)).Inc()
}

// CacheEntries sets the decision cache's size (engine.CacheObserver).
func (m *Metrics) CacheEntries(n int) { m.cacheEntries.Set(float64(n)) }

// ParseCache is the engine.CacheObserver of the parse cache.
func (m *Metrics) ParseCache() engine.CacheObserver { return parseCacheObserver{m} }

type parseCacheObserver struct{ m *Metrics }

func (o parseCacheObserver) CacheResult(result string) {
	o.m.parseResults.WithLabelValues(bounded(result, engine.CacheResults)).Inc()
}

func (o parseCacheObserver) CacheEntries(n int) { o.m.parseEntries.Set(float64(n)) }

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

// BundleLoad counts a bundle load by result (one of BundleResults); ""
// counts nothing.
func (m *Metrics) BundleLoad(result string) {
	if result == "" {
		return
	}
	for _, r := range BundleResults {
		if r == result {
			m.bundleLoads.WithLabelValues(r).Inc()
			return
		}
	}
	m.bundleLoads.WithLabelValues("refused").Inc()
}

// SetQueued sets the number of requests waiting for a slot of a stage.
func (m *Metrics) SetQueued(stage string, n int) { m.queued.WithLabelValues(stage).Set(float64(n)) }

// QueueWait observes how long a request waited for a slot of a stage.
func (m *Metrics) QueueWait(stage string, took time.Duration) {
	m.queueWait.WithLabelValues(stage).Observe(took.Seconds())
}

// Overload counts a request answered overloaded.
func (m *Metrics) Overload(stage, cause string) { m.overloads.WithLabelValues(stage, cause).Inc() }

// SetBodyBytes sets the bytes of request bodies held at once.
func (m *Metrics) SetBodyBytes(n int64) { m.bodyBytes.Set(float64(n)) }

// HTTPRefusal counts a request the HTTP API refused with code; codes that
// are not HTTPRefusals count nothing.
func (m *Metrics) HTTPRefusal(code engine.Code) {
	for _, c := range HTTPRefusals {
		if c == code {
			m.httpRefusals.WithLabelValues(string(c)).Inc()
			return
		}
	}
}

// SetApprovalsPending sets the number of calls waiting for approval and
// the bytes they hold.
func (m *Metrics) SetApprovalsPending(n int, bytes int64) {
	m.approvalsPending.Set(float64(n))
	m.approvalBytes.Set(float64(bytes))
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
