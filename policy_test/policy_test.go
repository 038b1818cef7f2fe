// Package policy_test runs the Rego tests of gate's default policies (the
// *_test.rego files beside this one) with OPA's tester, as `gate test
// policy_test` does.
package policy_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/gate-dev/gate/engine"
)

func TestPolicies(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.Options{Root: t.TempDir(), PolicyDirs: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	pass, fail, err := e.RunTests(ctx, &out, engine.TestOptions{Verbose: testing.Verbose()})
	if err != nil {
		t.Fatal(err)
	}
	if fail > 0 || pass == 0 {
		t.Fatalf("%d passed, %d failed:\n%s", pass, fail, out.String())
	}
	t.Logf("%d Rego tests passed\n%s", pass, out.String())
}
