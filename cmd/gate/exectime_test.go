package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/supervise"
)

// needExecLayer skips, loudly, where the exec-time layer cannot run.
func needExecLayer(t *testing.T) {
	t.Helper()
	if ok, why := supervise.Available(); !ok {
		t.Skipf("SKIP: exec-time supervision is not available on this machine: %s", why)
	}
}

func needProgram(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("SKIP: %s is not installed", n)
		}
	}
}

// harmFixture is a workspace like the conformance harm check's: a victim
// file, a Makefile and a package.json whose clean targets run rm, and a git
// repository whose bare origin is one commit behind, with an alias p for
// push in its configuration.
type harmFixture struct {
	root, origin, settings string
}

func newHarmFixture(t *testing.T, exclude ...string) *harmFixture {
	t.Helper()
	needProgram(t, "git")
	base := t.TempDir()
	f := &harmFixture{root: filepath.Join(base, "repo"), origin: filepath.Join(base, "origin.git"), settings: filepath.Join(base, "settings.json")}
	if err := os.MkdirAll(filepath.Join(f.root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(f.root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("victim.txt", "victim\n")
	// Scripts the static layer cannot read into: one runs rm, the other
	// runs rm under the name ls (what BASH_CMDS[ls]=/bin/rm does in bash).
	write("clean.py", "import os\nos.system('rm victim.txt')\n")
	write("lie.py", "import os\nos.execv('/bin/rm', ['ls', 'victim.txt'])\n")
	write("build/out.o", "obj\n")
	write("shred.py", "import subprocess\nsubprocess.run(['shred', '-u', 'victim.txt'])\n")
	write("Makefile", "all:\n\techo built\nclean:\n\trm -rf build victim.txt\n"+
		"unlink:\n\tunlink victim.txt\nprune:\n\tfind . -name victim.txt -delete\n")
	write("package.json", `{"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok", "clean": "rm -rf build victim.txt"}}`+"\n")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = f.root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+base)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main", ".")
	git("config", "user.email", "a@b")
	git("config", "user.name", "a")
	git("add", "-A")
	git("commit", "-qm", "init")
	git("init", "-q", "--bare", f.origin)
	git("remote", "add", "origin", f.origin)
	git("push", "-q", "origin", "main")
	write("work.txt", "work\n")
	git("add", "work.txt")
	git("commit", "-qm", "work")
	git("config", "alias.p", "push")
	entries := make([]string, len(exclude))
	for i, e := range exclude {
		entries[i] = "run_shell_command(" + e + ")"
	}
	bs, _ := json.Marshal(map[string]any{"tools": map[string]any{"exclude": entries}})
	if err := os.WriteFile(f.settings, bs, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *harmFixture) victimSurvives(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(f.root, "victim.txt")); err != nil {
		t.Fatalf("victim.txt is gone: %v", err)
	}
}

func (f *harmFixture) originRef(t *testing.T) string {
	t.Helper()
	bs, err := exec.Command("git", "--git-dir", f.origin, "rev-parse", "main").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(bs))
}

// gateExec runs a command through gate exec in yolo mode and returns its
// JSON result.
func (f *harmFixture) gateExec(t *testing.T, command string, extra ...string) map[string]any {
	t.Helper()
	gateBin, err := exec.LookPath("gate")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"exec", "--settings", f.settings, "--root", f.root, "--approval-mode", "yolo", "--output", "json", "--timeout", "60s", "--command", command}, extra...)
	cmd := exec.Command(gateBin, args...)
	cmd.Dir = f.root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+filepath.Dir(f.root))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("gate exec %q: %v\nstdout %s\nstderr %s", command, err, stdout.String(), stderr.String())
	}
	return out
}

// stoppedAtExec runs a command the static layer allows through gate exec:
// the victim survives, and the result lists blocked, killed at exec time.
func (f *harmFixture) stoppedAtExec(t *testing.T, command, blocked string) {
	t.Helper()
	out := f.gateExec(t, command)
	if d := out["decision"].(map[string]any)["decision"]; d != "allow" {
		t.Fatalf("the static layer decided %v: this case tests the exec layer", out["decision"])
	}
	f.victimSurvives(t)
	if got := blockedPrograms(out); !strings.Contains(strings.Join(got, " "), blocked) {
		t.Fatalf("blocked %q, want %s; result %v", got, blocked, out["result"])
	}
}

// blockedPrograms lists the base names of the programs a result's blocked
// list holds.
func blockedPrograms(out map[string]any) []string {
	res, _ := out["result"].(map[string]any)
	list, _ := res["blocked"].([]any)
	var names []string
	for _, b := range list {
		m, _ := b.(map[string]any)
		p, _ := m["program"].(string)
		names = append(names, filepath.Base(p))
	}
	return names
}

// Commands the static layer lets through, whose harm only happens inside a
// program it cannot see into, are stopped at exec time: the excluded
// program is killed before it runs, and the harm does not happen.
func TestExecTimeStopsWhatStaticMisses(t *testing.T) {
	needExecLayer(t)
	for _, tc := range []struct {
		name, command string
		need          []string
		blocked       string
	}{
		{"make clean", "make clean", []string{"make"}, "rm"},
		{"npm run clean", "npm run clean", []string{"npm"}, "rm"},
		{"a script calling rm", "python3 clean.py", []string{"python3"}, "rm"},
		{"argv[0] that lies (as BASH_CMDS does)", "python3 lie.py", []string{"python3"}, "rm"},
		{"setsid, in the background", "setsid make clean & sleep 1", []string{"setsid", "make"}, "rm"},
		// Programs with the same effect as rm (data.gate.equivalents) ask
		// when they really run; nobody can answer gate exec here.
		{"make running unlink", "make unlink", []string{"make"}, "unlink"},
		{"make running find -delete", "make prune", []string{"make"}, "find"},
		{"a script running shred -u", "python3 shred.py", []string{"python3", "shred"}, "shred"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needProgram(t, tc.need...)
			f := newHarmFixture(t, "rm", "git push")
			f.stoppedAtExec(t, tc.command, tc.blocked)
		})
	}
	t.Run("git alias for push", func(t *testing.T) {
		f := newHarmFixture(t, "rm", "git push")
		before := f.originRef(t)
		out := f.gateExec(t, "git p -q origin main")
		if d := out["decision"].(map[string]any)["decision"]; d != "allow" {
			t.Fatalf("the static layer decided %v", out["decision"])
		}
		if after := f.originRef(t); after != before {
			t.Fatalf("origin moved from %s to %s", before, after)
		}
		if got := blockedPrograms(out); len(got) == 0 {
			t.Fatalf("nothing blocked; result %v", out["result"])
		}
	})
}

// rt30: with help.autocorrect set (here by GIT_CONFIG_COUNT, in a script
// of the project's), git runs push for psuh in the same process: the exec
// layer reads the misspelled command as git would correct it.
func TestExecTimeGitAutocorrect(t *testing.T) {
	needExecLayer(t)
	f := newHarmFixture(t, "rm", "git push")
	// a remote inside the root, which the fs layer lets the push write
	inner := filepath.Join(f.root, "inner.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", inner).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	script := "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=help.autocorrect GIT_CONFIG_VALUE_0=immediate\ngit psuh -q ./inner.git HEAD:refs/heads/pwn\n"
	if err := os.WriteFile(filepath.Join(f.root, "ac.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out := f.gateExec(t, "bash ac.sh")
	if d := out["decision"].(map[string]any)["decision"]; d != "allow" {
		t.Fatalf("the static layer decided %v: this case tests the exec layer", out["decision"])
	}
	cmd := exec.Command("git", "--git-dir", inner, "rev-parse", "--verify", "-q", "refs/heads/pwn")
	if err := cmd.Run(); err == nil {
		t.Fatalf("origin has refs/heads/pwn; result %v", out["result"])
	}
	if got := blockedPrograms(out); len(got) == 0 {
		t.Fatalf("nothing blocked; result %v", out["result"])
	}
}

// A copy of an excluded program changed so that its content differs (bytes
// appended) is still that program (its build ID), and one run from memory
// (memfd, whose path names no file) is read where the kernel loaded it.
func TestExecTimeKnowsChangedCopies(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "make", "python3")
	rm, err := exec.LookPath("rm")
	if err != nil {
		t.Fatal(err)
	}
	bs, err := os.ReadFile(rm)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(bs), "GNU\x00") {
		t.Skip("SKIP: rm has no GNU build ID note on this machine")
	}
	for _, tc := range []struct {
		name, command, blocked string
	}{
		{"a copy with a byte appended, run by make", "make -s -f tidy.mk", "tidy"},
		{"rm run from a memfd", "python3 memfd.py", "memfd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHarmFixture(t, "rm")
			write := func(name string, content []byte, mode os.FileMode) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(f.root, name), content, mode); err != nil {
					t.Fatal(err)
				}
			}
			write("tidy", append(append([]byte{}, bs...), 'x'), 0o755)
			write("tidy.mk", []byte("all:\n\t./tidy -f victim.txt\n"), 0o644)
			write("memfd.py", []byte("import os\nfd = os.memfd_create('tidy', 0)\nos.write(fd, open('"+rm+"', 'rb').read())\nos.execv('/proc/self/fd/%d' % fd, ['tidy', 'victim.txt'])\n"), 0o644)
			f.stoppedAtExec(t, tc.command, tc.blocked)
		})
	}
}

// rt29: a #! script whose interpreter is rm runs rm with the script's path
// and the arguments (the interpreter is decided as well as the script),
// and a process that asks for a child the tracer is not attached to
// (clone with CLONE_UNTRACED) does not get one. Each command is one the
// static layer allows: the files are the project's, made before.
func TestExecTimeCannotBeSidestepped(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3")
	clone := map[string]int{"amd64": 56, "arm64": 220}[runtime.GOARCH]
	if clone == 0 {
		t.Skip("SKIP: no clone number for " + runtime.GOARCH)
	}
	for _, tc := range []struct {
		name, file, content, command, blocked string
	}{
		{"#!/bin/rm", "x", "#!/bin/rm\n", "./x victim.txt", "x"},
		{"#!/bin/rm -f", "x", "#!/bin/rm -f\n", "./x victim.txt", "x"},
		// rt30: the loader under another name loads rm (a script of the
		// project's runs it: the static layer does not read into it)
		{"a copy of ld.so", "myld", "", "bash run.sh", "rm"},
		{"a copy of ld.so with a byte appended", "myld+", "", "bash run.sh", "rm"},
		{"clone(CLONE_UNTRACED)", "u.py", fmt.Sprintf("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"+
			"pid = libc.syscall(%d, 0x00800000 | 17, 0, 0, 0, 0)\nif pid == 0:\n    os.execv('/bin/rm', ['rm', 'victim.txt'])\n"+
			"print('clone', pid, ctypes.get_errno(), flush=True)\nif pid > 0:\n    os.waitpid(pid, 0)\n", clone), "python3 u.py; sleep 0.5", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHarmFixture(t, "rm", "git push")
			if err := os.WriteFile(filepath.Join(f.root, tc.file), []byte(tc.content), 0o755); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tc.file, "myld") {
				// the machine's loader, copied under another name
				loaders, _ := filepath.Glob("/lib64/ld-linux*.so*")
				more, _ := filepath.Glob("/lib/*/ld-linux*.so*")
				if loaders = append(loaders, more...); len(loaders) == 0 {
					t.Skip("SKIP: no glibc loader on this machine")
				}
				bs, err := os.ReadFile(loaders[0])
				if err != nil {
					t.Fatal(err)
				}
				if tc.file == "myld+" {
					bs = append(bs, 'x') // another size, another hash
				}
				if err := os.WriteFile(filepath.Join(f.root, "myld"), bs, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(f.root, "run.sh"), []byte("./myld /usr/bin/rm victim.txt\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.blocked != "" {
				f.stoppedAtExec(t, tc.command, tc.blocked)
				return
			}
			out := f.gateExec(t, tc.command)
			if d := out["decision"].(map[string]any)["decision"]; d != "allow" {
				t.Fatalf("the static layer decided %v: this case tests the exec layer", out["decision"])
			}
			f.victimSurvives(t)
			if res, _ := out["result"].(map[string]any); !strings.Contains(fmt.Sprint(res["stdout"]), "clone -1 1") {
				t.Fatalf("clone was not refused with EPERM: %v", res)
			}
		})
	}
}

// The same commands without an exclude entry run as they would without
// gate: the exec layer changes nothing that is allowed.
func TestExecTimeLeavesAllowedWorkAlone(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "make")
	f := newHarmFixture(t, "git push")
	out := f.gateExec(t, "make clean && echo done")
	res := out["result"].(map[string]any)
	if res["stdout"] != "rm -rf build victim.txt\ndone\n" || res["exit_code"] != float64(0) || len(blockedPrograms(out)) != 0 {
		t.Fatalf("result %v", res)
	}
	if _, err := os.Stat(filepath.Join(f.root, "victim.txt")); !os.IsNotExist(err) {
		t.Fatalf("make clean did not run: %v", err)
	}
}

// Writes outside the root and to protected paths fail in the kernel.
func TestFilesystemConfinement(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3")
	if st := confine.Probe(); st.Landlock == 0 {
		t.Skipf("SKIP: Landlock is not available on this machine: %v", st.Missing)
	}
	f := newHarmFixture(t, "rm")
	outside := filepath.Join(filepath.Dir(f.root), "outside.txt")
	hook := filepath.Join(f.root, ".git", "hooks", "pre-commit")
	script := `import sys
for p in sys.argv[1:]:
    try:
        open(p, "w").write("pwned\n")
        print("wrote", p)
    except OSError as e:
        print("refused", p, e.strerror)
`
	if err := os.WriteFile(filepath.Join(f.root, "w.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out := f.gateExec(t, "python3 w.py "+outside+" "+hook+" .git/config inside.txt")
	res := out["result"].(map[string]any)
	stdout, _ := res["stdout"].(string)
	if !strings.Contains(stdout, "refused "+outside) || !strings.Contains(stdout, "refused "+hook) ||
		!strings.Contains(stdout, "refused .git/config") || !strings.Contains(stdout, "wrote inside.txt") {
		t.Fatalf("stdout %q", stdout)
	}
	for _, p := range []string{outside, hook} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s was written: %v", p, err)
		}
	}
	// rt29: /dev/shm is writable (shared memory) but the machine's is
	// not: where the command has a mount namespace, it has its own
	if st := confine.Probe(); !st.MountNS {
		t.Logf("SKIPPED the /dev/shm part: no private mount namespace here: %v", st.Missing)
		return
	}
	shm := filepath.Join("/dev/shm", "gate-test-"+filepath.Base(filepath.Dir(filepath.Dir(f.root))))
	t.Cleanup(func() { os.Remove(shm) })
	out = f.gateExec(t, "python3 w.py "+shm)
	if stdout, _ := out["result"].(map[string]any)["stdout"].(string); !strings.Contains(stdout, "wrote "+shm) {
		t.Fatalf("shared memory does not work under confinement: %q", stdout)
	}
	if _, err := os.Stat(shm); !os.IsNotExist(err) {
		t.Fatalf("%s was written in the machine's /dev/shm: %v", shm, err)
	}
}

// rt29: the fs layer protects the configuration and hooks of the
// repositories inside the root too: a nested work tree (git status at the
// root ran core.fsmonitor from sub/.git/config) and a submodule's git
// directory under .git/modules.
func TestFilesystemConfinementNestedRepositories(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "python3")
	if st := confine.Probe(); st.Landlock == 0 || !st.MountNS {
		t.Skipf("SKIP: Landlock with a private mount namespace is not available on this machine: %v", st.Missing)
	}
	f := newHarmFixture(t, "rm")
	for _, c := range [][]string{{"init", "-q", "sub"}, {"init", "-q", "--bare", ".git/modules/m"}} {
		cmd := exec.Command("git", c...)
		cmd.Dir = f.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", c, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(f.root, "sub", ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	// the paths are in the script, where the static layer does not look
	targets := []string{"sub/.git/config", "sub/.git/hooks/pre-commit", ".git/modules/m/config", ".git/modules/m/hooks/post-checkout"}
	script := `for p in ["` + strings.Join(targets, `", "`) + `", "sub/file.txt"]:
    try:
        open(p, "a").write("[core]\n\tfsmonitor = touch pwned\n")
        print("wrote", p)
    except OSError as e:
        print("refused", p, e.strerror)
`
	if err := os.WriteFile(filepath.Join(f.root, "nest.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{}
	for _, p := range targets {
		b, _ := os.ReadFile(filepath.Join(f.root, p))
		before[p] = string(b)
	}
	out := f.gateExec(t, "python3 nest.py")
	if d := out["decision"].(map[string]any)["decision"]; d != "allow" {
		t.Fatalf("the static layer decided %v: this case tests the fs layer", out["decision"])
	}
	stdout, _ := out["result"].(map[string]any)["stdout"].(string)
	for _, p := range targets {
		if !strings.Contains(stdout, "refused "+p) {
			t.Errorf("%s not refused: %q", p, stdout)
		}
		if b, _ := os.ReadFile(filepath.Join(f.root, p)); string(b) != before[p] {
			t.Errorf("%s changed", p)
		}
	}
	if !strings.Contains(stdout, "wrote sub/file.txt") {
		t.Errorf("the nested work tree itself is not writable: %q", stdout)
	}
}

// gate hook claude-code --supervise rewrites an allowed Bash command to run
// under gate exec: Claude Code runs the rewritten command (updatedInput),
// gets the command's own output and exit status, and what the static
// decision could not see is still stopped at exec time.
func TestHookSupervise(t *testing.T) {
	needExecLayer(t)
	needProgram(t, "make")
	f := newHarmFixture(t, "rm")
	gateBin, err := exec.LookPath("gate")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		command, stdout string
		exit            int
		victim          bool
	}{
		{`echo "it's fine"; exit 3`, "it's fine\n", 3, true},
		{"make clean; echo after", "rm -rf build victim.txt\nafter\n", 0, true},
	} {
		payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": f.root,
			"tool_input": map[string]any{"command": tc.command, "description": "test"}})
		hook := exec.Command(gateBin, "hook", "claude-code", "--supervise", "--settings", f.settings, "--approval-mode", "yolo")
		hook.Dir = f.root
		hook.Stdin = bytes.NewReader(payload)
		out, err := hook.Output()
		if err != nil {
			t.Fatalf("hook: %v", err)
		}
		var answer struct {
			HookSpecificOutput struct {
				PermissionDecision string         `json:"permissionDecision"`
				UpdatedInput       map[string]any `json:"updatedInput"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &answer); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		h := answer.HookSpecificOutput
		rewritten, _ := h.UpdatedInput["command"].(string)
		if h.PermissionDecision != "allow" || h.UpdatedInput["description"] != "test" || !strings.Contains(rewritten, " exec ") {
			t.Fatalf("answer %s", out)
		}
		// What Claude Code does with the rewritten input.
		run := exec.Command("bash", "-c", rewritten)
		run.Dir = f.root
		var stdout bytes.Buffer
		run.Stdout = &stdout
		err = run.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if stdout.String() != tc.stdout || code != tc.exit {
			t.Fatalf("%q: stdout %q exit %d, want %q %d", tc.command, stdout.String(), code, tc.stdout, tc.exit)
		}
		f.victimSurvives(t)
	}
}
