// Package loadtest drives gate's HTTP API from benchmarks: as many clients
// as GOMAXPROCS, each on a kept-alive loopback connection, sending calls
// one after the other (server.BenchmarkDecideLoad in process,
// cmd/gate.BenchmarkServeLoad against a real gate serve).
package loadtest
