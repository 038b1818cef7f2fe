package engine

import (
	"context"
	"io"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestOptions configure a run of the Rego unit tests.
type TestOptions struct {
	// Run, when set, runs only tests whose name matches this regular
	// expression.
	Run string
	// Verbose lists every test, not only failures.
	Verbose bool
	// Timeout bounds each test; zero means 5s.
	Timeout time.Duration
}

// RunTests runs the test_ rules of the engine's policies (the embedded
// defaults and the policy directories) with OPA's tester, against the same
// data the engine decides with, and reports them to w as `opa test` does.
// It returns the number of tests that passed and of those that failed or
// errored.
func (e *Engine) RunTests(ctx context.Context, w io.Writer, opts TestOptions) (pass, fail int, err error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	r := tester.NewRunner().
		SetStore(e.store).
		SetDefaultRegoVersion(ast.RegoV1).
		SetTimeout(opts.Timeout).
		RaiseBuiltinErrors(true).
		SetModules(e.policies.Modules)
	if opts.Run != "" {
		r = r.Filter(opts.Run)
	}
	ch, err := r.RunTests(ctx, nil)
	if err != nil {
		return 0, 0, errorf(CodeBadPolicy, "compiling tests", err)
	}
	results := make(chan *tester.Result)
	done := make(chan error, 1)
	go func() {
		done <- tester.PrettyReporter{Output: w, Verbose: opts.Verbose, FailureLine: true}.Report(results)
	}()
	for res := range ch {
		if !res.Skip {
			if res.Pass() {
				pass++
			} else {
				fail++
			}
		}
		results <- res
	}
	close(results)
	return pass, fail, <-done
}
