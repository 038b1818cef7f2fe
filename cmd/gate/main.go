// Command gate stands between AI coding agents and the machine: it parses
// each tool call, asks Rego policies for a decision and only then runs it.
// Run gate --help for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/gate-dev/gate/supervise"
)

func main() {
	// The exec supervisor's helper: nothing else of gate runs in it.
	if len(os.Args) > 1 && os.Args[1] == supervise.HelperArg {
		os.Exit(supervise.HelperMain(supervise.HelperOptions{}))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
