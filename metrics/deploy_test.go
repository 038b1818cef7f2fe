package metrics

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// registered returns the names of the metrics gate exports, histograms
// with their _bucket, _sum and _count series.
func registered(t *testing.T) map[string]bool {
	t.Helper()
	m := New()
	// Touch every vector so that it is exported.
	m.Decision("run_shell_command", "deny", "allowed", time.Millisecond)
	m.ToolCall("run_shell_command", "ok", time.Second)
	m.Approval("approved", "api")
	m.Session("started")
	m.Reload(true)
	m.DecisionLog(true)
	m.SetPolicyRevision("r")
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, mf := range mfs {
		names[mf.GetName()] = true
		if mf.GetType().String() == "HISTOGRAM" {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				names[mf.GetName()+s] = true
			}
		}
	}
	return names
}

var metricName = regexp.MustCompile(`\bgate_[a-z_]+\b`)

func checkExprs(t *testing.T, where string, exprs []string, names map[string]bool) {
	t.Helper()
	if len(exprs) == 0 {
		t.Fatalf("%s: no queries", where)
	}
	for _, e := range exprs {
		for _, n := range metricName.FindAllString(e, -1) {
			if !names[n] {
				t.Errorf("%s: %s queries %s, which gate does not export", where, e, n)
			}
		}
	}
}

func TestDashboard(t *testing.T) {
	bs, err := os.ReadFile("../deploy/grafana/gate-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(bs, &dash); err != nil {
		t.Fatalf("the dashboard is not valid JSON: %v", err)
	}
	names := registered(t)
	var exprs []string
	titles := map[string]bool{}
	for _, p := range dash.Panels {
		titles[p.Title] = true
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	checkExprs(t, "dashboard", exprs, names)
	for _, want := range []string{"Decisions by tool and reason", "Deny rate", "Decision latency", "Tool durations", "Policy reloads", "Approvals"} {
		if !titles[want] {
			t.Errorf("the dashboard has no %q panel", want)
		}
	}
}

func TestAlertRules(t *testing.T) {
	const file = "../deploy/prometheus/gate-alerts.yml"
	bs, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The expressions: every line of an expr block, or an inline expr.
	var exprs []string
	lines := strings.Split(string(bs), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if rest, ok := strings.CutPrefix(l, "expr:"); ok {
			e := strings.TrimSpace(rest)
			if e == "|" {
				e = ""
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "            ") {
					i++
					e += lines[i] + "\n"
				}
			}
			exprs = append(exprs, e)
		}
	}
	checkExprs(t, "alerts", exprs, registered(t))
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("SKIPPED: promtool is not installed, so promtool check rules did not run (.ci/run installs Debian's prometheus package)")
	}
	out, err := exec.Command(promtool, "check", "rules", file).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
}

// TestAlertRuleUnits runs the alert rules' unit tests with promtool, and
// checks that every alert has a case where it fires and one where it does
// not.
func TestAlertRuleUnits(t *testing.T) {
	const dir, rules, tests = "../deploy/prometheus", "gate-alerts.yml", "gate-alerts.test.yml"
	alerts := map[string]bool{}
	bs, err := os.ReadFile(dir + "/" + rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*- alert: (\w+)`).FindAllStringSubmatch(string(bs), -1) {
		alerts[m[1]] = true
	}
	bs, err = os.ReadFile(dir + "/" + tests)
	if err != nil {
		t.Fatal(err)
	}
	// Each "alertname:" line, and whether its case expects alerts.
	fires, quiet := map[string]bool{}, map[string]bool{}
	lines := strings.Split(string(bs), "\n")
	for i, l := range lines {
		name, ok := strings.CutPrefix(strings.TrimSpace(l), "alertname: ")
		if !ok || i+1 >= len(lines) {
			continue
		}
		if strings.TrimSpace(lines[i+1]) == "exp_alerts: []" {
			quiet[name] = true
		} else {
			fires[name] = true
		}
	}
	for a := range alerts {
		if !fires[a] || !quiet[a] {
			t.Errorf("alert %s needs a unit test where it fires (%v) and one where it does not (%v)", a, fires[a], quiet[a])
		}
	}
	if len(alerts) == 0 {
		t.Fatal("no alerts found")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("SKIPPED: promtool is not installed, so the alert rules' unit tests did not run (.ci/run installs Debian's prometheus package)")
	}
	cmd := exec.Command(promtool, "test", "rules", tests)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
}
