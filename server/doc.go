// Package server is gate's gateway: a Gateway decides each tool call with
// the engine, runs it with the runner only when the decision is allow, and
// counts both in the metrics; Handler serves it over HTTP (gate serve) with
// the dry-run, call, background-process, metrics and health endpoints.
package server
