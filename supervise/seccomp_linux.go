//go:build linux

package supervise

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The supervisor sees every process of the tree because the kernel attaches
// each new one to the tracer (PTRACE_O_TRACEFORK, VFORK, CLONE). A process
// may ask the kernel not to: clone with CLONE_UNTRACED makes a child, and
// everything it starts, that nobody traces, decides or kills (rt29 ran rm
// and git push that way, and outlived gate). And a process with the
// user's terminal could type into it (TIOCSTI, TIOCLINUX's paste): the
// user's own shell would run the text after gate ends.
//
// So the helper installs a seccomp filter before it starts the command,
// which the command and all its descendants inherit and cannot remove:
//   - clone with CLONE_UNTRACED fails with EPERM;
//   - clone3 fails with ENOSYS (its flags sit in memory a filter cannot
//     read), and C libraries fall back to clone;
//   - ioctl TIOCSTI and TIOCLINUX fail with EPERM (the request's low 32
//     bits: the kernel ignores the others);
//   - process_vm_writev fails with EPERM: a process of the tree could
//     otherwise rewrite another's argv between the exec decision and the
//     program reading it (rt30 ran git stat, decided, as git push);
//   - system calls of an architecture the filter does not know (x32,
//     another compat ABI) fail with ENOSYS.
// Everything else is allowed. A filter needs no_new_privs unless the helper
// has CAP_SYS_ADMIN; a traced process gains no privileges from setuid
// programs anyway, so it costs the command nothing.

// seccompABI names one system call ABI the filter reads: the audit
// architecture seccomp reports and its numbers for the calls it checks.
type seccompABI struct {
	arch                           uint32
	clone, clone3, ioctl, vmWritev uint32
}

// seccompABIs are the native ABI and its 32-bit compat ABI.
func seccompABIs() ([]seccompABI, error) {
	switch runtime.GOARCH {
	case "amd64":
		return []seccompABI{
			{unix.AUDIT_ARCH_X86_64, 56, 435, 16, 311},
			{unix.AUDIT_ARCH_I386, 120, 435, 54, 348},
		}, nil
	case "arm64":
		return []seccompABI{
			{unix.AUDIT_ARCH_AARCH64, 220, 435, 29, 271},
			{unix.AUDIT_ARCH_ARM, 120, 435, 54, 377},
		}, nil
	}
	return nil, fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
}

// Offsets in struct seccomp_data (little-endian: an argument's low 32 bits
// come first).
const (
	seccompNr   = 0
	seccompArch = 4
	seccompArg0 = 16
	seccompArg1 = 24
	// x32 system calls share x86-64's audit arch, with this bit set.
	x32SyscallBit = 0x40000000
)

// Filter results.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retEPERM  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retENOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

// seccompProgram assembles the filter for abis.
func seccompProgram(abis []seccompABI) ([]bpf.RawInstruction, error) {
	// Each ABI's block: load nr; clone? -> test flags; clone3? -> ENOSYS;
	// ioctl? -> test the request; allow.
	block := func(a seccompABI, native bool) []bpf.Instruction {
		var ins []bpf.Instruction
		ins = append(ins, bpf.LoadAbsolute{Off: seccompNr, Size: 4})
		if native && a.arch == unix.AUDIT_ARCH_X86_64 {
			ins = append(ins, bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: x32SyscallBit, SkipFalse: 1},
				bpf.RetConstant{Val: retENOSYS})
		}
		ins = append(ins,
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.clone, SkipFalse: 4},
			bpf.LoadAbsolute{Off: seccompArg0, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: unix.CLONE_UNTRACED, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM},
			bpf.RetConstant{Val: retAllow},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.clone3, SkipFalse: 1},
			bpf.RetConstant{Val: retENOSYS},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.vmWritev, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.ioctl, SkipFalse: 4},
			bpf.LoadAbsolute{Off: seccompArg1, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCSTI, SkipTrue: 1},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.TIOCLINUX, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM},
			bpf.RetConstant{Val: retAllow},
		)
		return ins
	}
	prog := []bpf.Instruction{bpf.LoadAbsolute{Off: seccompArch, Size: 4}}
	var blocks [][]bpf.Instruction
	for i, a := range abis {
		blocks = append(blocks, block(a, i == 0))
	}
	// The dispatch: arch == abis[i] jumps to block i; any other arch is
	// refused. Block i starts after the remaining dispatch jumps, the
	// refusal, and the blocks before it.
	for i, a := range abis {
		skip := len(abis) - i // the jumps after this one, and the refusal
		for _, b := range blocks[:i] {
			skip += len(b)
		}
		if skip > 255 {
			return nil, errors.New("seccomp filter too long")
		}
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: a.arch, SkipTrue: uint8(skip)})
	}
	prog = append(prog, bpf.RetConstant{Val: retENOSYS})
	for _, b := range blocks {
		prog = append(prog, b...)
	}
	return bpf.Assemble(prog)
}

// installSeccomp installs the filter on every thread of the helper, so
// that the command it starts inherits it.
func installSeccomp() error {
	abis, err := seccompABIs()
	if err != nil {
		return err
	}
	raw, err := seccompProgram(abis)
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	set := func() unix.Errno {
		_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
		return e
	}
	e := set()
	if e == unix.EACCES {
		// without CAP_SYS_ADMIN a filter needs no_new_privs
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
		}
		e = set()
	}
	runtime.KeepAlive(filter)
	if e != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", e)
	}
	return nil
}
