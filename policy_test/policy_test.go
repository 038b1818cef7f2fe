// Package policy_test holds the Rego unit tests of gate's default policies
// (the *_test.rego files beside this one) and runs them with the engine's
// tester, as `gate test policy_test` does, one Go subtest per Rego test.
package policy_test

import (
	"bufio"
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/gate-dev/gate/engine"
)

// resultLine is a test's line in the tester's verbose report:
// "data.gate_test.shell.test_x: PASS (1.2ms)".
var resultLine = regexp.MustCompile(`^(data\.\S+): (PASS|FAIL|ERROR|SKIPPED)\b`)

func TestPolicies(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.Options{Root: t.TempDir(), PolicyDirs: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	pass, fail, err := e.RunTests(ctx, &out, engine.TestOptions{Verbose: true})
	if err != nil {
		t.Fatal(err)
	}
	names, outcomes := parseReport(out.String())
	switch {
	case len(names) == 0 || pass+fail == 0:
		t.Fatalf("no Rego tests found in policy_test:\n%s", out.String())
	case len(names) < pass+fail:
		t.Fatalf("the report names %d tests, the tester ran %d:\n%s", len(names), pass+fail, out.String())
	}
	for _, name := range names {
		t.Run(strings.TrimPrefix(name, "data."), func(t *testing.T) {
			switch outcomes[name] {
			case "PASS":
			case "SKIPPED":
				t.Skip("todo_ test")
			default:
				t.Errorf("%s: %s\n%s", name, outcomes[name], explain(ctx, t, e, name))
			}
		})
	}
	t.Logf("%d Rego tests passed, %d failed", pass, fail)
}

// parseReport returns the tests of a verbose report in order, and the
// outcome of each.
func parseReport(report string) ([]string, map[string]string) {
	var names []string
	outcomes := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(report))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := resultLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if _, seen := outcomes[m[1]]; !seen {
			names = append(names, m[1])
			outcomes[m[1]] = m[2]
		}
	}
	return names, outcomes
}

// explain runs one failed test again, with tracing, over the modules and
// data the engine tests with (engine.RunTests does not trace), and returns
// its report: the expression that failed with its variables, and with -v
// the whole trace.
func explain(ctx context.Context, t *testing.T, e *engine.Engine, name string) string {
	pol, err := engine.LoadPolicies([]string{"."})
	if err != nil {
		t.Fatal(err)
	}
	gate, _ := pol.Documents["gate"].(map[string]any)
	if gate == nil {
		t.Fatal("no data.gate in the policies")
	}
	gate["settings"] = e.SettingsData()
	ch, err := tester.NewRunner().
		SetStore(inmem.NewFromObject(pol.Documents)).
		SetDefaultRegoVersion(ast.RegoV1).
		RaiseBuiltinErrors(true).
		EnableTracing(true).
		SetModules(pol.Modules).
		Filter("^"+regexp.QuoteMeta(name)+"$").
		RunTests(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r := tester.PrettyReporter{Output: &out, Verbose: testing.Verbose(), FailureLine: true, LocalVars: true}
	if err := r.Report(ch); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
