// Package helper makes a binary act as the exec supervisor's helper: a
// blank import runs supervise.HelperMain and exits, from package
// initialisation, when os.Args[1] is supervise.HelperArg. Go initialises
// packages in import-path order as their dependencies allow, so this runs
// before the heavy packages of gate (OPA, OCI, Prometheus) initialise: a
// helper starts in a few milliseconds less than from main.
//
// The helper confines the command's tree before it starts it: Options.Confine
// (the JSON of a confine.Spec, empty for none) is applied with confine.Apply
// in HelperOptions.BeforeStart; if that fails, the command does not run.
package helper

import (
	"os"

	"github.com/gate-dev/gate/supervise"
)

func init() {
	if len(os.Args) > 1 && os.Args[1] == supervise.HelperArg {
		os.Exit(supervise.HelperMain(supervise.HelperOptions{BeforeStart: BeforeStart}))
	}
}
