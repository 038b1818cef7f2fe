package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkDecideLoad is a load test of POST /v1/decide on loopback: as
// many clients as cores, each on a kept-alive connection, sending calls
// one after the other. "same" repeats one call (the decision cache answers
// it), "distinct" sends a different command each time (every call is
// evaluated). It reports decisions per second, per core of the machine
// (client and server share the cores):
//
//	go test ./server -run '^$' -bench DecideLoad -benchmem
func BenchmarkDecideLoad(b *testing.B) {
	for _, tc := range []struct {
		name string
		body func(i int64) string
	}{
		{"same", func(int64) string { return shell("git status --short") }},
		{"distinct", func(i int64) string { return shell(fmt.Sprintf("git status --short dir%d", i)) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			g := newGateway(b, yolo())
			srv := httptest.NewServer(NewHandler(g, HandlerOptions{}))
			defer srv.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: runtime.GOMAXPROCS(0)}
			defer tr.CloseIdleConnections()
			c := &http.Client{Transport: tr}
			var n atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := c.Post(srv.URL+"/v1/decide", "application/json", strings.NewReader(tc.body(n.Add(1))))
					if err != nil {
						b.Error(err)
						return
					}
					// Read to the end, so that the connection is kept.
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
			perSec := float64(n.Load()) / time.Since(start).Seconds()
			b.ReportMetric(perSec, "decisions/s")
			b.ReportMetric(perSec/float64(runtime.NumCPU()), "decisions/s/core")
		})
	}
}
