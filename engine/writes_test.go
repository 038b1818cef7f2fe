package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWritesOutsideRootRealBash: programs that write outside the root
// through their own arguments (an output option, git's subcommands) ask,
// as a redirection there does; real bash, the compiler and git do write
// the file outside the root.
func TestWritesOutsideRootRealBash(t *testing.T) {
	const repo = "git init -q && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m one && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m two"
	for _, tc := range []struct {
		command, setup, tool, wrote string
	}{
		{"printf 'int main(void){return 0;}' > m.c && cc -o ../out m.c", "", "cc", "../out"},
		{"printf 'int main(void){return 0;}' > m.c && gcc m.c -o../out", "", "gcc", "../out"},
		{"printf 'int x;' > m.c && gcc -c m.c -MMD -MF ../out", "", "gcc", "../out"},
		{"printf 'int main(void){return 0;}' > m.c && cc -c m.c && ld -o ../out m.o 2>/dev/null; true", "", "ld", "../out"},
		{"git clone -q . ../out", repo, "git", "../out"},
		{"git clone -q -b master --depth 1 file://$PWD ../out", repo + " && git branch -qm master", "git", "../out"},
		{"mkdir sub && git -C sub clone -q .. ../../out", repo, "git", "../out"},
		{"git worktree add -q ../out", repo, "git", "../out"},
		{"git bundle create ../out HEAD 2>/dev/null", repo, "git", "../out"},
		{"git archive -o ../out HEAD", repo, "git", "../out"},
		{"git archive --output=../out HEAD", repo, "git", "../out"},
		{"git format-patch -q -o ../out HEAD~1", repo, "git", "../out"},
		{"git log --output ../out", repo, "git", "../out"},
		{"git init -q ../out", "", "git", "../out"},
		{"git config -f ../out a.b c", "", "git", "../out"},
		{"git config set --file ../out a.b c 2>/dev/null || git config --file ../out a.b c", "", "git", "../out"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, tc.setup)
			if d := r.decide(tc.command); d.Decision == Allow || !hasCode(d, CodePathOutsideRoot) {
				t.Errorf("decision %+v, want %s", d, CodePathOutsideRoot)
			}
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tc.tool)
			}
			if out := r.run(tc.command, "GIT_CONFIG_NOSYSTEM=1"); !r.exists(tc.wrote) {
				t.Errorf("run by bash, the command did not write %s outside the root (%s): the case tests nothing", tc.wrote, out)
			}
		})
	}
}

// TestWritesByGitReadsStayAllowed: the same subcommands and options that
// only read, or write inside the root, stay allowed.
func TestWritesByGitReadsStayAllowed(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	for _, c := range []string{
		"git clone -q https://example.invalid/x.git",
		"git clone -q https://example.invalid/x.git y",
		"git -C sub clone -q https://example.invalid/x.git y",
		"git worktree list",
		"git worktree add ../w", // asks: see TestWritesOutsideRootRealBash
		"git bundle verify ../x.bundle",
		"git config -f ../x.cfg --get a.b",
		"git config -f ../x.cfg a.b",
		"git config --file=../x.cfg --list",
		"git config get --file ../x.cfg a.b",
		"git log --oneline -5",
		"git format-patch -o patches HEAD~1",
	} {
		d, err := e.Decide(t.Context(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		want := Allow
		if c == "git worktree add ../w" {
			want = Ask
		}
		if d.Decision != want {
			t.Errorf("%s: %+v, want %s", c, d, want)
		}
	}
}

// TestGitElsewhereRealBash: git subcommands run in a repository outside
// the root (git -C DIR, --git-dir DIR, after cd) write that repository:
// with a remote that is a local path, they move its refs as the excluded
// git push would. They ask; real git does move the remote's refs.
func TestGitElsewhereRealBash(t *testing.T) {
	const setup = "git init -q && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m one && " +
		"git init -q --bare ../remote.git && git push -q ../remote.git HEAD:refs/heads/main"
	for _, command := range []string{
		"git -C ../remote.git branch evil main",
		"git -C ../remote.git tag evil main",
		"git --git-dir=../remote.git update-ref refs/heads/evil main",
		"git --git-dir ../remote.git symbolic-ref HEAD refs/heads/evil",
		"git -C ../remote.git fetch -q \"$PWD\" HEAD:refs/heads/evil",
		"cd ../remote.git && git fetch -q \"$OLDPWD\" HEAD:refs/heads/evil",
		"cd .. && git -C remote.git branch -m main evil",
		"git -C .. -C remote.git update-ref -d refs/heads/main",
	} {
		t.Run(command, func(t *testing.T) {
			r := newRealBash(t, setup)
			if d := r.decide(command); d.Decision == Allow || !hasCode(d, CodePathOutsideRoot) {
				t.Errorf("decision %+v, want %s", d, CodePathOutsideRoot)
			}
			refs := func() string {
				out, _ := exec.Command("git", "-C", filepath.Join(r.root, "..", "remote.git"), "for-each-ref").CombinedOutput()
				out2, _ := exec.Command("git", "-C", filepath.Join(r.root, "..", "remote.git"), "symbolic-ref", "HEAD").CombinedOutput()
				return string(out) + string(out2)
			}
			before := refs()
			if out := r.run(command, "GIT_CONFIG_NOSYSTEM=1"); refs() == before {
				t.Errorf("run by bash, the command did not change the remote's refs (%s): the case tests nothing", out)
			}
		})
	}
	// Reading a repository elsewhere, and working in one inside the root,
	// stay allowed.
	e := newTestEngine(t, exclude("run_shell_command(git push)"))
	if err := os.Mkdir(filepath.Join(e.resolver.Root(), "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{
		"git -C ../other log --oneline -3",
		"git --git-dir=../other/.git status",
		"cd ../other && git diff HEAD~1",
		"git -C sub commit -m x",
		"cd sub && git add . && git commit -m x",
		"git status",
	} {
		d, err := e.Decide(t.Context(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != Allow {
			t.Errorf("%s: %+v, want allow", c, d)
		}
	}
}
