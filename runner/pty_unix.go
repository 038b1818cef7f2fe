//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// startPTY starts cmd as the leader of a new session whose controlling
// terminal is a new pseudo-terminal of the given size.
func (ss *Sessions) startPTY(cmd *exec.Cmd, rows, cols int) (*os.File, error) {
	if ss.r.opts.NoPTY {
		return nil, errNoPTY
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	return pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
}

func setSize(f *os.File, rows, cols int) error {
	return pty.Setsize(f, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
}
