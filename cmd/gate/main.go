// Command gate stands between AI coding agents and the machine: it parses
// each tool call, asks Rego policies for a decision and only then runs it.
// Run gate --help for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	// "gate __supervise" is the exec supervisor's helper: it runs from
	// this package's initialisation, before gate's heavy packages.
	_ "github.com/gate-dev/gate/supervise/helper"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
