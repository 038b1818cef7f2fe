package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gate-dev/gate/engine"
)

// TestMain makes the test binary act as gate when testscript scripts run
// the gate command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gate": func() {
			if c := os.Getenv("GATE_TEST_PANIC_ON"); c != "" {
				engine.SetParseHook(panicOn(c))
			}
			os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// panicOn returns a parse hook that panics on command as the parser did on
// sh +o (it read past argv), so that tests can check a parser bug is
// contained in every front end: $GATE_TEST_PANIC_ON sets it in the gate
// that tests run.
func panicOn(command string) func(string) {
	return func(c string) {
		if c == command {
			var argv []string
			_ = argv[len(c):]
		}
	}
}

// TestScripts runs the CLI scripts in testdata/script: each drives the gate
// command as a user would and checks its output and exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
	})
}
