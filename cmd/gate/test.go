package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
)

const testLong = `Run Rego unit tests (test_ rules in *_test.rego files) in the given
directories with OPA's tester; no opa binary is needed. The embedded default
policies and the --policy directories are loaded too, with the same data gate
decides with, so tests can exercise the defaults as well as your own rules.

Exits 0 when every test passed, 1 when one failed or none was found.`

func (a *app) testCommand() *cobra.Command {
	var opts engine.TestOptions
	cmd := &cobra.Command{
		Use:     "test [DIR]...",
		Short:   "Run Rego policy tests",
		Long:    testLong,
		Example: "  gate test policy_test\n  gate test --policy mypolicies mypolicies -v",
		RunE: func(cmd *cobra.Command, dirs []string) error {
			e, err := a.newEngine(cmd.Context(), dirs...)
			if err != nil {
				return err
			}
			pass, fail, err := e.RunTests(cmd.Context(), a.stdout, opts)
			if err != nil {
				return err
			}
			switch {
			case fail > 0:
				a.exit = 1
			case pass == 0:
				fmt.Fprintln(a.stderr, "gate: no tests found")
				a.exit = 1
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "list every test")
	cmd.Flags().StringVar(&opts.Run, "run", "", "run only tests whose name matches this `regexp`")
	return cmd
}
