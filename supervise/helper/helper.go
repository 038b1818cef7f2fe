// Package helper makes a binary act as the exec supervisor's helper: a
// blank import runs supervise.HelperMain and exits, from package
// initialisation, when os.Args[1] is supervise.HelperArg. Go initialises
// packages in import-path order as their dependencies allow, so this runs
// before the heavy packages of gate (OPA, OCI, Prometheus) initialise: a
// helper starts in a few milliseconds less than from main.
//
// The filesystem confinement hook (HelperOptions.BeforeStart) belongs
// here: import its package from this one and pass it below.
package helper

import (
	"os"

	"github.com/gate-dev/gate/supervise"
)

func init() {
	if len(os.Args) > 1 && os.Args[1] == supervise.HelperArg {
		os.Exit(supervise.HelperMain(supervise.HelperOptions{}))
	}
}
