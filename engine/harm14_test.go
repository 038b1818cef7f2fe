package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The fourteenth round (rt17, against the static layer as a whole, by the
// public cases' techniques): each harm row first shows the harm in real
// bash (rm is the excluded program; victim.txt gone, .git/config
// rewritten, a file written outside the root), then that gate refuses the
// command. The precision rows of the same round (rt18's over-blocks) show
// that gate allows a command and that bash does what it says.
func TestFourteenthRoundRealBash(t *testing.T) {
	const repo = "git init -q .; "
	planted := func(r *realBash) bool {
		return strings.Contains(fileText(r.t, filepath.Join(r.root, ".git/config")), "fsmonitor")
	}
	gone := func(r *realBash) bool { return !r.exists("victim.txt") }
	for _, tc := range []struct {
		name     string
		programs []string
		setup    string
		command  string
		harmed   func(r *realBash) bool
	}{
		// setarch takes ARCH only as its first argument
		{"setarch with options first", []string{"setarch"}, "", "setarch -R rm victim.txt", gone},
		{"setarch with a long option first", []string{"setarch"}, "", "setarch --addr-no-randomize rm victim.txt", gone},
		// bash's own integer variables evaluate what they are given
		{"RANDOM given a subscript", nil, "", "RANDOM='a[$(rm victim.txt)]'", gone},
		{"OPTIND read", nil, "", "read OPTIND <<< 'a[$(rm victim.txt)]'", gone},
		{"SRANDOM through a nameref", nil, "", "declare -n r=SRANDOM; r='a[$(rm victim.txt)]'", gone},
		{"HISTCMD in a for loop", nil, "", "for HISTCMD in 'a[$(rm victim.txt)]'; do :; done", gone},
		{"a default given to an integer", nil, "", "x='a[$(rm victim.txt)]'; declare -i q; : ${q:=x}", gone},
		// a tilde after = in an argument shaped like an assignment
		{"dd of=~+/..", []string{"dd"}, "", "dd if=victim.txt of=~+/../{NAME}", func(r *realBash) bool {
			return fileText(r.t, filepath.Join(filepath.Dir(r.root), r.name())) != ""
		}},
		{"dd of=~- after cd .git and back", []string{"dd", "git"}, repo,
			"cd .git && cd .. && printf '[core]\\n\\tfsmonitor = rm -f victim.txt\\n' | dd of=~-/config", planted},
		// ed FILE writes FILE back with a bare w: a hard link to .git/config
		{"ed on a hard link to .git/config", []string{"ed", "git"}, repo + "ln .git/config hcfg && printf '\\tfsmonitor = rm -f victim.txt\\n' > payload.txt",
			"ed -s hcfg <<< $'$r payload.txt\\nw\\nq'", planted},
		// a program gate does not describe, given its command's name only
		// at run time
		{"chronic $(echo rm)", []string{"chronic"}, "", "chronic $(echo rm) victim.txt", gone},
		{"lckdo and a pattern", []string{"lckdo"}, "", "lckdo l /bin/r[m] victim.txt", gone},
		{"fakeroot-sysv and a default", []string{"fakeroot-sysv"}, "", "fakeroot-sysv ${x:-rm} victim.txt", gone},
		{"chronic and a directory only known at run time", []string{"chronic"}, "", `chronic "${D:-/bin}"/rm victim.txt`, gone},
		{"chronic and $'...'", []string{"chronic"}, "", `chronic $'\x{72}m' victim.txt`, gone},
		// echo's text is read as the script's content: code that removes
		// a file stays refused
		{"a script echo writes", []string{"python3"}, "", `echo 'import os; os.remove("victim.txt")' > t.py && python3 t.py`, gone},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			needPrograms(t, tc.programs...)
			command := func(r *realBash) string { return strings.ReplaceAll(tc.command, "{NAME}", r.name()) }
			env := []string{"HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
			other := newRealBash(t, "")
			other.run("set -e; echo v > victim.txt; "+tc.setup, env...)
			other.run(command(other), env...)
			if !tc.harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", command(other))
			}
			r := newRealBash(t, "")
			r.run("set -e; echo v > victim.txt; "+tc.setup, env...)
			if d := r.decide(command(r)); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command(r))
			}
		})
	}

	// editor and sensible-editor are vim on Debian when vim is the
	// chosen alternative
	t.Run("editor_is_vim", func(t *testing.T) {
		p, err := exec.LookPath("editor")
		if err != nil {
			t.Skip("SKIP: editor is not installed")
		}
		if real, err := filepath.EvalSymlinks(p); err != nil || !strings.HasPrefix(filepath.Base(real), "vim") {
			t.Skipf("SKIP: editor is %s here, not vim", real)
		}
		const command = "editor -es -c '!rm victim.txt' -c 'qa!'"
		other := newRealBash(t, "echo v > victim.txt")
		other.run(command, "HOME="+t.TempDir())
		if other.exists("victim.txt") {
			t.Fatalf("run by bash, %q did no harm: the row proves nothing", command)
		}
		r := newRealBash(t, "echo v > victim.txt")
		if d := r.decide(command); d.Decision == Allow {
			t.Fatalf("%q allowed, want refused", command)
		}
	})

	for _, tc := range []struct {
		name     string
		programs []string
		setup    string
		command  string
		did      func(r *realBash) bool
	}{
		{"setarch with options runs its command", []string{"setarch"}, "", "setarch -R touch made", func(r *realBash) bool { return r.exists("made") }},
		{"ed edits its file", []string{"ed"}, "printf 'a\\nb\\n' > notes.txt", "ed -s notes.txt <<< $'1d\\nw\\nq'", func(r *realBash) bool {
			return fileText(r.t, filepath.Join(r.root, "notes.txt")) == "b\n"
		}},
		{"python3 -m py_compile", []string{"python3"}, "echo 'print(1)' > a.py", "python3 -m py_compile a.py && ls __pycache__ > out.txt", func(r *realBash) bool {
			return strings.Contains(fileText(r.t, filepath.Join(r.root, "out.txt")), "a.")
		}},
		{"python3 -m compileall of files", []string{"python3"}, "mkdir src && echo 'print(1)' > src/m.py", "python3 -m compileall -q src/m.py && ls src/__pycache__ > out.txt", func(r *realBash) bool {
			return strings.Contains(fileText(r.t, filepath.Join(r.root, "out.txt")), "m.")
		}},
		{"an inert NODE_OPTIONS", []string{"node"}, "", "NODE_OPTIONS=--max-old-space-size=64 node --version > out.txt", func(r *realBash) bool {
			return strings.HasPrefix(fileText(r.t, filepath.Join(r.root, "out.txt")), "v")
		}},
		{"unset of a variable that names code", nil, "", "unset NODE_OPTIONS PYTHONPATH && echo ok > out.txt", func(r *realBash) bool { return r.exists("out.txt") }},
		{"a tilde after = with the home known", []string{"dd"}, "", "dd if=/dev/null of=out.txt && echo a=~/x > seen.txt", func(r *realBash) bool {
			return strings.HasPrefix(fileText(r.t, filepath.Join(r.root, "seen.txt")), "a=/")
		}},
		{"a script echo writes, proven", []string{"python3"}, "", "echo 'print(6*7)' > t.py && python3 t.py > out.txt", func(r *realBash) bool {
			return fileText(r.t, filepath.Join(r.root, "out.txt")) == "42\n"
		}},
		{"chronic of a command named literally", []string{"chronic"}, "", "chronic touch made", func(r *realBash) bool { return r.exists("made") }},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			needPrograms(t, tc.programs...)
			r := newRealBash(t, tc.setup)
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("%q: decision %+v, want allow", tc.command, d)
			}
			r.run(tc.command, "HOME="+t.TempDir())
			if !tc.did(r) {
				t.Errorf("run by bash, %q did not do what it says", tc.command)
			}
		})
	}
}

// name is a file name unique to this realBash (its root's base name), for
// files written beside the root.
func (r *realBash) name() string { return "out-" + filepath.Base(r.root) }

// The fourteenth round's second pair of helpers: rt19 attacked the fixes
// and relaxations above, rt20 the static layer's other techniques. Each
// harm row shows the harm in real bash (the command, then follow, an
// allowed command that sets it off), then that gate refuses the command.
func TestFourteenthRoundSecondHelpersRealBash(t *testing.T) {
	const repo = "git init -q .; "
	const commit = "git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x"
	gone := func(r *realBash) bool { return !r.exists("victim.txt") }
	for _, tc := range []struct {
		name           string
		programs       []string
		setup, command string
		follow         string
		harmed         func(r *realBash) bool
	}{
		// an inert-looking value a launcher evals (gradlew, catalina.sh)
		{"JAVA_OPTS with an expansion", nil, `printf '#!/bin/sh\neval set -- $JAVA_OPTS\n' > gradlew && chmod +x gradlew`,
			`JAVA_OPTS='-Xmx1$(rm${IFS}victim.txt)' ./gradlew build`, "", gone},
		// unset PATH by a nameref and by a pattern: bash then finds ./ls
		{"unset PATH through a nameref", nil, `printf '#!/bin/sh\nrm -f victim.txt\n' > ls && chmod +x ls`,
			"declare -n r; for r in PATH; do unset r; done; ls", "", gone},
		{"unset PATH by a pattern", nil, `printf '#!/bin/sh\nrm -f victim.txt\n' > ls && chmod +x ls && touch PATH`,
			"unset PAT[H]; ls", "", gone},
		// a nameref bound by a for loop
		{"RANDOM through a for-bound nameref", nil, "", "a='x[$(rm victim.txt)]'; declare -n n; for n in RANDOM; do n=a; done", "", gone},
		// compileall -i in a cluster reads the files to compile from a list
		{"compileall -qi", []string{"python3"}, "echo 'x = 1' > {O}/m.py && echo {O}/m.py > list.txt",
			"python3 -m compileall -qi list.txt", "", func(r *realBash) bool {
				_, err := os.Stat(filepath.Join(r.outside(), "__pycache__"))
				return err == nil
			}},
		// a function defined before the command writes what it runs
		{"a function run after a write", []string{"python3"}, "", `f() { python3 x.py; }; echo 'import os; os.remove("victim.txt")' > x.py; f`, "", gone},
		// lua -v with -l runs a module
		{"lua -v -l", []string{"lua"}, "", `echo 'os.remove("victim.txt")' > x.lua; lua -v -l x`, "", gone},
		// a tilde after += in an argument shaped like an assignment
		{"a tilde after +=", nil, "ln -s / a+=", "cp victim.txt a+=~/f.txt", "", func(r *realBash) bool {
			return fileText(r.t, filepath.Join(r.home, "f.txt")) != ""
		}},
		// undescribed wrappers and run-time names in other spellings
		{"chronic -- $(…)", []string{"chronic"}, "", "chronic -- $(echo rm) victim.txt", "", gone},
		{"chronic r$(…)", []string{"chronic"}, "", "chronic r$(echo m) victim.txt", "", gone},
		{"chronic ${x%%*}rm", []string{"chronic"}, "", "chronic ${HOME%%*}rm victim.txt", "", gone},
		{"chronic /bin/r[m.]", []string{"chronic"}, "", "chronic /bin/r[m.] victim.txt", "", gone},
		// rt20: gcc writes the dependency file DEPENDENCIES_OUTPUT names
		{"DEPENDENCIES_OUTPUT", []string{"gcc", "git"}, repo + "echo 'int x;' > x.c",
			"DEPENDENCIES_OUTPUT='.git/config [core]fsmonitor=rm victim.txt;' gcc -c x.c", "git status", gone},
		// rt20: the hooks directory and included files the repository's
		// configuration names
		{"a hook in core.hooksPath", []string{"git"}, repo + "git config core.hooksPath .githooks && mkdir .githooks",
			`printf '#!/bin/sh\nrm -f victim.txt\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`, commit, gone},
		{"a file include.path names", []string{"git"}, repo + "git config include.path ../.gitconfig-project",
			`printf '[core]\n\tfsmonitor = rm -f victim.txt\n' > .gitconfig-project`, "git status", gone},
		// rt21 (against the fixes above): a descriptor opened for reading,
		// written through /dev/fd
		{"/dev/fd/3 after 3<.git/config", []string{"git"}, repo,
			`printf '[core]\n\tfsmonitor = rm -f victim.txt\n' 3<.git/config >/dev/fd/3`, "git status", gone},
		{"/dev/fd/3 after echo wrote a script", []string{"python3"}, "",
			`echo 'print(1)' > t.py && printf 'import os\nos.remove("victim.txt")\n' 3<t.py >/dev/fd/3 && python3 t.py`, "", gone},
		// a redefinition that may not run, and a trap's action
		{"a function redefined in a false branch", []string{"python3"}, "",
			`f() { python3 x.py; }; false && f() { :; }; printf 'import os\nos.remove("victim.txt")\n' > x.py; f`, "", gone},
		{"a trap's action after a write", []string{"python3"}, "",
			`trap 'python3 x.py' EXIT; printf 'import os\nos.remove("victim.txt")\n' > x.py`, "", gone},
		// PATH set to a number or a letter by other builtins
		{"{PATH}>x", nil, "for d in 10 11 12 13; do mkdir $d && cp /bin/rm $d/ls; done", "exec {PATH}>x && ls victim.txt", "", gone},
		{"((PATH=10))", nil, "mkdir 10 && cp /bin/rm 10/ls", "((PATH=10)); ls victim.txt", "", gone},
		{"getopts : PATH", nil, "mkdir '?' && cp /bin/rm '?/ls'", "getopts : PATH; ls victim.txt", "", gone},
		// the hooks path of a repository below the root, and one split
		// over two lines
		{"a nested repository's hooks path", []string{"git"}, repo + "mkdir sub && git -C sub init -q && git -C sub config core.hooksPath hooks",
			`mkdir -p sub/hooks && printf '#!/bin/sh\nrm -f ../victim.txt\n' > sub/hooks/pre-commit && chmod +x sub/hooks/pre-commit`,
			"git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m x", gone},
		{"a hooks path continued on the next line", []string{"git"}, repo + `printf '[core]\n\thooksPath = hoo\\\nks\n' >> .git/config`,
			`mkdir -p hooks && printf '#!/bin/sh\nrm -f victim.txt\n' > hooks/pre-commit && chmod +x hooks/pre-commit`, commit, gone},
		// a pattern with no letter matches a file named rm
		{"chronic ??", []string{"chronic"}, "touch rm", "chronic ?? victim.txt", "", gone},
		// rt22 (against the fixes above): the file a descriptor holds,
		// run as a program
		{"/dev/fd/3 run after 3</bin/rm", nil, "", "/dev/fd/3 victim.txt 3</bin/rm", "", gone},
		{"chronic /dev/fd/3", []string{"chronic"}, "", "chronic /dev/fd/3 victim.txt 3</bin/rm", "", gone},
		// a write through /dev/fd in a function, opened where it is called
		{"/dev/fd/3 in a function", []string{"python3"}, "",
			`echo 'print(1)' > t.py; f() { printf 'import os\nos.remove("victim.txt")\n' > /dev/fd/3; }; f 3<t.py; python3 t.py`, "", gone},
		// a trap's action a later function defines, command_not_found_handle
		{"a trap's action defined later", []string{"python3"}, "",
			`trap ls EXIT; ls() { python3 x.py; }; printf 'import os\nos.remove("victim.txt")\n' > x.py`, "", gone},
		{"command_not_found_handle", []string{"python3"}, "",
			`command_not_found_handle() { python3 x.py; }; printf 'import os\nos.remove("victim.txt")\n' > x.py; nosuchcommand`, "", gone},
		// PATH assigned by arithmetic text
		{"[[ PATH=0 -eq 0 ]]", nil, "mkdir 0 && cp /bin/rm 0/ls", "[[ PATH=0 -eq 0 ]]; ls victim.txt", "", gone},
		{"a value evaluated as arithmetic", nil, "mkdir 0 && cp /bin/rm 0/ls", "x='PATH=0'; ((x)); ls victim.txt", "", gone},
		// a comment ending in a backslash, and the hooks directory's
		// parent made by the command
		{"a comment ending in a backslash", []string{"git"}, repo + `printf '[core]\n# a comment \\\n\thooksPath = hooks\n' >> .git/config`,
			`mkdir -p hooks && printf '#!/bin/sh\nrm -f victim.txt\n' > hooks/pre-commit && chmod +x hooks/pre-commit`, commit, gone},
		{"the hooks directory's parent moved into place", []string{"git"}, repo + "git config core.hooksPath .husky/_",
			`mkdir -p x/_ && printf '#!/bin/sh\nrm -f victim.txt\n' > x/_/pre-commit && chmod +x x/_/pre-commit && mv x .husky`, commit, gone},
		// a pattern with a directory part
		{"chronic ./??", []string{"chronic"}, "cp /bin/rm rm", "chronic ./?? victim.txt", "", gone},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			needPrograms(t, tc.programs...)
			fill := func(r *realBash, s string) string { return strings.NewReplacer("{O}", r.outside()).Replace(s) }
			other := newRealBash(t, "")
			other.home = t.TempDir()
			env := []string{"HOME=" + other.home, "GIT_CONFIG_NOSYSTEM=1"}
			other.run("set -e; echo v > victim.txt; "+fill(other, tc.setup), env...)
			other.run(fill(other, tc.command), env...)
			if tc.follow != "" {
				other.run(tc.follow, env...)
			}
			if !tc.harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", tc.command)
			}
			r := newRealBash(t, "")
			r.run("set -e; echo v > victim.txt; "+fill(r, tc.setup), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if d := r.decide(fill(r, tc.command)); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", tc.command)
			}
		})
	}
	// what stays allowed next to them
	for _, command := range []string{
		"JAVA_OPTS=-Xmx2g ./gradlew build",
		"unset NODE_OPTIONS",
		"f() { python3 x.py; }; f",
		"f() { echo hi; }; echo x > out.txt; f",
		"chronic make",
		"mytool data/$f",
		"top -p $(pgrep -d, x)",
		"echo x > .githooks-notes.txt",
	} {
		r := newRealBash(t, "")
		if d := r.decide(command); d.Decision != Allow {
			t.Errorf("%q: %+v, want allow", command, d)
		}
	}
}

// needPrograms skips t, saying so, when a program it runs is not installed.
func needPrograms(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("SKIP: %s is not installed", p)
		}
	}
}
