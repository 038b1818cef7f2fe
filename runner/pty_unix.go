//go:build unix

package runner

import (
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/supervise"
)

// startPTY starts cmd as the leader of a new session whose controlling
// terminal is a new pseudo-terminal of the given size.
func (ss *Sessions) startPTY(cmd *exec.Cmd, rows, cols int) (*os.File, error) {
	if ss.r.opts.NoPTY {
		return nil, errNoPTY
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if ss.r.confineSpec != nil {
		cmd.SysProcAttr = confine.SysProcAttr(cmd.SysProcAttr)
	}
	return pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
}

func setSize(f *os.File, rows, cols int) error {
	return pty.Setsize(f, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
}

// Attach runs a command in a new pseudo-terminal wired to the caller's
// terminal (in and out), as a person would run it: raw input, the window
// size followed. It returns the command's exit status (128+N for signal N).
// Under supervision, d (or the runner's default decider) decides its execs.
func (r *Runner) Attach(ctx context.Context, command, directory string, in *os.File, out io.Writer, d ...supervise.Decider) (int, error) {
	dir, err := r.Dir(directory)
	if err != nil {
		return 0, err
	}
	if err := r.checkLayers(); err != nil {
		return 0, err
	}
	var dec supervise.Decider
	if len(d) > 0 {
		dec = d[0]
	}
	if dec, err = r.decider(dec); err != nil {
		return 0, err
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = r.ptyEnv()
	tree, err := r.supervised(cmd, dec)
	if err != nil {
		return 0, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if r.confineSpec != nil {
		cmd.SysProcAttr = confine.SysProcAttr(cmd.SysProcAttr)
	}
	ptmx, err := pty.Start(cmd)
	if err != nil {
		if tree != nil {
			tree.Close()
		}
		return 0, err
	}
	defer ptmx.Close()
	if tree != nil {
		if err := tree.Attach(); err != nil {
			return 0, err
		}
	}
	g := group{pgid: cmd.Process.Pid, t: tree}
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
	type waitResult struct {
		st  supervise.Status
		err error
	}
	waited := make(chan waitResult, 1)
	go func() {
		st, err := waitStatus(cmd, tree)
		waited <- waitResult{st, err}
	}()
	var w waitResult
	select {
	case w = <-waited:
	case <-ctx.Done():
		go g.stop(r.opts.KillGrace)
		w = <-waited
	}
	select {
	case <-copied:
	case <-time.After(200 * time.Millisecond):
	}
	if g.alive() {
		g.kill()
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.st.Signal != 0 {
		return 128 + int(w.st.Signal), nil
	}
	return w.st.ExitCode, nil
}
