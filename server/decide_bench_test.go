package server

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/gate-dev/gate/server/loadtest"
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
			n, took := loadtest.Decide(b, srv.URL, "", tc.body)
			b.ReportMetric(float64(n)/took.Seconds()/float64(runtime.NumCPU()), "decisions/s/core")
		})
	}
}
