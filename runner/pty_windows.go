//go:build windows

package runner

import (
	"context"
	"github.com/gate-dev/gate/supervise"
	"io"
	"os"
	"os/exec"
)

// startPTY is not available on Windows: sessions run on pipes.
func (ss *Sessions) startPTY(*exec.Cmd, int, int) (*os.File, error) { return nil, errNoPTY }

func setSize(*os.File, int, int) error { return errNoPTY }

// Attach is not available on Windows.
func (r *Runner) Attach(context.Context, string, string, *os.File, io.Writer, ...supervise.Decider) (int, error) {
	return 0, errNoPTY
}
