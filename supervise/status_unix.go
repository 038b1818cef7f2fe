//go:build unix

package supervise

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// socketPair returns the parent's end (non-blocking, for the poller) and
// the helper's end of a new socket pair of type typ (SOCK_STREAM,
// SOCK_SEQPACKET).
func socketPair(typ int) (*os.File, *os.File, error) {
	// Under ForkLock, so that no child started meanwhile inherits them.
	syscall.ForkLock.RLock()
	fds, err := unix.Socketpair(unix.AF_UNIX, typ, 0)
	if err == nil {
		unix.CloseOnExec(fds[0])
		unix.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "supervise"), os.NewFile(uintptr(fds[1]), "supervise-helper"), nil
}

// statusOf converts a wait status from the helper.
func statusOf(ws int) Status {
	w := syscall.WaitStatus(ws)
	if w.Signaled() {
		return Status{ExitCode: -1, Signal: w.Signal()}
	}
	return Status{ExitCode: w.ExitStatus()}
}

func helperSignal(ps *os.ProcessState) syscall.Signal {
	if w, ok := ps.Sys().(syscall.WaitStatus); ok && w.Signaled() {
		return w.Signal()
	}
	return 0
}
