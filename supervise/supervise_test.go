//go:build linux

package supervise

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary is its own helper: Wrap starts it as "self __supervise".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(HelperMain(HelperOptions{}))
	}
	os.Exit(m.Run())
}

func needSupervise(t testing.TB) {
	t.Helper()
	if ok, why := Available(); !ok {
		t.Skip("SKIP: exec supervision is not available on this machine: " + why)
	}
}

func need(t testing.TB, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		t.Skipf("SKIP: %s is not installed", prog)
	}
	return p
}

// recorder is a Decider that denies programs by base name and records
// every exec it is asked about.
type recorder struct {
	deny []string
	mu   sync.Mutex
	seen []Exec
}

func denying(names ...string) *recorder { return &recorder{deny: names} }

func (r *recorder) decide(_ context.Context, e Exec) Verdict {
	r.mu.Lock()
	r.seen = append(r.seen, e)
	r.mu.Unlock()
	if slices.Contains(r.deny, path.Base(e.Program)) {
		return Verdict{Reason: "excluded: " + path.Base(e.Program)}
	}
	return Verdict{Allow: true}
}

func (r *recorder) execs() []Exec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

type outcome struct {
	stdout, stderr string
	status         Status
	tree           *Tree
}

func self(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// outFile is a command's output in a file: written as the command writes,
// with no copy that could lag behind (as with a bytes.Buffer, copied
// until every process holding the pipe is gone).
type outFile struct{ f *os.File }

func newOut(t testing.TB) outFile {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return outFile{f}
}

func (o outFile) String() string {
	b, _ := os.ReadFile(o.f.Name())
	return string(b)
}

// start starts bash -c script in dir under supervision.
func start(t testing.TB, dir, script string, d Decider, opts *Options) (*Tree, outFile, outFile) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, stderr := newOut(t), newOut(t)
	cmd.Stdout, cmd.Stderr = stdout.f, stderr.f
	tree, err := Wrap(cmd, self(t), d, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = tree.Kill()
		<-tree.Done()
	})
	return tree, stdout, stderr
}

// run runs bash -c script in dir under supervision until its whole tree
// is gone.
func run(t testing.TB, dir, script string, d Decider) outcome {
	t.Helper()
	tree, stdout, stderr := start(t, dir, script, d, nil)
	st, err := tree.Wait()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-tree.Done():
	case <-time.After(time.Minute):
		t.Fatal("the tree did not end")
	}
	return outcome{stdout.String(), stderr.String(), st, tree}
}

func victim(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func survives(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

func blockedPrograms(tree *Tree) []string {
	b, _ := tree.Blocked()
	var names []string
	for _, x := range b {
		names = append(names, path.Base(x.Exec.Program))
	}
	return names
}

// The attacks of issue 13 that a static reading lets through: each runs
// for real, and rm must never run.
func TestExecDeniedBeforeItRuns(t *testing.T) {
	needSupervise(t)
	cases := []struct {
		name, script string
		needs        string
		files        map[string]string
	}{
		{name: "direct", script: "rm victim; echo after $?"},
		{name: "exec optimised", script: "rm victim"},
		{name: "BASH_CMDS", script: "BASH_CMDS[ls]=/bin/rm; ls victim; echo after $?"},
		{name: "setsid", script: "setsid sh -c 'rm victim'; echo after"},
		{name: "make clean", needs: "make", script: "make clean",
			files: map[string]string{"Makefile": "clean:\n\trm -f victim\n\tsh -c 'rm -f victim'\n"}},
		{name: "python os.system and subprocess", needs: "python3",
			script: "printf 'import os, subprocess\\nos.system(\"rm victim\")\\nsubprocess.run([\"rm\", \"victim\"])\\n' > x.py; python3 x.py"},
		{name: "script named rm", script: "printf '#!/bin/sh\\necho ran\\n' > rm; chmod +x rm; ./rm; echo after $?"},
		{name: "dynamic loader", script: "for l in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* /lib/ld-musl-*.so.*; do [ -e \"$l\" ] && exec \"$l\" --library-path /nowhere /bin/rm victim; done; echo no loader"},
		{name: "xargs", script: "echo victim | xargs -i rm {}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.needs != "" {
				need(t, c.needs)
			}
			dir := t.TempDir()
			v := victim(t, dir, "victim")
			for name, body := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := run(t, dir, c.script, denying("rm").decide)
			survives(t, v)
			if strings.Contains(out.stdout, "ran") || strings.Contains(out.stdout, "no loader") {
				t.Fatalf("unexpected output %q", out.stdout)
			}
			if got := blockedPrograms(out.tree); !slices.Contains(got, "rm") {
				t.Errorf("blocked = %v, want rm; stdout %q stderr %q", got, out.stdout, out.stderr)
			}
		})
	}
}

func TestExecFields(t *testing.T) {
	needSupervise(t)
	dir := t.TempDir()
	rec := denying("rm")
	script := "printf '#!/bin/sh -e\\necho s\\n' > s.sh; chmod +x s.sh; ./s.sh; BASH_CMDS[ls]=/bin/rm; ls nothing; (cat </dev/null; :)"
	out := run(t, dir, script, rec.decide)
	if out.status.ExitCode != 0 {
		t.Fatalf("status %v, stderr %q", out.status, out.stderr)
	}
	real, _ := filepath.EvalSymlinks(dir)
	byName := map[string]Exec{}
	for _, e := range rec.execs() {
		byName[path.Base(e.Program)] = e
	}
	s, ok := byName["s.sh"]
	if !ok || s.Script != filepath.Join(real, "s.sh") || path.Base(s.Exe) != "dash" && path.Base(s.Exe) != "bash" && path.Base(s.Exe) != "sh" {
		t.Errorf("script exec = %+v", s)
	}
	if !slices.Equal(s.Argv, []string{"/bin/sh", "-e", "./s.sh"}) || !s.ByShell || s.Depth != 1 || path.Base(s.ParentProgram) != "bash" {
		t.Errorf("script exec = %+v", s)
	}
	rm := byName["rm"]
	if rm.Argv[0] != "ls" || !rm.ByShell || rm.Cwd != real {
		t.Errorf("rm exec = %+v", rm)
	}
	cat := byName["cat"]
	if !cat.ByShell || cat.Depth != 2 {
		t.Errorf("cat in a subshell = %+v", cat)
	}
}

func TestNotByShell(t *testing.T) {
	needSupervise(t)
	need(t, "make")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte("all:\n\t@echo made; true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := denying()
	out := run(t, dir, "make", rec.decide)
	if out.stdout != "made\n" {
		t.Fatalf("stdout %q stderr %q", out.stdout, out.stderr)
	}
	for _, e := range rec.execs() {
		switch path.Base(e.Program) {
		case "make":
			if !e.ByShell {
				t.Errorf("make = %+v", e)
			}
		case "sh", "dash", "bash", "true":
			if e.ByShell || path.Base(e.ParentProgram) == "" {
				t.Errorf("%s under make = %+v", e.Program, e)
			}
		}
	}
}

// Benign commands behave exactly as without supervision.
func TestSameOutputAndStatus(t *testing.T) {
	needSupervise(t)
	dir := t.TempDir()
	for _, n := range []string{"a", "b c", "d"} {
		victim(t, dir, n)
	}
	for _, script := range []string{
		"ls; echo hi | cat",
		"ls -l nowhere; echo $?",
		"for i in 1 2 3; do echo $i; done | sort -r; exit 3",
		"echo out; echo err >&2; (exit 7)",
		// Job control: a stopped job stays stopped until SIGCONT
		// (group-stops are kept with PTRACE_LISTEN).
		`set -m; sleep 30 & p=$!; kill -STOP $p
		for i in $(seq 400); do jobs -l | grep -q Stopped && break; sleep 0.05; done; jobs
		sleep 0.2; jobs; kill -CONT $p
		for i in $(seq 400); do jobs -l | grep -q Running && break; sleep 0.05; done; jobs
		kill $p; wait $p; echo status $?`,
	} {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errorsAs(err, &ee) {
			t.Fatal(err)
		}
		out := run(t, dir, script, denying("rm").decide)
		if out.stdout != so.String() || out.stderr != se.String() || out.status.ExitCode != cmd.ProcessState.ExitCode() {
			t.Errorf("%q: supervised %q %q %v, bare %q %q %d", script, out.stdout, out.stderr, out.status, so.String(), se.String(), cmd.ProcessState.ExitCode())
		}
	}
}

func errorsAs(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}

func TestStatusPropagates(t *testing.T) {
	needSupervise(t)
	cases := []struct {
		script string
		want   Status
	}{
		{"exit 3", Status{ExitCode: 3}},
		{"kill -TERM $$", Status{ExitCode: -1, Signal: syscall.SIGTERM}},
		{"kill -SEGV $$", Status{ExitCode: -1, Signal: syscall.SIGSEGV}},
		{"rm x", Status{ExitCode: -1, Signal: syscall.SIGKILL}}, // exec'd in place, then killed
		{"rm x; exit $?", Status{ExitCode: 137}},
	}
	for _, c := range cases {
		out := run(t, t.TempDir(), c.script, denying("rm").decide)
		if out.status != c.want {
			t.Errorf("%q: status %v, want %v", c.script, out.status, c.want)
		}
		// The helper's own status mirrors the command's.
		ps := out.tree.cmd.ProcessState
		if ws := ps.Sys().(syscall.WaitStatus); c.want.Signal != 0 && ws.Signal() != c.want.Signal || c.want.Signal == 0 && ps.ExitCode() != c.want.ExitCode {
			t.Errorf("%q: helper ended with %v", c.script, ps)
		}
	}
}

// An ask holds the process stopped while the rest of the tree runs, until
// the answer comes.
func TestAskHoldsTheProcess(t *testing.T) {
	needSupervise(t)
	dir := t.TempDir()
	asked := make(chan Exec, 1)
	answer := make(chan Verdict)
	d := func(ctx context.Context, e Exec) Verdict {
		if path.Base(e.Program) != "touch" {
			return Verdict{Allow: true}
		}
		asked <- e
		select {
		case v := <-answer:
			return v
		case <-ctx.Done():
			return Verdict{Reason: "gone"}
		}
	}
	tree, stdout, _ := start(t, dir, "touch marker & echo other > other; wait; echo done", d, nil)
	var e Exec
	select {
	case e = <-asked:
	case <-time.After(time.Minute):
		t.Fatal("never asked")
	}
	// The other branch is not held up by the pending ask.
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(dir, "other")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rest of the tree was blocked by the ask")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
		t.Fatal("touch ran before its answer")
	}
	pids, err := tree.PIDs()
	if err != nil || !slices.Contains(pids, e.PID) {
		t.Fatalf("PIDs = %v, %v; want %d among them", pids, err, e.PID)
	}
	if st := procState(e.PID); st != "t" {
		t.Errorf("held process state %q, want t (traced stop)", st)
	}
	answer <- Verdict{Allow: true}
	st, err := tree.Wait()
	if err != nil || st.ExitCode != 0 || stdout.String() != "done\n" {
		t.Fatalf("%v %v %q", st, err, stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "marker")); err != nil {
		t.Error("touch did not run once allowed")
	}
}

// procState is the state letter in /proc/PID/stat, "" when gone.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+3 > len(s) {
		return ""
	}
	return s[i+2 : i+3]
}

func alive(pid int) bool { st := procState(pid); return st != "" && st != "Z" }

// The command ends when bash does; what it left running is listed and
// dies with the tree, setsid and double-forked processes included.
func TestKillTakesTheWholeTree(t *testing.T) {
	needSupervise(t)
	for _, how := range []string{"kill", "signal"} {
		t.Run(how, func(t *testing.T) {
			script := "setsid sh -c 'sleep 100; echo late' & (sh -c 'sleep 100 &' &) ; sleep 100 & echo started"
			tree, stdout, _ := start(t, t.TempDir(), script, denying().decide, nil)
			st, err := tree.Wait()
			if err != nil || st.ExitCode != 0 || stdout.String() != "started\n" {
				t.Fatalf("%v %v %q", st, err, stdout.String())
			}
			var pids []int
			for deadline := time.Now().Add(time.Minute); len(pids) < 4; {
				if pids, err = tree.PIDs(); err != nil {
					t.Fatal(err)
				}
				if time.Now().After(deadline) {
					t.Fatalf("PIDs = %v, want the three sleeps and setsid's sh", pids)
				}
				time.Sleep(10 * time.Millisecond)
			}
			select {
			case <-tree.Done():
				t.Fatal("the tree ended with its background processes")
			default:
			}
			if how == "kill" {
				err = tree.Kill()
			} else {
				err = tree.Signal(syscall.SIGTERM)
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-tree.Done():
			case <-time.After(time.Minute):
				t.Fatal("the tree survived")
			}
			for _, pid := range pids {
				for i := 0; alive(pid) && i < 100; i++ {
					time.Sleep(10 * time.Millisecond) // reaped by init
				}
				if alive(pid) {
					t.Errorf("process %d survived", pid)
				}
			}
		})
	}
}

func TestConcurrentTrees(t *testing.T) {
	needSupervise(t)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := t.TempDir()
			v := victim(t, dir, "victim")
			out := run(t, dir, "for j in 1 2 3; do /bin/true; done; echo "+strconv.Itoa(i)+"; rm victim", denying("rm").decide)
			survives(t, v)
			if out.stdout != strconv.Itoa(i)+"\n" || out.status.Signal != syscall.SIGKILL {
				t.Errorf("tree %d: %q %v", i, out.stdout, out.status)
			}
		}()
	}
	wg.Wait()
}

func TestDecideRootAndFailClosed(t *testing.T) {
	needSupervise(t)
	out := run(t, t.TempDir(), "echo never", func(context.Context, Exec) Verdict { panic("boom") })
	if out.stdout != "" {
		// Without DecideRoot the root runs; its echo is a builtin.
		if out.stdout != "never\n" {
			t.Fatalf("stdout %q", out.stdout)
		}
	}
	rec := denying("bash")
	tree, stdout, _ := start(t, t.TempDir(), "echo never", rec.decide, &Options{DecideRoot: true})
	st, err := tree.Wait()
	if err != nil || st.Signal != syscall.SIGKILL || stdout.String() != "" {
		t.Fatalf("denied root: %v %v %q", st, err, stdout.String())
	}
	if e := rec.execs(); len(e) != 1 || !e[0].Root {
		t.Errorf("root exec = %+v", e)
	}
	// A decider that panics denies.
	dir := t.TempDir()
	v := victim(t, dir, "victim")
	out = run(t, dir, "rm victim", func(context.Context, Exec) Verdict { panic("boom") })
	survives(t, v)
	if b, _ := out.tree.Blocked(); len(b) != 1 || !strings.Contains(b[0].Reason, "boom") {
		t.Errorf("blocked = %+v", b)
	}
}

func TestStartFailure(t *testing.T) {
	needSupervise(t)
	cmd := exec.Command("/nonexistent/prog")
	tree, err := Wrap(cmd, self(t), denying().decide, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Start(); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("start error %v", err)
	}
	if _, err := tree.Wait(); err == nil {
		t.Fatal("Wait after a failed start gave no error")
	}
}

// With a prefilter only the listed programs reach the decider; the
// others run at once and are observed.
func TestPrefilter(t *testing.T) {
	needSupervise(t)
	dir := t.TempDir()
	v := victim(t, dir, "victim")
	rec := denying("rm")
	var mu sync.Mutex
	var observed []string
	cmd := exec.Command("bash", "-c", "ls >/dev/null; echo x | cat; rm victim; echo $?")
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	tree, err := Wrap(cmd, self(t), rec.decide, &Options{
		Prefilter: &Prefilter{Names: []string{"rm"}},
		Observe: func(e Exec) {
			mu.Lock()
			observed = append(observed, path.Base(e.Program))
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Wait(); err != nil {
		t.Fatal(err)
	}
	<-tree.Done()
	survives(t, v)
	if stdout.String() != "x\n137\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	asked := rec.execs()
	if len(asked) != 1 || path.Base(asked[0].Program) != "rm" {
		t.Errorf("asked about %+v", asked)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(observed, "ls") || !slices.Contains(observed, "cat") || slices.Contains(observed, "rm") {
		t.Errorf("observed %v", observed)
	}
}

// Programs listed in Options.Transparent (wrappers, shells) run what they
// run on the shell's behalf: their execs, and their children's, are by the
// shell; other programs' are not.
func TestTransparentByShell(t *testing.T) {
	needSupervise(t)
	for _, tc := range []struct {
		name        string
		transparent []string
		want        bool
	}{
		{"listed", []string{"env", "xargs", "bash"}, true},
		{"not listed", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := denying()
			tree, _, _ := start(t, t.TempDir(), "env true; echo x | xargs true; bash -c '/bin/true; /bin/true'", rec.decide, &Options{Transparent: tc.transparent})
			if _, err := tree.Wait(); err != nil {
				t.Fatal(err)
			}
			<-tree.Done()
			n := 0
			for _, e := range rec.execs() {
				if path.Base(e.Program) != "true" {
					continue
				}
				n++
				if e.ByShell != tc.want {
					t.Errorf("true under %s: by_shell %v, want %v", path.Base(e.ParentProgram), e.ByShell, tc.want)
				}
			}
			if n != 4 {
				t.Fatalf("%d execs of true, want 4: %+v", n, rec.execs())
			}
		})
	}
}
