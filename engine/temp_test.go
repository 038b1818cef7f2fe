package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tempBash is a root, a temporary directory beside it (not holding it), a
// directory outside both, and an engine that excludes rm with that
// temporary directory.
type tempBash struct {
	*realBash
	temp, outside string
}

func newTempBash(t *testing.T, setup string) *tempBash {
	t.Helper()
	root, temp, outside, home := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	e, err := New(context.Background(), Options{Settings: exclude("run_shell_command(rm)"), Root: root, Home: home, TempDir: temp})
	if err != nil {
		t.Fatal(err)
	}
	if e.temp == "" {
		t.Fatalf("the temporary directory %s was not taken", temp)
	}
	tb := &tempBash{realBash: &realBash{t: t, e: e, root: e.resolver.Root()}, temp: e.temp, outside: outside}
	if setup != "" {
		tb.run("set -e; "+tb.expand(setup), "HOME="+home)
	}
	return tb
}

// expand replaces {T}, {O} and {R} in s with the temporary directory, the
// outside one and the root.
func (tb *tempBash) expand(s string) string {
	return strings.NewReplacer("{T}", tb.temp, "{O}", tb.outside, "{R}", tb.root).Replace(s)
}

func fileText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// TestTempDirWritesRealBash: below the temporary directory, which the fs
// layer lets a command write, a shell command writes without asking; its
// real run writes there only. What is refused anywhere stays refused
// there: a symlink or hard link leading elsewhere, a repository's hooks
// and configuration, a git directory by another name, the directory
// itself. Each refused row first shows, in real bash, the harm it does.
func TestTempDirWritesRealBash(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed")
	}
	for i, tc := range []struct{ command, want string }{
		{"echo x > {T}/a.txt", "a.txt"},
		{"sort victim.txt -o {T}/s.txt", "s.txt"},
		{"cp victim.txt {T}/c.txt && mv {T}/c.txt {T}/d.txt", "d.txt"},
		{"mkdir -p {T}/sub && echo y > {T}/sub/e.txt", "sub/e.txt"},
		{"sed -n p victim.txt > {T}/f.txt && sed -i s/v/w/ {T}/f.txt", "f.txt"},
	} {
		// short names: the directories are named after the test
		t.Run(fmt.Sprint("allowed", i), func(t *testing.T) {
			tb := newTempBash(t, "echo v > {R}/victim.txt")
			command := tb.expand(tc.command)
			if d := tb.decide(command); d.Decision != Allow {
				t.Fatalf("%q: decision %+v, want allow", command, d)
			}
			tb.run(command)
			if _, err := os.Stat(filepath.Join(tb.temp, tc.want)); err != nil {
				t.Errorf("run by bash, the command did not write %s: %v", tc.want, err)
			}
			if ents, _ := os.ReadDir(tb.outside); len(ents) != 0 {
				t.Errorf("run by bash, the command wrote %s", tb.outside)
			}
			if !tb.exists("victim.txt") {
				t.Error("run by bash, the command deleted victim.txt")
			}
		})
	}

	for _, tc := range []struct {
		name, setup, command string
		// harmed reports whether the real run did the harm.
		harmed func(tb *tempBash) bool
	}{
		{"symlink to a file outside", "echo o > {O}/target.txt; ln -s {O}/target.txt {T}/link",
			"echo x > {T}/link",
			func(tb *tempBash) bool { return fileText(tb.t, filepath.Join(tb.outside, "target.txt")) == "x\n" }},
		{"hard link to the root's git config", "git -C {R}/ init -q; ln {R}/.git/config {T}/hl",
			"echo '[alias] x = !touch pwned' >> {T}/hl",
			func(tb *tempBash) bool {
				return strings.Contains(fileText(tb.t, filepath.Join(tb.root, ".git/config")), "pwned")
			}},
		{"hook of a repository in the temporary directory", "git init -q {T}/repo",
			"printf '#!/bin/sh\\ntouch pwned\\n' > {T}/repo/.git/hooks/pre-commit",
			func(tb *tempBash) bool {
				return fileText(tb.t, filepath.Join(tb.temp, "repo/.git/hooks/pre-commit")) != ""
			}},
		{"configuration of a repository in the temporary directory", "git init -q {T}/repo",
			"cd {T}/repo && echo '[alias] x = !touch pwned' >> .git/config",
			func(tb *tempBash) bool {
				return strings.Contains(fileText(tb.t, filepath.Join(tb.temp, "repo/.git/config")), "pwned")
			}},
		{"a git directory by another name", "git init -q --bare {T}/b",
			"echo '[alias] x = !touch pwned' >> {T}/b/config",
			func(tb *tempBash) bool {
				return strings.Contains(fileText(tb.t, filepath.Join(tb.temp, "b/config")), "pwned")
			}},
		{"git in a git directory by another name an earlier call wrote", "mkdir -p {T}/b/objects {T}/b/refs; echo 'ref: refs/heads/main' > {T}/b/HEAD; printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = true\\n[alias]\\n\\tst = !touch {R}/pwned\\n' > {T}/b/config",
			"git -C {T}/b st",
			func(tb *tempBash) bool { return tb.exists("pwned") }},
		{"the temporary directory itself", "",
			"chmod 700 {T}",
			func(tb *tempBash) bool {
				fi, err := os.Stat(tb.temp)
				return err == nil && fi.Mode().Perm() == 0o700
			}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			tb := newTempBash(t, tc.setup)
			command := tb.expand(tc.command)
			if tc.name == "the temporary directory itself" {
				if err := os.Chmod(tb.temp, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// the harm is real: bash does it, in a copy of the setup
			other := newTempBash(t, tc.setup)
			if tc.name == "the temporary directory itself" {
				if err := os.Chmod(other.temp, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			other.run(other.expand(tc.command), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
			if !tc.harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", tc.command)
			}
			if d := tb.decide(command); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command)
			}
		})
	}
}

// TestTempDirNotTaken: a temporary directory that holds the root keeps
// the root's edge (../x is outside the workspace), one that holds the home
// directory or is / is none.
func TestTempDirNotTaken(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	root, home := filepath.Join(base, "ws", "root"), filepath.Join(base, "home", "u")
	for _, d := range []string{root, home, filepath.Join(base, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{
		filepath.Join(base, "tmp"):  filepath.Join(base, "tmp"),
		filepath.Join(base, "ws"):   "",
		root:                        "",
		filepath.Join(base, "home"): "",
		"/":                         "",
		"tmp":                       "",
		filepath.Join(base, "none"): "",
	} {
		if got := tempDir(dir, home, root); got != want {
			t.Errorf("tempDir(%s) = %q, want %q", dir, got, want)
		}
	}
	e, err := New(context.Background(), Options{Settings: exclude("run_shell_command(rm)"), Root: root, Home: home, TempDir: filepath.Join(base, "ws")})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Decide(context.Background(), shellCall("echo x > ../outside.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision == Allow {
		t.Errorf("a write beside a root in the temporary directory was allowed: %+v", d)
	}
}
