package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("SKIP: %s is not installed: %v", name, err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// An Exec as the supervisor reads it: exe is the file the kernel ran.
func execOf(exe string, argv ...string) Exec {
	return Exec{Program: exe, Exe: exe, Argv: argv, Cwd: "/", PID: 10, PPID: 9, Depth: 1, ParentProgram: "/usr/bin/bash"}
}

func byShell(x Exec) Exec { x.ByShell = true; return x }

// Exec-time decisions with the embedded policies, on real files.
func TestDecideExec(t *testing.T) {
	rm, ls, git := lookPath(t, "rm"), lookPath(t, "ls"), lookPath(t, "git")
	dir := t.TempDir()
	// A copy of rm under another name is rm.
	copyRm := filepath.Join(dir, "tidy")
	bs, err := os.ReadFile(rm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyRm, bs, 0o755); err != nil {
		t.Fatal(err)
	}
	// A copy with bytes appended is rm too: the same GNU build ID.
	changedRm := filepath.Join(dir, "sweep")
	if err := os.WriteFile(changedRm, append(bs, 'x'), 0o755); err != nil {
		t.Fatal(err)
	}
	if gnuBuildID(rm) == nil {
		t.Log("SKIP (one row): rm has no GNU build ID note here")
		changedRm = copyRm
	}
	script := filepath.Join(dir, "deploy")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho deploy\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	core := func(entries ...string) Settings { return Settings{Core: entries, ApprovalMode: ApprovalYolo} }
	for _, tc := range []struct {
		name     string
		settings Settings
		exec     Exec
		decision string
		code     string
	}{
		{"excluded", exclude("run_shell_command(rm)"), execOf(rm, "rm", "-rf", "build"), Deny, "command_excluded"},
		{"argv[0] lies (BASH_CMDS)", exclude("run_shell_command(rm)"), byShell(execOf(rm, "ls", "victim")), Deny, "command_excluded"},
		{"a copy under another name", exclude("run_shell_command(rm)"), execOf(copyRm, "tidy", "victim"), Deny, "command_excluded"},
		{"a copy with bytes appended", exclude("run_shell_command(rm)"), execOf(changedRm, "sweep", "victim"), Deny, "command_excluded"},
		{"not excluded", exclude("run_shell_command(rm)"), execOf(ls, "ls", "-la"), Allow, "allowed"},
		{"words and options", exclude("run_shell_command(git push)"), execOf(git, "git", "-C", "repo", "push", "origin"), Deny, "command_excluded"},
		{"other subcommand", exclude("run_shell_command(git push)"), execOf(git, "git", "status"), Allow, "allowed"},
		{"git alias runs git push", exclude("run_shell_command(git push)"), execOf(git, "/usr/lib/git-core/git", "push", "-q", "origin", "main"), Deny, "command_excluded"},
		{"a script by its path", exclude("run_shell_command(deploy)"),
			Exec{Program: script, Exe: "/usr/bin/dash", Script: script, Argv: []string{"/bin/sh", script, "now"}, Cwd: dir}, Deny, "command_excluded"},
		{"the program ld.so loads", exclude("run_shell_command(rm)"),
			Exec{Program: rm, Exe: "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", Loaded: rm, Argv: []string{"/lib64/ld-linux-x86-64.so.2", rm, "victim"}, Cwd: "/"}, Deny, "command_excluded"},
		{"allowlist: listed", core("run_shell_command(ls)"), byShell(execOf(ls, "ls", "-la")), Allow, "allowed"},
		{"allowlist: argv[0] lies", core("run_shell_command(ls)"), byShell(execOf(rm, "ls", "victim")), Deny, "command_not_allowed"},
		{"allowlist: not by the shell", core("run_shell_command(make)"), execOf(rm, "rm", "-f", "x.o"), Allow, "allowed"},
		{"allowlist: a transparent wrapper", core("run_shell_command(ls)"), byShell(execOf(lookPath(t, "env"), "env", "ls")), Allow, "allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, tc.settings)
			ec, err := e.ExecCall(nil)
			if err != nil {
				t.Fatal(err)
			}
			d := e.DecideExec(context.Background(), ec, tc.exec)
			if d.Decision != tc.decision || d.Reasons[0].Code != tc.code {
				t.Fatalf("decided %+v, want %s %s (facts %+v)", d, tc.decision, tc.code, e.ExecFacts(tc.exec))
			}
		})
	}
}

// A program found on PATH under another name (python3 for python3.11) is
// matched by the name the command used.
func TestExecNames(t *testing.T) {
	py := lookPath(t, "python3")
	e := newTestEngine(t, Settings{Core: []string{"run_shell_command(python3)"}, ApprovalMode: ApprovalYolo})
	f := e.ExecFacts(byShell(execOf(py, "python3", "-m", "json.tool")))
	if !slices.Contains(f.Names, "python3") {
		t.Fatalf("names %q", f.Names)
	}
	if d := e.DecideExec(context.Background(), nil, byShell(execOf(py, "python3", "x.py"))); d.Decision != Allow {
		t.Fatalf("decided %+v", d)
	}
}

// The exec-time decision fails closed like the call's.
func TestDecideExecFailsClosed(t *testing.T) {
	e := newTestEngine(t, exclude(), writePolicy(t, `package gate.exec.rules.broken

deny contains {"code": "x", "message": sprintf("%d", [to_number("x")])} if true
`))
	d := e.DecideExec(context.Background(), nil, execOf("/bin/true", "true"))
	if d.Decision != Deny || d.Reasons[0].Code != string(CodePolicyError) {
		t.Fatalf("decided %+v", d)
	}
	if _, err := New(context.Background(), Options{Settings: exclude(), Root: t.TempDir(), PolicyDirs: []string{writePolicy(t, "package gate.exec\n\ndecision := {\"decision\": \"allow\"}\n")}}); err == nil {
		t.Fatal("a policy redefining data.gate.exec.decision was loaded")
	}
}

// The exec-time input built as an OPA value is the JSON form of ExecInput.
func TestExecInputValueMatchesJSON(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	in := ExecInput{Exec: e.ExecFacts(Exec{Program: "/usr/bin/rm", Exe: "/usr/bin/rm", Loaded: "/x", Argv: []string{"rm", "-rf", "b"}, Cwd: "/w",
		PID: 3, PPID: 2, Depth: 1, ParentProgram: "/usr/bin/make", ByShell: true}), Layers: []string{"static", "exec"}, SettingsKey: "k"}
	in.Exec.Identity = "rm"
	got, err := execInputValue(&in, nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.ValueFromReader(bytes.NewReader(bs))
	if err != nil {
		t.Fatal(err)
	}
	if got.Compare(want) != 0 {
		t.Fatalf("value %v\nJSON  %v", got, want)
	}
}
