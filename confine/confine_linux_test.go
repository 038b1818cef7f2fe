//go:build linux

package confine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/confine"
)

// helperEnv makes the test binary a confined child: it decodes a childReq,
// calls confine.Apply, prints the Status, then execs the real action.
const helperEnv = "GATE_CONFINE_TEST_CHILD"

const statusPrefix = "confine-status: "

type childReq struct {
	Spec confine.Spec
	Argv []string // run (exec) after Apply; empty: exit 0
	Dir  string   // the child's working directory, entered before Apply
}

func TestMain(m *testing.M) {
	if req := os.Getenv(helperEnv); req != "" {
		os.Exit(child(req))
	}
	os.Exit(m.Run())
}

func child(raw string) int {
	var req childReq
	if err := json.Unmarshal([]byte(raw), &req); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 111
	}
	start := time.Now()
	st, err := confine.Apply(req.Spec)
	took := time.Since(start)
	out, _ := json.Marshal(st)
	fmt.Fprintf(os.Stderr, "%s%s\napply-ns: %d\n", statusPrefix, out, took.Nanoseconds())
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: apply:", err)
		return 111
	}
	if len(req.Argv) == 0 {
		return 0
	}
	path, err := exec.LookPath(req.Argv[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 111
	}
	os.Unsetenv(helperEnv)
	err = syscall.Exec(path, req.Argv, os.Environ())
	fmt.Fprintln(os.Stderr, "child: exec:", err)
	return 111
}

// result is what a confined child did.
type result struct {
	status  confine.Status
	stdout  string
	stderr  string
	applyNS int64
	err     error
}

// runConfined starts the test binary as a confined child with TMPDIR=tmp,
// in a new mount namespace when unshare is set.
func runConfined(t testing.TB, tmp string, unshare bool, req childReq) result {
	t.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Dir = req.Dir
	cmd.Env = append(os.Environ(), helperEnv+"="+string(raw), "TMPDIR="+tmp)
	if unshare {
		cmd.SysProcAttr = confine.SysProcAttr(nil)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := result{err: cmd.Run(), stdout: stdout.String()}
	for _, line := range strings.Split(stderr.String(), "\n") {
		switch {
		case strings.HasPrefix(line, statusPrefix):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, statusPrefix)), &r.status); err != nil {
				t.Fatalf("status line %q: %v", line, err)
			}
		case strings.HasPrefix(line, "apply-ns: "):
			fmt.Sscan(strings.TrimPrefix(line, "apply-ns: "), &r.applyNS)
		default:
			r.stderr += line + "\n"
		}
	}
	return r
}

// requireConfinement skips loudly when the machine lacks a layer.
func requireConfinement(t testing.TB, needMountNS bool) {
	t.Helper()
	p := confine.Probe()
	if p.Landlock == 0 || (needMountNS && !p.MountNS) {
		t.Skipf("SKIP: filesystem confinement unavailable on this machine: %s", p)
	}
}

// python returns the real interpreter (not a version manager's shim, which
// may want to write under its own directory).
func python(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skipf("SKIP: python3 is needed for these tests: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// pyOp performs one file operation and prints OK or the errno's name.
const pyOp = `
import errno, os, sys
op, a = sys.argv[1], sys.argv[2]
b = sys.argv[3] if len(sys.argv) > 3 else None
try:
    if op == "write":
        with open(a, "w") as f: f.write("pwned\n")
    elif op == "append":
        with open(a, "a") as f: f.write("pwned\n")
    elif op == "read":
        with open(a) as f: f.read()
    elif op == "mkdir":
        os.mkdir(a)
    elif op == "unlink":
        os.unlink(a)
    elif op == "rename":
        os.rename(a, b)
    elif op == "link":
        os.link(a, b)
    elif op == "connect-unix":
        import socket
        socket.socket(socket.AF_UNIX).connect(a)
    elif op == "connect-tcp":
        import socket
        socket.create_connection(("127.0.0.1", int(a)), timeout=10).close()
    elif op == "symlink-write":
        os.symlink(a, b)
        with open(b, "w") as f: f.write("pwned\n")
    else:
        sys.exit("unknown op " + op)
    print("OK")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
`

// fixture is a workspace with protected files and a directory outside it.
type fixture struct {
	base, root, outside, tmp string
	spec                     confine.Spec
}

const original = "original\n"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{
		base:    base,
		root:    filepath.Join(base, "ws"),
		outside: filepath.Join(base, "outside"),
		tmp:     filepath.Join(base, "tmp"),
	}
	for _, d := range []string{
		f.outside, f.tmp, f.root + "/.git/hooks", f.root + "/.gate", f.root + "/real-gemini", f.root + "/sub",
		f.outside + "/claude",
	} {
		mkdir(t, d)
	}
	for _, p := range []string{
		f.outside + "/victim.txt", f.root + "/.git/config", f.root + "/.git/description", f.root + "/.git/hooks/pre-commit.sample",
		f.root + "/.gate/settings.json", f.root + "/file.txt", f.outside + "/claude/settings.json",
		f.root + "/real-gemini/settings.json",
	} {
		write(t, p, original)
	}
	symlink(t, f.outside+"/claude", f.root+"/.claude") // a protected path pointing outside
	symlink(t, "real-gemini", f.root+"/.gemini")       // a protected path pointing inside
	symlink(t, "ws", base+"/ws-link")                  // Root given through a symlink
	f.spec = confine.Spec{
		Root: base + "/ws-link",
		ReadOnly: []string{
			".git/hooks/", "sub/../.git/config", ".gate/", ".claude/", ".gemini/",
			".qwen/", // missing
		},
	}
	return f
}

// listen accepts connections on addr until the test ends and returns the
// address.
func listen(t *testing.T, network, addr string) string {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if network == "unix" {
		return addr
	}
	return l.Addr().String()
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every path under dir with its content (or link target).
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		line := p + " " + d.Type().String()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += " " + string(b)
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// mountinfo is the mount table of this process and of PID 1.
func mountinfo(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	init, _ := os.ReadFile("/proc/1/mountinfo") // unreadable as non-root: ours suffices
	return string(b) + "\n--- pid 1:\n" + string(init)
}

// check is what must hold on disk after an action.
type check func(t *testing.T, f *fixture)

func absent(rel string) check {
	return func(t *testing.T, f *fixture) {
		t.Helper()
		if _, err := os.Lstat(filepath.Join(f.base, rel)); err == nil {
			t.Errorf("%s exists, want it absent", rel)
		}
	}
}

func holds(rel, want string) check {
	return func(t *testing.T, f *fixture) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(f.base, rel))
		if err != nil || string(b) != want {
			t.Errorf("%s holds %q (%v), want %q", rel, b, err, want)
		}
	}
}

// op is one attack or one piece of benign work, run by a real interpreter.
type op struct {
	name   string
	argv   func(t *testing.T, f *fixture) []string // {op, path, [path2]} for pyOp
	want   string                                  // OK or an errno name
	checks []check
}

func py(o string, rel ...string) func(t *testing.T, f *fixture) []string {
	return func(_ *testing.T, f *fixture) []string {
		args := []string{o}
		for _, r := range rel {
			if !filepath.IsAbs(r) {
				r = filepath.Join(f.base, r)
			}
			args = append(args, r)
		}
		return args
	}
}

func TestConfinedPython(t *testing.T) {
	requireConfinement(t, true)
	pyExe := python(t)
	ops := []op{
		// Outside the root: Landlock.
		{"write a new file outside the root", py("write", "outside/new.txt"), "EACCES", []check{absent("outside/new.txt")}},
		{"overwrite a file outside the root", py("write", "outside/victim.txt"), "EACCES", []check{holds("outside/victim.txt", original)}},
		{"delete a file outside the root", py("unlink", "outside/victim.txt"), "EACCES", []check{holds("outside/victim.txt", original)}},
		{"move a file out of the root", py("rename", "ws/file.txt", "outside/file.txt"), "EXDEV", []check{holds("ws/file.txt", original), absent("outside/file.txt")}},
		{"write outside through a symlink made in the root", py("symlink-write", "outside/victim.txt", "ws/link"), "EACCES", []check{holds("outside/victim.txt", original)}},
		{"hard-link an outside file into the root", py("link", "outside/victim.txt", "ws/hl"), "EXDEV", []check{absent("ws/hl")}},
		{"write through a protected symlink that points outside", py("write", "ws/.claude/settings.json"), "EACCES", []check{holds("outside/claude/settings.json", original)}},
		// Protected paths inside the root: read-only bind mounts.
		{"plant a git hook", py("write", "ws/.git/hooks/pre-commit"), "EROFS", []check{absent("ws/.git/hooks/pre-commit")}},
		{"overwrite a hook sample", py("write", "ws/.git/hooks/pre-commit.sample"), "EROFS", []check{holds("ws/.git/hooks/pre-commit.sample", original)}},
		{"overwrite .git/config", py("write", "ws/.git/config"), "EROFS", []check{holds("ws/.git/config", original)}},
		{"append to .git/config", py("append", "ws/.git/config"), "EROFS", []check{holds("ws/.git/config", original)}},
		{"delete .git/config", py("unlink", "ws/.git/config"), "EBUSY", []check{holds("ws/.git/config", original)}},
		{"replace .git/config by a rename", py("rename", "ws/.git/description", "ws/.git/config"), "EBUSY", []check{holds("ws/.git/config", original), holds("ws/.git/description", original)}},
		{"hard-link .git/config elsewhere in the root", py("link", "ws/.git/config", "ws/cfg"), "EXDEV", []check{absent("ws/cfg")}},
		{"move .git away to replace it with a copy", py("rename", "ws/.git", "ws/.git-old"), "EBUSY", []check{absent("ws/.git-old"), holds("ws/.git/config", original)}},
		{"move the hooks directory away", py("rename", "ws/.git/hooks", "ws/.git/hooks-old"), "EBUSY", []check{absent("ws/.git/hooks-old")}},
		{"move the root away", py("rename", "ws", "tmp/ws"), "EACCES", []check{holds("ws/.git/config", original)}},
		{"write gate's settings", py("write", "ws/.gate/settings.json"), "EROFS", []check{holds("ws/.gate/settings.json", original)}},
		{"write through a protected symlink that points inside", py("write", "ws/.gemini/settings.json"), "EROFS", []check{holds("ws/real-gemini/settings.json", original)}},
		{"write the protected target directly", py("write", "ws/real-gemini/settings.json"), "EROFS", []check{holds("ws/real-gemini/settings.json", original)}},
		{"write the hook through the host's mount namespace", func(_ *testing.T, f *fixture) []string {
			return []string{"write", fmt.Sprintf("/proc/%d/root%s/.git/hooks/pre-commit", os.Getpid(), f.root)}
		}, "EACCES", []check{absent("ws/.git/hooks/pre-commit")}},
		// Benign work.
		{"write in the root", py("write", "ws/new.txt"), "OK", []check{holds("ws/new.txt", "pwned\n")}},
		{"make a directory in .git", py("mkdir", "ws/.git/refs"), "OK", nil},
		{"move a file between directories in the root", py("rename", "ws/file.txt", "ws/sub/file.txt"), "OK", []check{holds("ws/sub/file.txt", original)}},
		// .git is pinned (a mount of its own): renames across it are cross-device.
		{"move a file from the work tree into .git", py("rename", "ws/file.txt", "ws/.git/file.txt"), "EXDEV", []check{holds("ws/file.txt", original)}},
		{"write in the temp dir", py("write", "tmp/t.txt"), "OK", []check{holds("tmp/t.txt", "pwned\n")}},
		{"write /dev/null", py("write", "/dev/null"), "OK", nil},
		{"read outside the root", py("read", "outside/victim.txt"), "OK", nil},
		{"read a system file", py("read", "/etc/hostname"), "OK", nil},
		// The network is untouched, pathname UNIX sockets outside the root included.
		{"connect to a UNIX socket outside the root", func(t *testing.T, f *fixture) []string {
			return []string{"connect-unix", listen(t, "unix", f.outside+"/s.sock")}
		}, "OK", nil},
		{"connect to a TCP port", func(t *testing.T, f *fixture) []string {
			_, port, _ := net.SplitHostPort(listen(t, "tcp", "127.0.0.1:0"))
			return []string{"connect-tcp", port}
		}, "OK", nil},
	}
	hostMounts := mountinfo(t)
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			f := newFixture(t)
			before := snapshot(t, f.outside)
			argv := append([]string{pyExe, "-c", pyOp}, o.argv(t, f)...)
			r := runConfined(t, f.tmp, true, childReq{Spec: f.spec, Argv: argv})
			if r.err != nil {
				t.Fatalf("child: %v\n%s", r.err, r.stderr)
			}
			if got := strings.TrimSpace(r.stdout); got != o.want {
				t.Errorf("%v: got %s, want %s\nstatus: %+v\nstderr: %s", argv[3:], got, o.want, r.status, r.stderr)
			}
			for _, c := range o.checks {
				c(t, f)
			}
			if o.want != "OK" {
				if after := snapshot(t, f.outside); after != before {
					t.Errorf("outside the root changed:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			}
		})
	}
	if got := mountinfo(t); got != hostMounts {
		t.Errorf("the host mount namespace changed:\nbefore:\n%s\nafter:\n%s", hostMounts, got)
	}
}

// TestConfinedBash attacks the mounts themselves from a real bash.
func TestConfinedBash(t *testing.T) {
	requireConfinement(t, true)
	hostMounts := mountinfo(t)
	tests := []struct {
		name   string
		script string
		checks []check
	}{
		{"unmount the hooks and plant one", `umount "$R/.git/hooks"; umount -l "$R/.git/hooks"; echo pwned > "$R/.git/hooks/pre-commit"`,
			[]check{absent("ws/.git/hooks/pre-commit")}},
		{"remount the hooks read-write", `mount -o remount,rw,bind "$R/.git/hooks"; echo pwned > "$R/.git/hooks/pre-commit"`,
			[]check{absent("ws/.git/hooks/pre-commit")}},
		{"bind a writable dir over the hooks", `mkdir -p "$R/evil" && mount --bind "$R/evil" "$R/.git/hooks"; echo pwned > "$R/.git/hooks/pre-commit"`,
			[]check{absent("ws/.git/hooks/pre-commit")}},
		{"redirect outside the root", `echo pwned > "$O/victim.txt"; echo pwned >> "$O/victim.txt"; rm -f "$O/victim.txt"`,
			[]check{holds("outside/victim.txt", original)}},
		{"copy .git and swap it in", `cp -a "$R/.git" "$R/.git2" && mv "$R/.git" "$R/.git-old"; mv -T "$R/.git2" "$R/.git"; echo pwned > "$R/.git/hooks/pre-commit"`,
			[]check{absent("ws/.git/hooks/pre-commit"), absent("ws/.git-old")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			before := snapshot(t, f.outside)
			script := fmt.Sprintf("R=%q O=%q\n%s\nexit 0", f.root, f.outside, tc.script)
			r := runConfined(t, f.tmp, true, childReq{Spec: f.spec, Argv: []string{"bash", "-c", script}})
			if r.err != nil {
				t.Fatalf("child: %v\n%s", r.err, r.stderr)
			}
			for _, c := range tc.checks {
				c(t, f)
			}
			if after := snapshot(t, f.outside); after != before {
				t.Errorf("outside the root changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			t.Logf("bash said:\n%s", r.stderr)
		})
	}
	if got := mountinfo(t); got != hostMounts {
		t.Errorf("the host mount namespace changed")
	}
}

// A process that is in the root when it confines itself (as gate's helper
// is) writes through relative paths too: those must meet the read-only
// mounts, not the directory as it was mounted before.
func TestRelativePathsAfterApply(t *testing.T) {
	requireConfinement(t, true)
	f := newFixture(t)
	hook := filepath.Join(f.root, ".git", "hooks", "pre-commit")
	r := runConfined(t, f.tmp, true, childReq{Spec: f.spec, Dir: f.root, Argv: []string{"bash", "-c",
		"echo pwned > .git/hooks/pre-commit; echo pwned >> .git/config; echo ok > relative.txt; exit 0"}})
	if r.err != nil {
		t.Fatalf("child: %v\n%s", r.err, r.stderr)
	}
	if _, err := os.Stat(hook); !os.IsNotExist(err) {
		t.Fatalf("the hook was planted through a relative path: %v", err)
	}
	if bs, _ := os.ReadFile(filepath.Join(f.root, ".git", "config")); strings.Contains(string(bs), "pwned") {
		t.Fatalf(".git/config was written through a relative path")
	}
	if bs, _ := os.ReadFile(filepath.Join(f.root, "relative.txt")); string(bs) != "ok\n" {
		t.Fatalf("a relative write inside the root failed: %q\n%s", bs, r.stderr)
	}
}

// TestStatus checks what Apply reports as in force.
func TestStatus(t *testing.T) {
	requireConfinement(t, true)
	f := newFixture(t)
	r := runConfined(t, f.tmp, true, childReq{Spec: f.spec})
	if r.err != nil {
		t.Fatalf("child: %v\n%s", r.err, r.stderr)
	}
	st := r.status
	if !st.Active() || !st.MountNS || st.Landlock != confine.Probe().Landlock {
		t.Errorf("status %+v, want landlock ABI %d and mount namespace", st, confine.Probe().Landlock)
	}
	wantRO := []string{
		f.outside + "/claude", f.root + "/.gate", f.root + "/.git/config", f.root + "/.git/hooks", f.root + "/real-gemini",
	}
	sort.Strings(wantRO)
	if fmt.Sprint(st.ReadOnly) != fmt.Sprint(wantRO) {
		t.Errorf("ReadOnly = %v, want %v", st.ReadOnly, wantRO)
	}
	if len(st.Unprotected) != 1 || !strings.HasPrefix(st.Unprotected[0], ".qwen/: does not exist") {
		t.Errorf("Unprotected = %q, want .qwen/ reported missing", st.Unprotected)
	}
	for _, w := range []string{f.root, f.tmp, "/dev/null"} {
		found := false
		for _, got := range st.Writable {
			found = found || got == w
		}
		if !found {
			t.Errorf("Writable = %v, want it to hold %s", st.Writable, w)
		}
	}
	if warn := strings.Join(st.Warnings, "\n"); !strings.Contains(warn, f.root+"/.claude is a symlink") ||
		!strings.Contains(warn, f.root+"/.gemini is a symlink") {
		t.Errorf("Warnings = %q, want both protected symlinks named", st.Warnings)
	}
}

// TestHardLinkLimit shows the documented limit: a hard link to a protected
// file made before confinement, elsewhere in the root, writes the protected
// inode. Apply names it in Status.Warnings.
func TestHardLinkLimit(t *testing.T) {
	requireConfinement(t, true)
	f := newFixture(t)
	if err := os.Link(f.root+"/.git/config", f.root+"/config-link"); err != nil {
		t.Fatal(err)
	}
	argv := []string{python(t), "-c", pyOp, "write", f.root + "/config-link"}
	r := runConfined(t, f.tmp, true, childReq{Spec: f.spec, Argv: argv})
	if r.err != nil {
		t.Fatalf("child: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(strings.Join(r.status.Warnings, "\n"), f.root+"/.git/config has 2 hard links") {
		t.Errorf("Warnings = %q, want the hard link named", r.status.Warnings)
	}
	// If this starts failing, the limit is gone: update doc.go.
	if got := strings.TrimSpace(r.stdout); got != "OK" {
		t.Errorf("write through the hard link: %s, want OK (the documented limit)", got)
	}
	holds("ws/.git/config", "pwned\n")(t, f)
}

// TestWithoutMountNamespace: started without confine.SysProcAttr, Apply
// leaves the host's mounts alone, says so, and Landlock still confines.
func TestWithoutMountNamespace(t *testing.T) {
	requireConfinement(t, false)
	hostMounts := mountinfo(t)
	f := newFixture(t)
	argv := []string{python(t), "-c", pyOp, "write", f.outside + "/victim.txt"}
	r := runConfined(t, f.tmp, false, childReq{Spec: f.spec, Argv: argv})
	if r.err != nil {
		t.Fatalf("child: %v\n%s", r.err, r.stderr)
	}
	if got := strings.TrimSpace(r.stdout); got != "EACCES" {
		t.Errorf("write outside: %s, want EACCES", got)
	}
	holds("outside/victim.txt", original)(t, f)
	st := r.status
	if st.MountNS || !strings.Contains(strings.Join(st.Missing, "\n"), "not in a mount namespace of its own") {
		t.Errorf("status %+v, want the mount namespace reported missing", st)
	}
	if !strings.Contains(strings.Join(st.Unprotected, "\n"), f.root+"/.git/hooks: under a writable path") {
		t.Errorf("Unprotected = %q, want .git/hooks listed", st.Unprotected)
	}
	if got := mountinfo(t); got != hostMounts {
		t.Errorf("the host mount namespace changed")
	}
}

func TestSpecErrors(t *testing.T) {
	for _, s := range []confine.Spec{{}, {Root: "relative"}, {Root: "/does/not/exist"}} {
		if _, err := confine.Apply(s); err == nil {
			t.Errorf("Apply(%+v) = nil error, want one", s)
		}
	}
}

// BenchmarkApply measures Apply in a fresh child per iteration (it cannot
// be undone) and reports its cost as apply-µs/op; ns/op is the whole child.
func BenchmarkApply(b *testing.B) {
	requireConfinement(b, true)
	base := b.TempDir()
	root, tmp := filepath.Join(base, "ws"), filepath.Join(base, "tmp")
	for _, d := range []string{root + "/.git/hooks", root + "/.gate", tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(root+"/.git/config", nil, 0o644); err != nil {
		b.Fatal(err)
	}
	spec := confine.Spec{Root: root, ReadOnly: []string{".git/hooks/", ".git/config", ".gate/", ".claude/"}}
	var total int64
	for b.Loop() {
		r := runConfined(b, tmp, true, childReq{Spec: spec})
		if r.err != nil {
			b.Fatalf("child: %v\n%s", r.err, r.stderr)
		}
		total += r.applyNS
	}
	b.ReportMetric(float64(total)/float64(b.N)/1e3, "apply-µs/op")
}

// TestGitCommitWithHook: benign git work is unaffected. A confined git
// commit writes objects, the index and refs under the pinned .git, and runs
// the (read-only) pre-commit hook, which may write in the work tree.
func TestGitCommitWithHook(t *testing.T) {
	requireConfinement(t, true)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("SKIP: git is needed for this test: %v", err)
	}
	base := t.TempDir()
	root, tmp := filepath.Join(base, "ws"), filepath.Join(base, "tmp")
	mkdir(t, tmp)
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	hook := "#!/bin/sh\necho hook-ran > hook.out\n"
	if err := os.WriteFile(root+"/.git/hooks/pre-commit", []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, root+"/a.txt", "a\n")
	spec := confine.Spec{Root: root, ReadOnly: []string{".git/hooks/", ".git/config"}}
	script := `cd "$1" && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -q -m first && git log --format=%s`
	r := runConfined(t, tmp, true, childReq{Spec: spec, Argv: []string{"bash", "-c", script, "bash", root}})
	if r.err != nil || strings.TrimSpace(r.stdout) != "first" {
		t.Fatalf("confined git commit: %v, stdout %q\n%s", r.err, r.stdout, r.stderr)
	}
	holds("ws/hook.out", "hook-ran\n")(t, &fixture{base: base})
	holds("ws/.git/hooks/pre-commit", hook)(t, &fixture{base: base})
}

// Secret paths are covered by empty mounts: a confined bash can neither
// read, list, write nor unmount them, whether they lie outside the root
// (gate's state directory) or inside it. An entry that holds the root is
// left readable and said so.
func TestHiddenPaths(t *testing.T) {
	requireConfinement(t, true)
	hostMounts := mountinfo(t)
	f := newFixture(t)
	state := filepath.Join(f.outside, "state")
	mkdir(t, state)
	write(t, state+"/token", "secret-token")
	write(t, f.root+"/key.pem", "secret-key")
	// A hidden directory in the root, with a protected path inside it:
	// the cover hides both, and no read-only mount is tried beneath it.
	mkdir(t, f.root+"/hid/inner")
	write(t, f.root+"/hid/inner/secret.txt", "secret-inner")
	f.spec.ReadOnly = append(f.spec.ReadOnly, "hid/inner/")
	f.spec.Hidden = []string{state + "/", "key.pem", f.base, "missing/", "hid/"}
	script := fmt.Sprintf(`S=%q R=%q
cat "$S/token"; cat "$R/key.pem"; ls -A "$S"
echo forged > "$S/token"; echo forged > "$R/key.pem"
umount "$S"; umount -l "$R/key.pem"; cat "$S/token" "$R/key.pem"
cat "$R/file.txt"; cat "$R/hid/inner/secret.txt"; ls -A "$R/hid"
exit 0`, state, f.root)
	r := runConfined(t, f.tmp, true, childReq{Spec: f.spec, Dir: f.root, Argv: []string{"bash", "-c", script}})
	if r.err != nil {
		t.Fatalf("child: %v\n%s", r.err, r.stderr)
	}
	if strings.Contains(r.stdout, "secret") || strings.Contains(r.stdout, "token") {
		t.Errorf("a hidden path was read: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, original) {
		t.Errorf("the control file.txt was not read: %q (stderr %s)", r.stdout, r.stderr)
	}
	realRoot, _ := filepath.EvalSymlinks(f.root)
	realState, _ := filepath.EvalSymlinks(state)
	if got, want := r.status.Hidden, []string{realState, realRoot + "/hid", realRoot + "/key.pem"}; !slices.Equal(got, want) {
		t.Errorf("Hidden = %v, want %v", got, want)
	}
	if !slices.ContainsFunc(r.status.Unprotected, func(s string) bool { return strings.Contains(s, "holds the root") }) {
		t.Errorf("Unprotected = %v, want the entry that holds the root", r.status.Unprotected)
	}
	for p, want := range map[string]string{state + "/token": "secret-token", f.root + "/key.pem": "secret-key"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s was changed: %q %v", p, b, err)
		}
	}
	if got := mountinfo(t); got != hostMounts {
		t.Errorf("the host mount namespace changed")
	}
}
