package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// find's output piped to xargs (find . -name '*.py' -print0 | xargs -0
// sed -i ...): gate walks the files find may print, as for find -exec, and
// judges each as a file xargs's command writes. Each harm row first shows,
// in real bash, that the command changes the mode of a file outside the
// root (victim, made 0644 beside it), then that gate refuses it: the names
// xargs is given are not find's names (split at blanks or newlines, an
// -exec's or a function's output, find's errors, another program's
// output, a list file), or they lead outside (a symlink, a directory
// changed into), or the tree changes before find walks it. The precision
// rows show that gate allows the plain forms and that they do what they
// say.
func TestFindPipedToXargsRealBash(t *testing.T) {
	for _, tc := range []struct {
		name, victim, setup, command string
	}{
		{"a name with a blank", "victim.txt", `mkdir -p "d {OUT}" && touch "d {OUT}/victim.txt"`,
			"find . -name victim.txt | xargs chmod 600"},
		{"a name with a newline", "victim.txt", `mkdir -p "d"$'\n'"{OUT}" && touch "d"$'\n'"{OUT}/victim.txt"`,
			"find . -name victim.txt | xargs chmod 600"},
		{"a name with a blank and -n1", "victim.txt", `mkdir -p "d {OUT}" && touch "d {OUT}/victim.txt"`,
			"find . -type f | xargs -n1 chmod 600"},
		{"a symlink to the victim", "victim.txt", "ln -s {OUT}/victim.txt l.txt",
			"find . -name '*.txt' -print0 | xargs -0 chmod 600"},
		{"an -exec's output joins find's", "victim.txt", "touch a.txt",
			`find . -name a.txt -exec echo {OUT}/victim.txt \; | xargs chmod 600`},
		{"-printf", "victim.txt", "touch a.txt",
			`find . -name a.txt -printf '{OUT}/victim.txt\n' | xargs chmod 600`},
		{"a function named find", "victim.txt", "touch a.txt",
			"find() { echo {OUT}/victim.txt; }; find . -name a.txt | xargs chmod 600"},
		{"find's errors through a pipe of both streams", "victim.txt:", "touch a.txt",
			"LC_ALL=C find . -newer {OUT}/victim.txt |& LC_ALL=C xargs chmod 600"},
		{"find's errors sent to its output", "victim.txt:", "touch a.txt",
			"LC_ALL=C find . -newer {OUT}/victim.txt 2>&1 | LC_ALL=C xargs chmod 600"},
		{"another program between", "victim.txt", "touch a.txt",
			"find . -name a.txt | echo {OUT}/victim.txt | xargs chmod 600"},
		{"xargs reads a list file", "victim.txt", "touch a.txt && echo {OUT}/victim.txt > list",
			"find . -name a.txt | xargs -a list chmod 600"},
		{"xargs in another directory", "victim.txt", "touch victim.txt",
			"find . -name victim.txt | (cd {OUT} && xargs chmod 600)"},
		{"a symlink made first", "victim.txt", "",
			"ln -s {OUT}/victim.txt l.txt; find . -name '*.txt' | xargs chmod 600"},
		{"-print0 read as lines", "victim.txt", `mkdir -p "d {OUT}" && touch "d {OUT}/victim.txt"`,
			"find . -name victim.txt -print0 | xargs chmod 600"},
		{"a name with a newline and -I", "victim.txt", `mkdir -p "d"$'\n'"{OUT}" && touch "d"$'\n'"{OUT}/victim.txt"`,
			"find . -name victim.txt | xargs -I{} chmod 600 {}"},
		{"-I and a word that holds more than the item", "victim.txt", "",
			"find . -maxdepth 0 | xargs -I{} chmod 600 {}/../{OUTNAME}/victim.txt"},
		{"-I{} then -L1, which turns -I off", "victim.txt", "touch a.txt && ln -s {OUT}/victim.txt '{}'",
			"find . -name a.txt | xargs -I{} -L1 chmod 600 {}"},
		{"--repl=R abbreviated, R inside a word", "victim.txt", "",
			"find . -maxdepth 0 | xargs --repl=R chmod 600 R/../{OUTNAME}/victim.txt"},
		{"-iR, R inside a word", "victim.txt", "",
			"find . -maxdepth 0 | xargs -iR chmod 600 R/../{OUTNAME}/victim.txt"},
		{"--max-a abbreviated with -I", "victim.txt", "touch a.txt",
			"find . -name a.txt | xargs -I{} --max-a 1 chmod 600 {} {OUT}/victim.txt"},
		// rt23, against the first version
		{"find -D help prints words", "victim.txt", "ln -s {OUT}/victim.txt tree",
			"find -D help . -name '*.txt' | xargs -n1 chmod 600"},
		{"a process substitution in find's assignment", "victim.txt", "touch a.txt",
			"X=>(echo {OUT}/victim.txt) find . -name a.txt | xargs chmod 600"},
		{"find defined in a function run first", "victim.txt", "touch a.txt",
			"g() { find() { echo {OUT}/victim.txt; }; }; g; find . -name a.txt | xargs chmod 600"},
		{"find defined later in a loop", "victim.txt", "touch a.txt",
			"for i in 1 2; do find . -name a.txt | xargs chmod 600; find() { echo {OUT}/victim.txt; }; done"},
		{"find defined after a trap", "victim.txt", "touch a.txt",
			"trap 'find . -name a.txt | xargs chmod 600' EXIT; find() { echo {OUT}/victim.txt; }"},
		{"find exported to bash -c", "victim.txt", "touch a.txt",
			`find() { echo {OUT}/victim.txt; }; export -f find; bash -c "find . -name a.txt | xargs chmod 600"`},
		{"chmod --rec through xargs", "victim.txt", "mkdir src && ln {OUT}/victim.txt src/h",
			"find . -type d -name src | xargs chmod --rec 600"},
		{"chmod --recu through -exec", "victim.txt", "mkdir src && ln {OUT}/victim.txt src/h",
			"find . -type d -name src -exec chmod --recu 600 {} +"},
		// the directory a loop's next round or a trap's action runs in
		{"a loop's next round after cd", "victim.txt", "touch victim.txt",
			"for i in 1 2; do chmod 600 victim.txt; cd {OUT}; done"},
		{"a loop's find after cd", "victim.txt", "touch victim.txt",
			"for i in 1 2; do find . -name victim.txt | xargs chmod 600; cd {OUT}; done"},
		{"a trap's action after cd", "victim.txt", "touch victim.txt",
			"trap 'chmod 600 victim.txt' EXIT; cd {OUT}"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			harmed := func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.outside(), tc.victim))
				if err != nil {
					t.Fatal(err)
				}
				return fi.Mode().Perm() != 0o644
			}
			prepare := func(r *realBash) string {
				v := filepath.Join(r.outside(), tc.victim)
				if err := os.WriteFile(v, []byte("v\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(v, 0o644); err != nil {
					t.Fatal(err)
				}
				fill := func(s string) string {
					s = strings.ReplaceAll(s, "{OUTNAME}", filepath.Base(r.outside()))
					return strings.ReplaceAll(s, "{OUT}", r.outside())
				}
				if tc.setup != "" {
					cmd := exec.Command("bash", "-c", "set -e; "+fill(tc.setup))
					cmd.Dir = r.root
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("setup: %v %s", err, out)
					}
				}
				return fill(tc.command)
			}
			other := newRealBash(t, "")
			command := prepare(other)
			other.run(command)
			if !harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", command)
			}
			r := newRealBash(t, "")
			command = prepare(r)
			if d := r.decide(command); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command)
			}
		})
	}

	// rt24: the directory a command runs in, when a cd may fail, a cd is
	// spelled so that no pattern sees it, or code runs in the shell again
	// and again. Each row makes a file beside the root ({NAME}) where gate
	// believed the write stays inside.
	for _, tc := range []struct {
		name, setup, command string
	}{
		{"a cd to a missing directory", "", "cd a/b; touch ../{NAME}"},
		{"a cd with two operands", "mkdir d1 d2", "cd d1 d2; touch ../{NAME}"},
		{"a cd with an option bash rejects", "mkdir d1", "cd -@ d1; touch ../{NAME}"},
		{"a cd whose redirection fails", "mkdir d1", "cd d1 < nosuch; touch ../{NAME}"},
		{"a block whose redirection fails", "mkdir d1", "{ cd d1; } < nosuch; touch ../{NAME}"},
		{"a cd to a directory removed first", "mkdir d1", "rmdir d1; cd d1; touch ../{NAME}"},
		{"pushd -n", "mkdir d1", "pushd -n d1 > /dev/null; touch ../{NAME}"},
		{"a cd spelled with quotes before a function call", "", `f() { touch {NAME}; }; c''d ..; f`},
		{"a function defined by eval", "", "eval 'f() { touch {NAME}; }'; cd ..; f"},
		{"a function called in a subshell after cd", "", "f() { touch {NAME}; }; (cd .. && f)"},
		{"a DEBUG trap that changes directory", "", "trap 'cd ..' DEBUG; touch {NAME}"},
		{"lastpipe", "", "shopt -s lastpipe; true | cd ..; touch {NAME}"},
		{"mapfile's callback", "", "mapfile -C 'cd .. #' -c 1 a <<< x; touch {NAME}"},
		{"a sourced file that changes directory", "echo 'cd ..' > s.sh", ". ./s.sh; touch {NAME}"},
		// rt25: branches, negation, a checkout that rewrites the tree
		{"an else branch after a cd in then", "mkdir d1", "if [ -e nothing ]; then cd d1; else touch ../{NAME}; fi"},
		{"a case item after a cd in another", "mkdir d1", "case x in y) cd d1;; *) touch ../{NAME};; esac"},
		{"a negated cd in an if", "", "if ! cd a/b; then touch ../{NAME}; fi"},
		{"a negated cd in a block", "", "{ ! cd a/b; } && touch ../{NAME}"},
		// rt26: what git runs runs at the top of the work tree
		{"git rebase -x in a subdirectory", "git init -q . && git config user.name a && git config user.email a@b && mkdir sub && touch sub/k && " +
			"git add . && git commit -qm a && echo 1 > f && git add f && git commit -qm b", "cd sub && git rebase -q -x 'touch ../{NAME}' HEAD~1"},
		{"a git alias in a subdirectory", "git init -q . && mkdir sub", "cd sub && git -c alias.t='!touch ../{NAME}' t"},
		{"GIT_EDITOR in a subdirectory", "git init -q . && git config user.name a && git config user.email a@b && mkdir sub",
			"cd sub && GIT_EDITOR='touch ../{NAME}' git commit -q --allow-empty"},
		{"a branch checked out with a symlink", "git init -q . && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m init && " +
			"git checkout -q -b evil && ln -s .. d && git add d && git -c user.name=a -c user.email=a@b commit -q -m evil && git checkout -q -",
			"git checkout -q evil && cd d && touch {NAME}"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			beside := func(r *realBash) bool { return r.existsAt(filepath.Join(filepath.Dir(r.root), r.name())) }
			command := func(r *realBash) string { return strings.ReplaceAll(tc.command, "{NAME}", r.name()) }
			other := newRealBash(t, tc.setup)
			other.run(command(other))
			if !beside(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", command(other))
			}
			os.Remove(filepath.Join(filepath.Dir(other.root), other.name()))
			r := newRealBash(t, tc.setup)
			if d := r.decide(command(r)); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command(r))
			}
		})
	}

	for _, tc := range []struct {
		name, setup, command string
		did                  func(r *realBash) bool
	}{
		{"a cd that must have worked", "mkdir d1", "cd d1 && touch x.txt", func(r *realBash) bool { return r.exists("d1/x.txt") }},
		{"-print0 to xargs -0 sed -i", "mkdir -p src/a && printf 'v\\n' > src/a/x.txt && printf 'v\\n' > 'src/b c.txt'",
			"find src -name '*.txt' -print0 | xargs -0 sed -i s/v/w/", func(r *realBash) bool {
				return fileText(r.t, filepath.Join(r.root, "src/a/x.txt")) == "w\n" && fileText(r.t, filepath.Join(r.root, "src/b c.txt")) == "w\n"
			}},
		{"-print to xargs chmod", "mkdir -p src && touch src/x.sh src/y.sh",
			"find src -type f -name '*.sh' | xargs chmod 700", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/y.sh"))
				return err == nil && fi.Mode().Perm() == 0o700
			}},
		{"errors to /dev/null and options", "mkdir -p src && touch src/x.txt",
			"find src -type f 2>/dev/null | xargs -r -n 2 -P 2 touch -d 2001-01-01", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/x.txt"))
				return err == nil && fi.ModTime().Year() == 2001
			}},
		{"-I{}", "mkdir -p src && touch src/x.txt",
			"find src -name 'x*' | xargs -I{} chmod 600 {}", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/x.txt"))
				return err == nil && fi.Mode().Perm() == 0o600
			}},
		{"-0 -I@", "mkdir -p src && echo v > src/y.txt",
			"find src -name 'y*' -print0 | xargs -0 -I@ sed -i s/v/w/ @", func(r *realBash) bool {
				return fileText(r.t, filepath.Join(r.root, "src/y.txt")) == "w\n"
			}},
		{"an assignment before", "mkdir -p src && touch src/x.txt",
			"n=1; [[ -d src ]] && find src -name '*.txt' | xargs chmod 600", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/x.txt"))
				return err == nil && fi.Mode().Perm() == 0o600
			}},
		// xargs's options read with its getopt specification: long
		// options abbreviated as getopt allows them
		{"--nul and --repl=@ abbreviated", "mkdir -p src && echo v > src/y.txt",
			"find src -name 'y*' -print0 | xargs --nul --repl=@ sed -i s/v/w/ @", func(r *realBash) bool {
				return fileText(r.t, filepath.Join(r.root, "src/y.txt")) == "w\n"
			}},
		{"a loop without cd", "mkdir -p src && touch src/x.txt",
			"for i in 1 2; do chmod 600 src/x.txt; done", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/x.txt"))
				return err == nil && fi.Mode().Perm() == 0o600
			}},
		{"a pruned directory", "mkdir -p src/vendor && touch src/x.txt src/vendor/y.txt",
			"find src -path src/vendor -prune -o -type f -print | xargs chmod 600", func(r *realBash) bool {
				fi, err := os.Stat(filepath.Join(r.root, "src/x.txt"))
				fv, err2 := os.Stat(filepath.Join(r.root, "src/vendor/y.txt"))
				return err == nil && err2 == nil && fi.Mode().Perm() == 0o600 && fv.Mode().Perm() != 0o600
			}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r := newRealBash(t, tc.setup)
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("%q: %s %v, want allow", tc.command, d.Decision, d.Reasons)
			}
			r.run(tc.command)
			if !tc.did(r) {
				t.Fatalf("run by bash, %q did not do what it says", tc.command)
			}
		})
	}
}

// existsAt reports whether the file p exists.
func (r *realBash) existsAt(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// find -execdir runs its command in the directory of each file it finds:
// a relative path there is not where the command line is. Each row first
// plants a hook or rewrites .git/config in real bash, then gate refuses
// the command.
func TestFindExecdirRealBash(t *testing.T) {
	needPrograms(t, "git")
	for _, tc := range []struct {
		name, command string
		harmed        func(r *realBash) bool
	}{
		{"a hook written beside HEAD", `find . -name HEAD -execdir sh -c "echo x > hooks/post-checkout" \;`,
			func(r *realBash) bool { return r.exists(".git/hooks/post-checkout") }},
		{"config replaced beside description", `find . -path ./.git/description -execdir cp ../victim.txt config \;`,
			func(r *realBash) bool { return fileText(r.t, filepath.Join(r.root, ".git/config")) == "v\n" }},
		{"a hook touched beside config", `find .git -maxdepth 1 -name config -execdir touch hooks/pre-commit \;`,
			func(r *realBash) bool { return r.exists(".git/hooks/pre-commit") }},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			const setup = "git init -q . && echo v > victim.txt"
			other := newRealBash(t, setup)
			other.run(tc.command)
			if !tc.harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", tc.command)
			}
			r := newRealBash(t, setup)
			if d := r.decide(tc.command); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", tc.command)
			}
		})
	}
}

// Programs that run a command in another directory: parallel --wd DIR,
// and tmux, whose commands run in a pane's or session's directory (-c
// DIR, or wherever an earlier command left the server). Each row first
// plants a hook in real bash, then gate refuses the command.
func TestRunElsewhereRealBash(t *testing.T) {
	for _, tc := range []struct {
		name, program, command string
	}{
		{"parallel --wd", "parallel", "parallel --wd .git touch ::: hooks/pre-commit"},
		{"tmux new -c", "tmux", `tmux new -d -c .git "touch hooks/pre-commit"`},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			needPrograms(t, "git", tc.program)
			const setup = "git init -q ."
			env := []string{"TMUX_TMPDIR=" + t.TempDir(), "HOME=" + t.TempDir()}
			other := newRealBash(t, setup)
			other.run(tc.command, env...)
			planted := false
			for i := 0; i < 100 && !planted; i++ { // tmux runs it in its server, soon after
				if planted = other.exists(".git/hooks/pre-commit"); !planted {
					time.Sleep(50 * time.Millisecond)
				}
			}
			if tc.program == "tmux" {
				other.run("tmux kill-server", env...)
			}
			if !planted {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", tc.command)
			}
			r := newRealBash(t, setup)
			if d := r.decide(tc.command); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", tc.command)
			}
		})
	}
}

// rt27: git's own programs run directly, and go test -exec in the
// package's directory, run in real bash; the other forms rt27 showed
// harmful with its harness (yarn workspace, watch -x, chroot and unshare
// -R, npm exec -w, su -, ssh) need programs, privileges or a network this
// test cannot count on, and are checked by decision.
func TestRunElsewhereSecondRealBash(t *testing.T) {
	needPrograms(t, "git")
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	gitConfig := filepath.Join(strings.TrimSpace(string(out)), "git-config")
	t.Run("git-config_run_directly", func(t *testing.T) {
		command := gitConfig + " core.fsmonitor 'touch x; false'"
		other := newRealBash(t, "git init -q .")
		other.run(command)
		if !strings.Contains(fileText(t, filepath.Join(other.root, ".git/config")), "fsmonitor") {
			t.Fatalf("run by bash, %q did no harm: the row proves nothing", command)
		}
		r := newRealBash(t, "git init -q .")
		if d := r.decide(command); d.Decision == Allow {
			t.Fatalf("%q allowed, want refused", command)
		}
	})
	t.Run("go_test_-exec_in_the_package's_directory", func(t *testing.T) {
		needPrograms(t, "go")
		const setup = "mkdir sub && printf 'module m\\n\\ngo 1.21\\n' > go.mod && printf 'package m\\n\\nimport \"testing\"\\n\\nfunc TestX(t *testing.T) {}\\n' > m_test.go"
		other := newRealBash(t, setup)
		command := "cd sub && go test -exec \"sh -c 'touch ../" + other.name() + "'\" .."
		other.run(command, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if !other.existsAt(filepath.Join(filepath.Dir(other.root), other.name())) {
			t.Fatalf("run by bash, %q did no harm: the row proves nothing", command)
		}
		r := newRealBash(t, setup)
		command = "cd sub && go test -exec \"sh -c 'touch ../" + r.name() + "'\" .."
		if d := r.decide(command); d.Decision == Allow {
			t.Fatalf("%q allowed, want refused", command)
		}
	})
	refusedStill(t,
		"yarn workspace w exec rm ../victim.txt",
		"yarn node -e \"require('fs').writeFileSync('../x', '')\"",
		"watch -x sh -c 'cd .git && cp ../e.sh hooks/pre-commit'",
		"unshare -r -R / touch tmp/x",
		"chroot / touch tmp/x",
		"cd sub/a && npm exec -w w -- touch ../../x",
		"su - root -c 'echo evil >> .bashrc'",
		"ssh host 'echo evil >> .bashrc'",
		"git-rebase -x 'cp e.sh .git/hooks/pre-commit' HEAD~1",
	)
}
