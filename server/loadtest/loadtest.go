package loadtest

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Decide posts b.N calls to url's /v1/decide from parallel clients: body
// gives the i-th call's JSON, token (when set) is sent as a bearer token.
// It fails the benchmark on any answer but 200, reports decisions per
// second of wall time, and returns how many decisions were made and how
// long they took.
func Decide(b *testing.B, url, token string, body func(i int64) string) (int64, time.Duration) {
	tr := &http.Transport{MaxIdleConnsPerHost: runtime.GOMAXPROCS(0)}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, err := http.NewRequest(http.MethodPost, url+"/v1/decide", strings.NewReader(body(n.Add(1))))
			if err != nil {
				b.Error(err)
				return
			}
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := c.Do(req)
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
	took := time.Since(start)
	b.ReportMetric(float64(n.Load())/took.Seconds(), "decisions/s")
	return n.Load(), took
}
