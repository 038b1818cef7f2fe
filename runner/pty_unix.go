//go:build unix

package runner

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
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

// Attach runs a command in a new pseudo-terminal wired to the caller's
// terminal (in and out), as a person would run it: raw input, the window
// size followed. It returns the command's exit status (128+N for signal N).
func (r *Runner) Attach(ctx context.Context, command, directory string, in *os.File, out io.Writer) (int, error) {
	dir, err := r.Dir(directory)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = r.ptyEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	ptmx, err := pty.Start(cmd)
	if err != nil {
		return 0, err
	}
	defer ptmx.Close()
	if term.IsTerminal(int(in.Fd())) {
		_ = pty.InheritSize(in, ptmx)
		winch := make(chan os.Signal, 1)
		signal.Notify(winch, syscall.SIGWINCH)
		defer signal.Stop(winch)
		go func() {
			for range winch {
				_ = pty.InheritSize(in, ptmx)
			}
		}()
		if old, err := term.MakeRaw(int(in.Fd())); err == nil {
			defer term.Restore(int(in.Fd()), old)
		}
	}
	go func() { _, _ = io.Copy(ptmx, in) }()
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(out, ptmx); close(copied) }()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-waited:
	case <-ctx.Done():
		terminateGroup(cmd.Process.Pid)
		time.AfterFunc(r.opts.KillGrace, func() { killGroup(cmd.Process.Pid) })
		werr = <-waited
	}
	select {
	case <-copied:
	case <-time.After(200 * time.Millisecond):
	}
	if groupAlive(cmd.Process.Pid) {
		killGroup(cmd.Process.Pid)
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if sig := waitSignal(ee); sig != 0 {
			return 128 + sig, nil
		}
		return ee.ExitCode(), nil
	}
	if werr != nil {
		return 0, werr
	}
	return 0, nil
}
