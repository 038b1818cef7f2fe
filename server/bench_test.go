package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkCall measures a POST /v1/call round trip on loopback for
// "true": decode, decide, run bash -c true, encode:
//
//	go test ./server -run '^$' -bench Call -benchmem
func BenchmarkCall(b *testing.B) {
	for _, tc := range []struct{ name, path string }{{"call", "/v1/call"}, {"decide", "/v1/decide"}} {
		b.Run(tc.name, func(b *testing.B) {
			g := newGateway(b, yolo())
			srv := httptest.NewServer(NewHandler(g, HandlerOptions{}))
			defer srv.Close()
			c := srv.Client()
			body := shell("true")
			b.ReportAllocs()
			for b.Loop() {
				resp, err := c.Post(srv.URL+tc.path, "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}
