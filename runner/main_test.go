package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/gate-dev/gate/supervise"
	// The test binary is its own supervisor helper, confinement included.
	_ "github.com/gate-dev/gate/supervise/helper"
)

// bare runs the runner's tests without the supervisor (GATE_TEST_BARE=1);
// by default every test runner supervises its commands where this machine
// can, as gate does.
var bare = os.Getenv("GATE_TEST_BARE") != ""

func allowAll(context.Context, supervise.Exec) supervise.Verdict {
	return supervise.Verdict{Allow: true}
}

// defaultSupervision is the supervision of test runners: every exec
// allowed, no confinement; nil where supervision is not available or
// GATE_TEST_BARE is set.
func defaultSupervision(t testing.TB) *Supervision {
	if bare {
		return nil
	}
	if ok, _ := supervise.Available(); !ok {
		return nil
	}
	return &Supervision{Self: self(t), Default: allowAll}
}

func self(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func execCommand(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}
