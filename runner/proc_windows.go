//go:build windows

package runner

import (
	"os/exec"
	"strconv"
	"syscall"
)

// shellCommand returns cmd.exe /c command in a new process group.
func shellCommand(command string) *exec.Cmd {
	cmd := exec.Command("cmd.exe", "/c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
	return cmd
}

// Windows has no signals for process trees: both end the tree with taskkill.
func terminateGroup(pid int) bool { return killGroup(pid) }

func killGroup(pid int) bool {
	if pid <= 0 {
		return false
	}
	return exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() == nil
}

func groupAlive(pid int) bool { return false }

func waitSignal(*exec.ExitError) int { return 0 }

// groupMembers is not available on Windows: no background PIDs are reported,
// as in the reference.
func groupMembers(int) []int { return nil }

// pidLive is only used for supervised trees, which need Linux.
func pidLive(int) bool { return false }
