package server

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gate-dev/gate/metrics"
)

func TestSessionsOverHTTP(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	srv := newServer(t, g, HandlerOptions{})
	c := srv.Client()

	r := post(t, c, srv.URL+"/v1/sessions", `{"command":"read -p \"Name? \" n; echo \"hi $n\"","rows":10,"cols":40}`)
	if r.status != 201 || at(r.body, "session", "pty") != true {
		t.Fatalf("start: %d %v", r.status, r.body)
	}
	id := at(r.body, "session", "id").(string)
	var screen response
	for i := 0; i < 300; i++ {
		if screen = get(t, c, srv.URL+"/v1/sessions/"+id); strings.Contains(screen.body["text"].(string), "Name?") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if screen.body["rows"] != 10.0 || screen.body["running"] != true {
		t.Fatalf("screen: %v", screen.body)
	}
	if r := post(t, c, srv.URL+"/v1/sessions/"+id+"/input", `{"text":"gate","keys":["Enter"]}`); r.status != 200 {
		t.Fatalf("input: %d %v", r.status, r.body)
	}
	r = post(t, c, srv.URL+"/v1/sessions/"+id+"/wait", `{"timeout_ms":5000}`)
	if r.body["running"] != false || r.body["exit_code"] != 0.0 || !strings.Contains(r.body["text"].(string), "hi gate") {
		t.Fatalf("wait: %v", r.body)
	}
	if r := post(t, c, srv.URL+"/v1/sessions/"+id+"/input", `{"keys":["Hyper-Q"]}`); r.status != 400 {
		t.Fatalf("input after the end: %d", r.status)
	}

	// The policy gates sessions like any command.
	if r := post(t, c, srv.URL+"/v1/sessions", `{"command":"vim x; rm -rf y"}`); r.status != 403 || at(r.body, "decision", "decision") != "deny" {
		t.Fatalf("denied session: %d %v", r.status, r.body)
	}
	if r := post(t, c, srv.URL+"/v1/sessions", `{"command":"ls","directory":"../.."}`); r.status != 400 {
		t.Fatalf("directory escape: %d %v", r.status, r.body)
	}

	// Killing ends a running session.
	r = post(t, c, srv.URL+"/v1/sessions", `{"command":"sleep 100"}`)
	id2 := at(r.body, "session", "id").(string)
	if r := do(t, c, mustRequest(t, "DELETE", srv.URL+"/v1/sessions/"+id2)); r.status != 200 || r.body["running"] != false || r.body["ended"] != "killed" {
		t.Fatalf("kill: %d %v", r.status, r.body)
	}
	if r := get(t, c, srv.URL+"/v1/sessions/"+id2); r.status != 404 {
		t.Fatalf("killed session still listed: %d", r.status)
	}
	want := `
# HELP gate_sessions_open Interactive (pseudo-terminal) sessions whose command still runs.
# TYPE gate_sessions_open gauge
gate_sessions_open 0
# HELP gate_sessions_total Interactive sessions started, and ended by outcome (exited, killed, idle, failed).
# TYPE gate_sessions_total counter
gate_sessions_total{outcome="exited"} 1
gate_sessions_total{outcome="killed"} 1
gate_sessions_total{outcome="started"} 2
`
	if err := testutil.GatherAndCompare(metrics.NonZero(g.Metrics().Registry), strings.NewReader(want), "gate_sessions_open", "gate_sessions_total"); err != nil {
		t.Fatal(err)
	}
}
