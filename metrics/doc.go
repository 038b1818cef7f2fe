// Package metrics holds gate's Prometheus metrics in a private registry:
// decisions by tool, decision and reason, decision latency, tool calls by
// outcome and their duration, in-flight calls, background processes and the
// policy revision. Every label value comes from a bounded set.
package metrics
