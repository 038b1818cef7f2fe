package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The twelfth round: refusals of ordinary commands (the precision side of
// the same classes), checked in real bash: the command is allowed, and
// its real run writes only what the case names, inside the root.

// benignCase is an ordinary command gate allows: wants are the files
// (relative to the root) its real run creates.
type benignCase struct {
	command string
	setup   string
	wants   []string
}

// runBenign checks that each case is allowed and that its real run
// creates its wants and leaves the root's parent as it was.
func runBenign(t *testing.T, cases []benignCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt; git init -q .; "+tc.setup)
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("decision %+v, want allow", d)
			}
			home := t.TempDir()
			parent := filepath.Dir(r.root)
			before, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			out := r.run(tc.command, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
			for _, w := range tc.wants {
				if !r.exists(w) {
					t.Errorf("run by bash, the command did not create %s (%s)", w, out)
				}
			}
			after, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(before, after, func(a, b os.DirEntry) bool { return a.Name() == b.Name() }) {
				t.Errorf("run by bash, the command changed %s: %v -> %v", parent, before, after)
			}
			if !r.exists("victim.txt") {
				t.Errorf("run by bash, the command deleted victim.txt (%s)", out)
			}
		})
	}
}

// TestProcessSubstitutionPipesRealBash: a redirection to a process
// substitution, or one given to a program as a file to write (> >(tee
// log), tee >(grep x > out)), writes to a pipe: the command behind it is
// a segment of its own and decides where data lands, so the pipe is no
// write to a file only known at run time. What that command does is still
// decided.
func TestProcessSubstitutionPipesRealBash(t *testing.T) {
	runBenign(t, []benignCase{
		{command: "echo built > >(tee build.log)", wants: []string{"build.log"}},
		{command: "ls -la 2> >(tee err.log >&2) > >(cat > out.txt)", wants: []string{"err.log", "out.txt"}},
		{command: "exec > >(tee -a run.log) 2>&1; echo hi", wants: []string{"run.log"}},
		{command: "printf 'a\\nx\\n' | tee >(grep x > xs.txt) >(wc -l > count.txt) > /dev/null", wants: []string{"xs.txt", "count.txt"}},
		{command: "cp victim.txt >(cat > copy.txt)", wants: []string{"copy.txt"}},
	})
	runHarm(t, []harmCase{
		{command: "echo 'rm -f victim.txt' > >(bash)"},
		{command: "echo 'rm -f victim.txt' | tee >(sh) > /dev/null"},
		{command: "printf '#!/bin/sh\\nexit 0\\n' | tee >(cat > .git/hooks/pre-commit) > /dev/null", setup: "git init -q", harm: ".git/hooks/pre-commit"},
		{command: "echo x > >(tee ../out.txt)", harm: "../out.txt"},
		{command: "echo 'rm -f victim.txt' > >(cat > s.sh); sleep 0.2; bash s.sh"},
	})
	// a quoted >( is text: a file of that name in the root
	allowedStill(t, `echo x > ">(x)"`)
	refusedStill(t, `x='>(a)'; echo x > $x`)
}

// TestNumericSubstitutionsRealBash: arithmetic on the output of a command
// that prints only numbers (wc counting its input, seq, date +%s, grep -c
// of one file, nproc) holds no subscript, and an integer added to stays
// one. Arithmetic reads every name a value holds, whichever assignment it
// sees (x=a-b reads b), and a name the command binds to something else
// (a function wc, an alias, hash -p) prints data.
func TestNumericSubstitutionsRealBash(t *testing.T) {
	runBenign(t, []benignCase{
		{command: "n=$(ls | wc -l); echo $((n * 2)) > n.txt", wants: []string{"n.txt"}},
		{command: "total=$(( $(wc -l < victim.txt) + 1 )); echo $total"},
		{command: "count=$(grep -c v victim.txt); echo $((count + 1))"},
		{command: "for i in $(seq 1 3); do echo $((i*2)); done"},
		{command: "start=$(date +%s); ls >/dev/null; end=$(date +%s); echo $((end - start))"},
		{command: "if (( $(ls | wc -l) > 1 )); then echo many; fi"},
		{command: "declare -i total=0; total+=5; echo $total"},
		{command: "n=\"$(nproc)\"; echo $((n + 1))"},
		{command: ": 'rm -rf build'; ls"},
		{command: "getent group rm || true"},
	})
	const payload = "echo 'a[$(rm -f victim.txt)]' > f"
	runHarm(t, []harmCase{
		{command: "b=$(cat f); x=a-b; echo $((x))", setup: payload},
		{command: "b=$(cat f); x=1+b; echo $((x + 1))", setup: payload},
		{command: "b=$(cat f); x=b; echo $((x)); x=c", setup: payload},
		{command: "wc() { cat f; }; n=$(ls | wc -l); echo $((n))", setup: payload},
		{command: "for k in 1 2; do n=$(ls | wc -l); echo $((n)); wc() { cat f; }; done", setup: payload},
		{command: "hash -p /bin/cat wc; n=$(wc < f); echo $((n))", setup: payload},
		{command: "shopt -s expand_aliases; alias wc='cat f #'; n=$(ls | wc -l); echo $((n))", setup: payload},
		// a file sourced defines functions gate does not read
		{command: "source ./lib.sh; n=$(ls | wc -l); echo $((n))", setup: payload + "; printf 'wc() { cat f; }\\n' > lib.sh"},
		{command: ". ./lib.sh; for i in $(seq 1 2); do echo $((i)); done", setup: "echo 'a[$(rm${IFS}-f${IFS}victim.txt)]' > f; printf 'seq() { cat f; }\\n' > lib.sh"},
	})
	// counts with file names printed beside them, and formats with
	// letters: not numbers only
	refusedStill(t, "n=$(wc -l f); echo $((n))", "n=$(grep -c x f g); echo $((n))", "n=$(grep -rc x .); echo $((n))",
		"n=$(date +%s%Z); echo $((n))", "n=$(seq -f 'a[%g]' 1 2); echo $((n))", "n=$(wc -l < f 2>&1); echo $((n))",
		"n=$(cat f | wc -l; cat f); echo $((n))", "PATH=.:$PATH; n=$(ls | wc -l); echo $((n))", "BASH_CMDS[wc]=/bin/cat; n=$(wc -l < f); echo $((n))")
}

// TestTwelfthRoundRealBash: the twelfth round's attacks.
//   - mapfile -C runs its callback with the index and the line read as
//     two more words: eval, ., declare and the like run the data;
//   - zsh, ksh, fish and csh read their scripts in languages gate does not
//     read (zsh's zf_rm and =rm);
//   - programs that write where an option says (ctags -o, msgfmt -o, cpio
//     -O, npm pack --pack-destination), and gawk with a compiled extension
//     (rwarray's writea), write outside the root.
func TestTwelfthRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: "echo '; rm -f victim.txt' > l; mapfile -C eval -c 1 < l"},
		{command: "readarray -C 'builtin eval' -c1 <<< ';rm -f victim.txt'"},
		{command: "mapfile -C 'command eval' -c1 <<< ';rm -f victim.txt'"},
		{command: "echo 'rm -f victim.txt' > 0; mapfile -C . -c 1 <<< x"},
		{command: "mapfile -C declare -c1 <<< 'a[$(rm -f victim.txt)]=1'"},
		{command: "zsh -fc 'zmodload zsh/files; zf_rm victim.txt'", tools: []string{"zsh"}},
		{command: "zsh -fc '=rm victim.txt'", tools: []string{"zsh"}},
		{command: "zsh -fc 'hash ls=/bin/rm; ls victim.txt'", tools: []string{"zsh"}},
		{command: "zsh -fc 'zmodload zsh/parameter; functions[f]=\"rm victim.txt\"; f'", tools: []string{"zsh"}},
		{command: "ctags -o ../out.tags victim.txt", tools: []string{"ctags"}, harm: "../out.tags"},
		{command: "msgfmt -o ../out.mo x.po", setup: `printf 'msgid "a"\nmsgstr "b"\n' > x.po`, tools: []string{"msgfmt"}, harm: "../out.mo"},
		{command: "ls victim.txt | cpio -o -O ../out.cpio", tools: []string{"cpio"}, harm: "../out.cpio"},
		{command: "ls victim.txt | cpio -o -F ../out.cpio", tools: []string{"cpio"}, harm: "../out.cpio"},
		{command: "npm pack --pack-destination .. >/dev/null", setup: `printf '{"name":"x","version":"1.0.0"}\n' > package.json`, tools: []string{"npm"}, harm: "../x-1.0.0.tgz"},
		{command: `gawk -l rwarray 'BEGIN { a[1] = 1; writea("../out.bin", a) }'`, tools: []string{"gawk"}, harm: "../out.bin"},
	})
	allowedStill(t,
		"mapfile -t lines < victim.txt",
		"mapfile -C echo -c 1 arr < victim.txt",
		"zsh --version",
		"mkdir -p build/out src",
		"install -d build/bin",
		// an empty directory runs nothing and holds nothing: mkdir is no
		// write gate asks about, inside the root or out (the fs layer
		// confines it at run time)
		"mkdir -p /tmp/gate-test-out/a",
		"mkdir -p \"$(dirname \"$f\")\"",
		"ctags -R .",
		"msgfmt -o po/x.mo po/x.po",
		"npm pack",
		"cpio -i -F a.cpio",
	)
}

// TestBareGitDirRealBash: a git directory by another name (a bare
// repository, or HEAD, objects/ and refs/ made by hand) is a repository
// whose configuration and hooks run programs: writing its config is
// refused as writing .git/config is, and a git command that uses it is
// unprovable (its config may have been written another way).
func TestBareGitDirRealBash(t *testing.T) {
	const cfg = `printf '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "rm -f victim.txt; false"\n' >> b/config`
	for _, follow := range []string{"git -C b status --short", "cd b && git status --short", "git --git-dir=b --work-tree=. status --short"} {
		t.Run(follow, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt; git init -q --bare b")
			if d := r.decide(cfg); d.Decision == Allow {
				t.Errorf("%s: decision %+v, want deny or ask", cfg, d)
			}
			r.run(cfg)
			if d := r.decide(follow); d.Decision == Allow {
				t.Errorf("%s: decision %+v, want deny or ask", follow, d)
			}
			out := r.run(follow, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if r.exists("victim.txt") {
				t.Errorf("run by bash, %s did not delete victim.txt (%s): the case tests nothing", follow, out)
			}
		})
	}
	allowedStill(t, "git status", "git log --oneline -3")
}

// TestReadOnlyModesRealBash: the standard library's zipfile and tarfile
// list and test archives without running or writing anything (unless a
// file of the directory is imported instead: TestTwelfthRoundThirdHelper).
// Their modes that extract or create still count as code. tar -t lists
// an archive the command wrote, and writes none of what it holds.
func TestReadOnlyModesRealBash(t *testing.T) {
	const archives = "mkdir -p src && echo 'print(1)' > src/m.py && python3 -m zipfile -c a.zip src && tar cf a.tar src"
	runBenign(t, []benignCase{
		{command: "python3 -m zipfile -l a.zip", setup: archives},
		{command: "python3 -m zipfile -t a.zip", setup: archives},
		{command: "python3 -m tarfile -l a.tar", setup: archives},
		// an archive the command wrote, then listed: nothing extracted
		{command: "tar cf b.tar src && tar -tf b.tar && tar tvf b.tar", setup: archives},
	})
	allowedStill(t, "journalctl -u sudo -n 1", "getent passwd root")
	// py_compile and compileall read the files to compile from standard
	// input or a list (-i), and compileall of a directory writes byte code
	// into every __pycache__ below it, also through a link gate does not
	// walk: still refused (py_compile and compileall of named .py files
	// are allowed, harm14_test.go)
	refusedStill(t, "python3 -m zipfile -e a.zip .", "python3 -m tarfile -e a.tar", "python3 -m zipfile -l a.zip -e a.zip .",
		"python3 -m zipfile --list $f", "python3 -m compileall -q src", "python3 -m py_compile -")
}

// TestProtectedPatternsRealBash: a pattern given to a program that may
// write its operands (one the catalogue does not describe) or as an output
// option's value names the protected paths it may match at run time, with
// bash's rules: no case (nocaseglob), a leading dot matched where the
// pattern spells it or dotglob is on.
func TestProtectedPatternsRealBash(t *testing.T) {
	// w.sh writes a configuration whose fsmonitor deletes victim.txt
	// into the file it is given; git status then runs it
	const tool = `git init -q && printf '#!/bin/sh\nprintf "[core]\\n\\tfsmonitor = \\"rm -f victim.txt; false\\"\\n" > "$1"\n' > w.sh && chmod +x w.sh`
	runHarm(t, []harmCase{
		{command: "./w.sh .gi?/config; git status --short", setup: tool},
		{command: "./w.sh .git/confi[g]; git status --short", setup: tool},
		{command: "shopt -s dotglob; ./w.sh */config; git status --short", setup: tool},
		{command: "shopt -s extglob\n./w.sh @(.git)/config; git status --short", setup: tool},
		{command: "shopt -s nocaseglob; ./w.sh .GI?/CONFI?; git status --short", setup: tool},
	})
	allowedStill(t, "foobarbaz src/*.go", "foobarbaz */config", "foobarbaz ?git/config", "foobarbaz !(x)/config", "comm <(sort a) <(sort b)")
}

// TestTwelfthRoundThirdHelperRealBash: the attacks on this round's changes.
// date without a format prints the day's name, a name arithmetic reads;
// bash --rcfile F -i sources F first; sh (dash) does not expand braces,
// nor bash after set +B, so {a,b} is a name an earlier call made; git
// passes over an empty .git to the directory itself; a git directory
// written into as a directory; cpio -p copies into its operand; a
// function's body runs where it is called; python3 -m of a standard module
// imports a file of the directory first.
func TestTwelfthRoundThirdHelperRealBash(t *testing.T) {
	days := ""
	for _, d := range []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"} {
		days += d + "='a[$(rm -f victim.txt)]'; "
	}
	const fsmonitor = `printf '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "rm -f victim.txt; false"\n' >> b/config`
	runHarm(t, []harmCase{
		{command: days + "n=$(date); echo $((n))"},
		{command: days + "n=$(date -u); echo $((n))"},
		{command: "bash --rcfile lib.sh -i -c 'echo $(( $(wc -l < victim.txt) ))' 2>/dev/null", setup: "printf '%s\\n' \"wc(){ echo 'a[\\$(rm -f victim.txt)]'; }\" > lib.sh"},
		{command: "sh -c 'cd {a,b}; echo x > hooks/pre-commit'", setup: "git init -q && ln -s .git '{a,b}'", tools: []string{"dash"}, harm: ".git/hooks/pre-commit"},
		{command: "set +B; cd {a,b}; echo x > hooks/pre-commit", setup: "git init -q && ln -s .git '{a,b}'", harm: ".git/hooks/pre-commit"},
		{command: "bash +B -c 'cd {a,b}; echo x > hooks/pre-commit'", setup: "git init -q && ln -s .git '{a,b}'", harm: ".git/hooks/pre-commit"},
		{command: "git -C b status --short", setup: "git init -q --bare b && mkdir b/.git && " + fsmonitor},
		{command: "cp x/config b/", setup: "git init -q --bare b && mkdir x && " + fsmonitor + " && mv b/config x/config", harm: "b/config"},
		{command: "cpio -pdm .git < list 2>/dev/null", setup: "git init -q && mkdir hooks && printf '#!/bin/sh\\n' > hooks/post-checkout && echo hooks/post-checkout > list", tools: []string{"cpio"}, harm: ".git/hooks/post-checkout"},
		{command: "f(){ echo x > hooks/pre-commit; }; cd .git; f", setup: "git init -q", harm: ".git/hooks/pre-commit"},
		{command: "python3 -m json.tool x.json", setup: "echo '{}' > x.json && printf 'import os\\nos.remove(\"victim.txt\")\\n' > argparse.py", tools: []string{"python3"}},
		{command: "python3 -m zipfile -l a.zip", setup: "printf 'import os\\nos.remove(\"victim.txt\")\\n' > argparse.py", tools: []string{"python3"}},
	})
	allowedStill(t, "sh -c 'find . -name \"*.go\" -exec echo {} \\;'", "set -B; echo {a,b}", "n=$(date +%s); echo $((n))", "f(){ ls; }; f")
}
