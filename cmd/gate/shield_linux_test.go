package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandCannotReadItsSupervisor: a command that gate runs as the same
// user tries to read the memory of the exec supervisor's helper (its
// parent) and of gate itself, through /proc/PID/mem, the access that also
// lets it write them or attach with ptrace (and so run its own code as its
// tracer, or read the server's token). Both are refused, with the fs layer
// and without it; the control, the command's own memory, reads. It runs
// gate as nobody, since root's CAP_SYS_PTRACE overrides the protection.
func TestCommandCannotReadItsSupervisor(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3", "setpriv")
	if os.Geteuid() != 0 {
		t.Skip("SKIP: needs root, to run gate as nobody (root may read any process)")
	}
	if b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope"); err == nil && strings.TrimSpace(string(b)) != "0" {
		t.Logf("note: kernel.yama.ptrace_scope = %s refuses these reads even without gate's protection", strings.TrimSpace(string(b)))
	}
	base := t.TempDir()
	// Reachable by nobody: the test's temporary directories are private.
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "gate")
	copyFile(t, self, bin, 0o755)
	root, home := filepath.Join(base, "ws"), filepath.Join(base, "home")
	// A protected path in the root makes the fs layer mount (where it can):
	// gate must still run the command, though the helper cannot read its
	// non-dumpable parent's mount namespace.
	for _, d := range []string{root, home, filepath.Join(root, ".git"), filepath.Join(root, ".git", "hooks")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	probe := `import os
def probe(pid, label):
    try:
        start = int(open("/proc/%s/maps" % pid).readline().split("-")[0], 16)
        with open("/proc/%s/mem" % pid, "rb") as m:
            m.seek(start)
            print(label, "read", m.read(4))
    except OSError as e:
        print(label, "refused", e.strerror)
helper = os.getppid()
gate = open("/proc/%d/stat" % helper).read().rsplit(")", 1)[1].split()[1]
probe("self", "control")
probe(helper, "helper")
probe(gate, "gate")
`
	if err := os.WriteFile(filepath.Join(root, "probe.py"), []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--no-confine"}} {
		args := append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin, "exec", "--approval-mode", "yolo",
			"--root", root, "--command", "python3 probe.py"}, extra...)
		cmd := exec.Command("setpriv", args...)
		cmd.Dir = root
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_STATE_HOME=" + home}
		out, err := cmd.CombinedOutput()
		got := string(out)
		if err != nil || !strings.Contains(got, "control read") {
			t.Fatalf("%v: %v\n%s", extra, err, got)
		}
		if !strings.Contains(got, "helper refused") || !strings.Contains(got, "gate refused") {
			t.Errorf("%v: the command read its supervisor's memory:\n%s", extra, got)
		}
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
