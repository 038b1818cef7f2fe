package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	g := newNobodyGate(t)
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
	g.write(t, "probe.py", probe)
	for _, extra := range [][]string{nil, {"--no-confine"}} {
		got, err := g.exec(t, "python3 probe.py", extra...)
		if err != nil || !strings.Contains(got, "control read") {
			t.Fatalf("%v: %v\n%s", extra, err, got)
		}
		if !strings.Contains(got, "helper refused") || !strings.Contains(got, "gate refused") {
			t.Errorf("%v: the command read its supervisor's memory:\n%s", extra, got)
		}
	}
}

// TestConfinementWithoutRoot: gate run by an ordinary user (nobody) makes
// the read-only and hidden mounts in a user namespace of the helper's own;
// the command runs as that user again, in a nested one. A script the
// static layer cannot read into writes the hooks and git's config and reads
// gate's token: all refused, while it writes in the root, as itself.
func TestConfinementWithoutRoot(t *testing.T) {
	g := newNobodyGate(t)
	needProgram(t, "unshare")
	// What the kernel lets an ordinary user do, asked without gate.
	probe := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "unshare", "--user", "--map-root-user", "--mount",
		"mount", "--make-rprivate", "/")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("SKIP: an ordinary user cannot make a user and mount namespace here (unprivileged user namespaces off?): %v %s", err, out)
	}
	out, err := g.run(t, "doctor", "--json")
	var doc struct {
		MountNS bool `json:"mount_ns"`
	}
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("gate doctor: %v\n%s", err, out)
	}
	if !doc.MountNS {
		t.Errorf("gate doctor says no mount namespace, where the kernel gives one to an ordinary user:\n%s", out)
	}
	state := filepath.Join(g.home, "gate")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	g.write(t, "gate/token", "the-token")
	g.write(t, "w.py", `for p in [".git/hooks/pre-commit", ".git/config", "made.txt"]:
    try:
        open(p, "a").write("pwned\n")
        print("wrote", p)
    except OSError as e:
        print("refused", p, e.strerror)
try:
    print("read", open(`+strconv.Quote(filepath.Join(state, "token"))+`).read())
except OSError as e:
    print("refused token", e.strerror)
import os
print("uid", os.getuid())
`)
	g.write(t, ".git/config", "[core]\n")
	got, err := g.exec(t, "python3 w.py")
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	for _, want := range []string{"refused .git/hooks/pre-commit", "refused .git/config", "wrote made.txt", "refused token", "uid 65534"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "the-token") {
		t.Errorf("the token was read:\n%s", got)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(g.root, "made.txt"), &st); err != nil || st.Uid != 65534 {
		t.Errorf("made.txt: %v, owner %d, want nobody's", err, st.Uid)
	}
	if _, err := os.Stat(filepath.Join(g.root, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the hook was written")
	}
}

// nobodyGate is gate's binary, a root and a home that nobody can use.
type nobodyGate struct {
	bin, root, home string
}

func newNobodyGate(t *testing.T) *nobodyGate {
	t.Helper()
	needExecLayer(t)
	needProgram(t, "python3", "setpriv")
	if os.Geteuid() != 0 {
		t.Skip("SKIP: needs root, to run gate as nobody")
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
	g := &nobodyGate{bin: filepath.Join(base, "gate"), root: filepath.Join(base, "ws"), home: filepath.Join(base, "home")}
	copyFile(t, self, g.bin, 0o755)
	// A protected path in the root makes the fs layer mount (where it can):
	// gate must still run the command, though the helper cannot read its
	// parent's mount namespace.
	for _, d := range []string{g.root, g.home, filepath.Join(g.root, ".git"), filepath.Join(g.root, ".git", "hooks")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// write writes a file nobody owns, relative to the root (or to the home
// for gate/...).
func (g *nobodyGate) write(t *testing.T, name, content string) {
	t.Helper()
	p := filepath.Join(g.root, name)
	if strings.HasPrefix(name, "gate/") {
		p = filepath.Join(g.home, name)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 65534, 65534); err != nil {
		t.Fatal(err)
	}
}

// run runs gate as nobody.
func (g *nobodyGate) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", g.bin}, args...)...)
	cmd.Dir = g.root
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + g.home, "XDG_STATE_HOME=" + g.home}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// exec runs command through gate exec as nobody.
func (g *nobodyGate) exec(t *testing.T, command string, extra ...string) (string, error) {
	t.Helper()
	return g.run(t, append([]string{"exec", "--approval-mode", "yolo", "--root", g.root, "--command", command}, extra...)...)
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
