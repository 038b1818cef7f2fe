//go:build linux

package supervise

import (
	"runtime"
	"runtime/debug"
	"testing"
)

var sink [][]byte

// The helper runs with the collector off (the tracer sleeps in a raw
// system call); collect must still run it once enough was allocated.
func TestCollectRunsTheCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	h := &helper{}
	h.allocs[0].Name = "/gc/heap/allocs:bytes"
	for range 256 {
		h.collect() // the baseline: the first check collects
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 256 {
		h.collect()
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumGC != before.NumGC {
		t.Fatalf("collected without allocating: %d collections, then %d", before.NumGC, after.NumGC)
	}
	for range gcEvery / (64 << 10) {
		sink = append(sink, make([]byte, 64<<10))
	}
	sink = nil
	for range 256 {
		h.collect()
	}
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Fatalf("no collection after %d bytes allocated", gcEvery)
	}
}
