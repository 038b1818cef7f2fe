package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gate-dev/gate/engine"
)

// TestMain makes the test binary act as gate when testscript scripts run
// the gate command.
//
// The tests' gate processes keep their state (tokens, hook sockets) in a
// directory of the test run, not in the user's: the top-level process
// sets XDG_STATE_HOME, which the gate processes it starts inherit (scripts
// get testscript's own environment).
func TestMain(m *testing.M) {
	var tm testscript.TestingM = m
	if filepath.Base(os.Args[0]) != "gate" {
		dir, err := os.MkdirTemp("", "gate-test-state")
		if err != nil {
			panic(err)
		}
		os.Setenv("XDG_STATE_HOME", dir)
		tm = cleanupM{m, dir}
	}
	testscript.Main(tm, map[string]func(){
		"gate": func() {
			if c := os.Getenv("GATE_TEST_PANIC_ON"); c != "" {
				engine.SetParseHook(panicOn(c))
			}
			os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// cleanupM runs the tests, then removes their state directory.
type cleanupM struct {
	m   *testing.M
	dir string
}

func (c cleanupM) Run() int {
	defer os.RemoveAll(c.dir)
	return c.m.Run()
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
