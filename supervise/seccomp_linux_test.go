//go:build linux

package supervise

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestSeccompProgram runs the filter in x/net/bpf's virtual machine on
// system calls of each ABI. The machine loads words big-endian, so the
// fields are written so.
func TestSeccompProgram(t *testing.T) {
	abis, err := seccompABIs()
	if err != nil {
		t.Skip("SKIPPED: " + err.Error())
	}
	raw, err := seccompProgram(abis)
	if err != nil {
		t.Fatal(err)
	}
	prog, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	data := func(arch, nr uint32, arg0, arg1 uint64) []byte {
		b := make([]byte, 64)
		binary.BigEndian.PutUint32(b[seccompNr:], nr)
		binary.BigEndian.PutUint32(b[seccompArch:], arch)
		// the low 32 bits where a little-endian kernel has them
		binary.BigEndian.PutUint32(b[seccompArg0:], uint32(arg0))
		binary.BigEndian.PutUint32(b[seccompArg0+4:], uint32(arg0>>32))
		binary.BigEndian.PutUint32(b[seccompArg1:], uint32(arg1))
		binary.BigEndian.PutUint32(b[seccompArg1+4:], uint32(arg1>>32))
		return b
	}
	const sigchld = 17
	for _, a := range abis {
		for _, tc := range []struct {
			name       string
			nr         uint32
			arg0, arg1 uint64
			want       uint32
		}{
			{"fork-like clone", a.clone, sigchld, 0, retAllow},
			{"thread clone", a.clone, unix.CLONE_VM | unix.CLONE_THREAD | unix.CLONE_SIGHAND, 0, retAllow},
			{"clone CLONE_UNTRACED", a.clone, unix.CLONE_UNTRACED | sigchld, 0, retEPERM},
			{"clone CLONE_UNTRACED|CLONE_VM", a.clone, unix.CLONE_UNTRACED | unix.CLONE_VM | sigchld, 0, retEPERM},
			{"clone3", a.clone3, 0, 0, retENOSYS},
			{"process_vm_writev", a.vmWritev, 0, 0, retEPERM},
			{"ioctl TIOCSTI", a.ioctl, 0, unix.TIOCSTI, retEPERM},
			{"ioctl TIOCSTI, high bits set", a.ioctl, 0, 1<<32 | unix.TIOCSTI, retEPERM},
			{"ioctl TIOCLINUX", a.ioctl, 0, unix.TIOCLINUX, retEPERM},
			{"ioctl TIOCGWINSZ", a.ioctl, 0, unix.TIOCGWINSZ, retAllow},
			{"another call with TIOCSTI as its argument", a.ioctl + 1, 0, unix.TIOCSTI, retAllow},
			{"another call with CLONE_UNTRACED as its argument", a.clone + 1, unix.CLONE_UNTRACED, 0, retAllow},
			{"process_vm_readv", a.vmWritev - 1, 0, 0, retAllow},
		} {
			got, err := vm.Run(data(a.arch, tc.nr, tc.arg0, tc.arg1))
			if err != nil || uint32(got) != tc.want {
				t.Errorf("arch %#x, %s: %#x %v, want %#x", a.arch, tc.name, got, err, tc.want)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		arch, nr uint32
	}{
		{"an unknown architecture", 0x12345678, 0},
		{"x32", abis[0].arch, x32SyscallBit | 0},
	} {
		if tc.name == "x32" && abis[0].arch != unix.AUDIT_ARCH_X86_64 {
			continue
		}
		if got, err := vm.Run(data(tc.arch, tc.nr, 0, 0)); err != nil || uint32(got) != retENOSYS {
			t.Errorf("%s: %#x %v, want ENOSYS", tc.name, got, err)
		}
	}
}

// TestTreeCannotBeLeft (rt29): a process of the tree cannot make a child
// the tracer is not attached to (clone with CLONE_UNTRACED ran rm and git
// push undecided, and outlived gate), cannot use clone3, whose flags a
// filter cannot read, and cannot type into a terminal (TIOCSTI: the user's
// shell would run the text after gate ends). Each runs for real under
// python3's ctypes.
func TestTreeCannotBeLeft(t *testing.T) {
	needSupervise(t)
	need(t, "python3")
	abis, err := seccompABIs()
	if err != nil {
		t.Skip("SKIPPED: " + err.Error())
	}
	dir := t.TempDir()
	v := victim(t, dir, "victim")
	untraced := fmt.Sprintf(`import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = libc.syscall(%d, %d | 17, 0, 0, 0, 0)
if pid == 0:
    os.execv("/bin/rm", ["rm", "victim"])
print("clone", pid, ctypes.get_errno(), flush=True)
if pid > 0:
    os.waitpid(pid, 0)
`, abis[0].clone, unix.CLONE_UNTRACED)
	if err := os.WriteFile(filepath.Join(dir, "u.py"), []byte(untraced), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(t, dir, "python3 u.py; sleep 0.5", denying("rm").decide)
	survives(t, v)
	if want := fmt.Sprintf("clone -1 %d", unix.EPERM); !strings.Contains(out.stdout, want) {
		t.Errorf("stdout %q, want %q (stderr %q)", out.stdout, want, out.stderr)
	}

	clone3 := fmt.Sprintf(`import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print("clone3", libc.syscall(%d, 0, 0), ctypes.get_errno())
print("process_vm_writev", libc.syscall(%d, os.getpid(), 0, 0, 0, 0, 0), ctypes.get_errno())`, abis[0].clone3, abis[0].vmWritev)
	tiocsti := fmt.Sprintf(`import fcntl, os
try:
    fcntl.ioctl(0, %d, b"x")
    print("tiocsti ok")
except OSError as e:
    print("tiocsti", e.errno)`, unix.TIOCSTI)
	out = run(t, dir, "python3 -c '"+clone3+"' && python3 -c '"+tiocsti+"' < /dev/null", denying().decide)
	for _, want := range []string{fmt.Sprintf("clone3 -1 %d", unix.ENOSYS), fmt.Sprintf("tiocsti %d", unix.EPERM), fmt.Sprintf("process_vm_writev -1 %d", unix.EPERM)} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("stdout %q, want %q (stderr %q)", out.stdout, want, out.stderr)
		}
	}
}
