//go:build unix

package runner

import (
	"errors"
	"os/exec"
	"syscall"
)

// shellCommand returns bash -c command, in a process group of its own.
func shellCommand(command string) *exec.Cmd {
	cmd := exec.Command("bash", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// signalGroup sends sig to the process group pgid; it reports false when
// the group no longer exists.
func signalGroup(pgid int, sig syscall.Signal) bool {
	if pgid <= 0 {
		return false
	}
	err := syscall.Kill(-pgid, sig)
	return !errors.Is(err, syscall.ESRCH)
}

func terminateGroup(pgid int) bool { return signalGroup(pgid, syscall.SIGTERM) }

func killGroup(pgid int) bool { return signalGroup(pgid, syscall.SIGKILL) }

// groupAlive reports whether any process of the group still exists.
func groupAlive(pgid int) bool { return signalGroup(pgid, 0) }

// waitSignal returns the number of the signal that ended a process, or 0.
func waitSignal(state *exec.ExitError) int {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}
