package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/server/loadtest"
)

// BenchmarkServeLoad is the load test of POST /v1/decide against a real
// gate serve process on loopback: as many clients as cores, each on a
// kept-alive connection, sending calls one after the other. "same" repeats
// one call (the decision cache answers it), "distinct" sends a different
// command each time (every call is evaluated). Besides decisions per
// second of wall time (clients and server share the cores), it reports
// decisions per second of the server process's own CPU time (user and
// system, from /proc/PID/stat): what one core given to gate serve holds.
//
//	go test ./cmd/gate -run '^$' -bench ServeLoad -benchtime 5s
func BenchmarkServeLoad(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("SKIPPED: no /proc/PID/stat on this system to read the server's CPU time")
	}
	gate := buildGate(b)
	root, state := b.TempDir(), b.TempDir()
	settings := filepath.Join(root, "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"], "approvalMode": "yolo"}}`), 0o644)
	addr := freeAddr(b)
	serve := exec.Command(gate, "serve", "--listen", addr, "--root", root, "--settings", settings)
	serve.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + state, "XDG_STATE_HOME=" + state}
	if err := serve.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { serve.Process.Signal(syscall.SIGTERM); serve.Wait() }()
	url := "http://" + addr
	for i := 0; ; i++ {
		if resp, err := http.Get(url + "/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		if i > 1500 {
			b.Fatal("gate serve did not answer /readyz")
		}
		time.Sleep(20 * time.Millisecond)
	}
	tok, err := os.ReadFile(filepath.Join(state, "gate", "token"))
	if err != nil {
		b.Fatal(err)
	}
	token := strings.TrimSpace(string(tok))
	body := func(command string) string {
		return `{"tool": "run_shell_command", "args": {"command": ` + strconv.Quote(command) + `, "is_background": false}}`
	}
	for _, tc := range []struct {
		name string
		body func(i int64) string
	}{
		{"same", func(int64) string { return body("git status --short") }},
		{"distinct", func(i int64) string { return body(fmt.Sprintf("git status --short dir%d", i)) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cpu0 := cpuTime(b, serve.Process.Pid)
			n, _ := loadtest.Decide(b, url, token, tc.body)
			if cpu := cpuTime(b, serve.Process.Pid) - cpu0; cpu > 0 {
				b.ReportMetric(float64(n)/cpu.Seconds(), "decisions/server-cpu-s")
			}
		})
	}
}

// cpuTime is the user and system CPU time of a process so far, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s: Linux's
// USER_HZ).
func cpuTime(b *testing.B, pid int) time.Duration {
	bs, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	fields := strings.Fields(string(bs[strings.LastIndexByte(string(bs), ')')+1:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("cannot read CPU time from /proc/%d/stat: %q", pid, bs)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
