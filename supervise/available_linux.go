//go:build linux

package supervise

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

var probe = sync.OnceValues(probeTrace)

// Available reports whether this process can supervise commands: it
// starts a short probe process and takes it through the helper's steps
// (PTRACE_TRACEME, detach, PTRACE_SEIZE with the options). Yama's
// ptrace_scope 3, a seccomp filter, a container without CAP_SYS_PTRACE
// where needed, or gate itself being traced make it false, with a reason.
// The answer is computed once.
func Available() (bool, string) { return probe() }

func probeTrace() (bool, string) {
	if b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope"); err == nil && strings.TrimSpace(string(b)) == "3" {
		return false, "ptrace is disabled (kernel.yama.ptrace_scope = 3)"
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "TracerPid:"); ok && strings.TrimSpace(v) != "0" {
				return false, "gate is itself traced by process " + strings.TrimSpace(v)
			}
		}
	}
	if _, err := seccompABIs(); err != nil {
		return false, err.Error()
	}
	action := uint32(unix.SECCOMP_RET_ERRNO)
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action))); e != 0 {
		// the filter that keeps every process in the tree
		// (seccomp_linux.go) cannot be installed
		return false, "seccomp filters are not available: " + e.Error()
	}
	path, err := exec.LookPath("true")
	if err != nil {
		return false, "no 'true' program to probe ptrace with"
	}
	type result struct {
		ok  bool
		why string
	}
	ch := make(chan result)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cmd := exec.Command(path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
		if err := cmd.Start(); err != nil {
			ch <- result{false, "cannot start a traced process: " + err.Error()}
			return
		}
		pid := cmd.Process.Pid
		defer func() {
			_ = unix.Kill(pid, unix.SIGKILL)
			var ws unix.WaitStatus
			_, _ = wait4(pid, &ws, unix.WALL)
		}()
		var ws unix.WaitStatus
		if _, err := wait4(pid, &ws, unix.WALL); err != nil || !ws.Stopped() {
			ch <- result{false, "a traced process did not stop at exec"}
			return
		}
		if _, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(pid), 0, uintptr(unix.SIGSTOP), 0, 0); e != 0 {
			ch <- result{false, "ptrace detach: " + e.Error()}
			return
		}
		if _, err := wait4(pid, &ws, unix.WALL|unix.WUNTRACED); err != nil || !ws.Stopped() {
			ch <- result{false, "the probe process did not stop"}
			return
		}
		if _, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(pid), 0, traceOptions, 0, 0); e != 0 {
			ch <- result{false, "ptrace seize: " + e.Error()}
			return
		}
		ch <- result{true, ""}
	}()
	r := <-ch
	return r.ok, r.why
}
