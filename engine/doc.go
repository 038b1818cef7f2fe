// Package engine decides tool calls: it turns a call into the policy input
// (parsing shell commands with [shellparse], resolving paths with [fstools]),
// evaluates the Rego entrypoint data.gate.decision with OPA, and fails closed
// on anything but a well-formed decision.
package engine
