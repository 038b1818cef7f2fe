package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTwentySeventhRoundRealBash: what rt42 and rt43 found the static layer
// let through, each run for real:
//   - words bash reads otherwise than the parser: a=(1)# goes on as one word
//     after an array assignment (no comment), and a backquoted substitution
//     ends at its first backquote not escaped, quotes or not;
//   - an interactive shell given typed input: readline's keys and history
//     expansion edit each line before bash reads it (bash -i <<< ...), and
//     +O interactive_comments makes # an ordinary character;
//   - gawk's indirect call with a blank after @ (@ f(...));
//   - variables naming code or programs: PERLLIB, TCL_LIBRARY,
//     CMAKE_TOOLCHAIN_FILE, GOCACHEPROG, PKG_CONFIG, GCCGO, GOBIN,
//     RUSTUP_TOOLCHAIN, GNUPGHOME, PYTHONPLATLIBDIR, MAKEOVERRIDES;
//   - options of tools that run or write: cargo +DIR, cargo rustc -- ARGS
//     (the compiler's -C linker, --emit KIND=PATH), pytest -o log_file.
func TestTwentySeventhRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: `a=(1)#; rm victim.txt`},
		{command: `declare -A m=([k]=v)#; rm victim.txt`},
		{command: "echo `: '` `rm victim.txt` `'`"},
		{command: "echo \"`: '` `rm victim.txt` `'`\""},
		{command: "x=`cat <<'EOF'\nfoo`; rm victim.txt\nEOF\n`"},
		{command: `bash --norc +O interactive_comments -ic ': #; rm victim.txt'`},
		{command: "bash --norc -i <<'EOF'\n: rm victim.txt\n!:1-2\nEOF"},
		{command: "bash --norc -i <<< $'mr\\x14 victim.txt'"},
		{command: "bash --norc -i <<'EOF'\nbind -x '\"\\C-t\": rm victim.txt'\n\x14\nEOF"},
		{command: `awk 'BEGIN{ f="sys" "tem"; @ f("r" "m victim.txt") }'`, tools: []string{"gawk"}},
		{command: `mkdir -p d && printf 'unlink q(victim.txt);1;\n' > d/strict.pm && PERLLIB=d pod2text README.md`, setup: "echo r > README.md", tools: []string{"pod2text"}},
		{command: `TCL_LIBRARY=t tclsh README.md`, setup: "echo r > README.md && mkdir -p t && echo 'file delete victim.txt' > t/init.tcl", tools: []string{"tclsh"}},
		{command: `echo 'execute_process(COMMAND rm victim.txt)' > x.txt; CMAKE_TOOLCHAIN_FILE=$PWD/x.txt cmake -S . -B b`, setup: `printf 'cmake_minimum_required(VERSION 3.10)\nproject(x NONE)\n' > CMakeLists.txt`, tools: []string{"cmake"}},
		{command: `MAKEOVERRIDES='x:=$(shell rm victim.txt)' make`, setup: "printf 'all:\\n\\ttrue\\n' > Makefile", tools: []string{"make"}, settings: coreOnly("make")},
		{command: `PYTHONPLATLIBDIR=$PWD/pl pytest -q -p no:cacheprovider`, setup: "mkdir -p pl/python3.11/encodings pl/python3.13/encodings pl/python3.12/encodings && for d in pl/*/encodings; do echo 'import posix; posix.system(\"rm victim.txt\")' > $d/__init__.py; done", tools: []string{"pytest"}, settings: coreOnly("pytest")},
		{command: `pytest -q -p no:cacheprovider -o log_file=.git/config -o 'log_file_format=[core] fsmonitor = "rm victim.txt" #%(message)s' tests; git status`,
			setup: harmRepo + " && mkdir -p tests && printf 'import logging\\ndef test_a():\\n    logging.warning(\"done\")\\n' > tests/test_a.py", tools: []string{"pytest", "git"}, settings: coreOnly("pytest", "git")},
	})
	e := newTestEngine(t, *coreOnly("go", "git", "cargo", "pytest", "python3 -m pytest", "make"))
	decidedAs(t, e, Deny, `GOCACHEPROG='rm victim.txt' go build ./...`, `PKG_CONFIG="$PWD/tcx" go vet ./src`, `GCCGO="$PWD/tcx" go build -compiler gccgo ./src`,
		`GOBIN=$PWD/.git/hooks go install ./cmd/pre-commit`, `cargo +$PWD/tc2 build`, `RUSTUP_TOOLCHAIN=$PWD/tc2 cargo build`,
		`cargo rustc -- -C linker=$PWD/tcx`, `cargo rustc -- --emit=link=.git/hooks/pre-commit`, `GNUPGHOME=gh git verify-commit HEAD`,
		`python3 -m pytest -q --override-ini log_file=.qwen/settings.json tests`)
	// the module a listed interpreter runs is the interpreter's
	decidedAs(t, newTestEngine(t, *coreOnly("python3 -m pytest")), Allow, "python3 -m pytest -q")
	decidedAs(t, newTestEngine(t, *coreOnly("python3 -m pytest")), Deny, "python3 -m pip install x")
	allowedStill(t, "cargo rustc -- -C opt-level=1", "cargo +stable build", "bash -i <<< 'echo hi'", "a=(1 2); echo ${a[1]} # two",
		"(echo hi) # done", "x=`echo \\`date\\``; echo $x", "pytest -o log_cli=true", `awk '{ print $1 "@" $2 }' f`)

	// the glob tool lists what an in-root link leads to when a pattern
	// matches the link (o?t/*, */secret)
	g := newTestEngine(t, Settings{ApprovalMode: ApprovalYolo})
	root := g.resolver.Root()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ pattern, want string }{
		{"o?t/*", Deny}, {"*/secret", Deny}, {"ou[t]/*", Deny}, {"@(out)/x", Deny}, {"**/secret", Deny}, {"{src,o*}/*", Deny},
		{"src/*.go", Allow}, {"*.md", Allow}, {"s?c/*", Allow},
	} {
		d, err := g.Decide(t.Context(), Call{Tool: "glob", Args: map[string]any{"pattern": tc.pattern}})
		if err != nil || d.Decision != tc.want {
			t.Errorf("glob %s: %+v %v, want %s", tc.pattern, d, err, tc.want)
		}
	}
}

// TestTwentyNinthRoundRealBash: what rt45 found: git starts an editor that
// reads the keys piped to the command in more spellings than the catalogue
// listed (-e after -m, abbreviations, --fixup=amend:, --continue, pull's
// interactive rebase), and git apply --unsafe-paths writes where the patch
// says (a hook the next commit runs).
func TestTwentyNinthRoundRealBash(t *testing.T) {
	keys := `printf ':call delete("victim.txt")\n:qa!\n' | `
	id := "git -c user.email=a@b -c user.name=n "
	two := harmRepo + " && " + id + "commit -q --allow-empty -m two"
	runHarm(t, []harmCase{
		{command: keys + id + "commit -m x -e --allow-empty", setup: harmRepo, tools: []string{"git", "vi"}},
		{command: keys + id + "commit -em x --allow-empty", setup: harmRepo, tools: []string{"git", "vi"}},
		{command: keys + id + "commit --fixup=amend:HEAD", setup: harmRepo, tools: []string{"git", "vi"}},
		{command: keys + "git add --ed", setup: harmRepo + " && echo w >> victim.txt", tools: []string{"git", "vi"}},
		{command: keys + id + "tag --anno t", setup: harmRepo, tools: []string{"git", "vi"}},
		{command: keys + id + "rebase --interac HEAD~1", setup: two, tools: []string{"git", "vi"}},
		{command: `git log -1 --format='diff --git a/.git/hooks/post-commit b/.git/hooks/post-commit%nnew file mode 100755%n--- /dev/null%n+++ b/.git/hooks/post-commit%n@@ -0,0 +1,2 @@%n+#!/bin/sh%n+rm victim.txt' | git apply --unsafe-paths && ` + id + "commit --allow-empty -qm x",
			setup: harmRepo, tools: []string{"git"}},
	})
	allowedStill(t, id+"commit -m x", "git rebase --continue", "git log --help", "echo msg | "+id+"commit -F -")
}

// TestThirtiethRoundRealBash: what rt44 found in toolchains: variables that
// name programs (npm's configuration in any case, make's RM), options whose
// value is code (node --test-reporter, pdb -c, json_pp -f eval, cpack -D
// CPACK_INSTALL_COMMANDS, ctest --overwrite), and go clean removing the
// binary named after the module.
func TestThirtiethRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: `Npm_Config_Call='rm victim.txt' npm exec`, tools: []string{"npm"}},
		{command: `node --test --test-reporter="data:text/javascript,import('node:fs').then(f=>f.unlinkSync('victim.txt'));export default async function*(s){for await(const e of s){}}" x.test.js`,
			setup: `printf 'require("node:test")("t",()=>{})\n' > x.test.js`, tools: []string{"node"}},
		{command: `echo 'unlink q(victim.txt)' | json_pp -f eval`, tools: []string{"json_pp"}},
		{command: `pdb3 -c 'import os;os.remove("victim.txt")' -c q -m this`, tools: []string{"pdb3"}},
		{command: `cpack -D CPACK_INSTALL_COMMANDS='rm victim.txt'`, setup: `printf 'set(CPACK_GENERATOR TGZ)\nset(CPACK_PACKAGE_NAME x)\nset(CPACK_PACKAGE_VERSION 1)\nset(CPACK_PACKAGE_FILE_NAME x)\nset(CPACK_PACKAGE_DESCRIPTION x)\n' > CPackConfig.cmake`, tools: []string{"cpack"}},
		{command: `RM='shred -u victim.txt' make clean`, setup: `printf 'all:\n\techo hi\nclean:\n\t$(RM) *.o\n' > Makefile`, tools: []string{"make", "shred"}},
		{command: `ctest -T Build --overwrite BuildDirectory=. --overwrite MakeCommand='shred -u victim.txt'`, setup: `printf 'add_test(t echo hi)\n' > CTestTestfile.cmake`, tools: []string{"ctest", "shred"}},
	})
	decidedAs(t, newTestEngine(t, exclude("run_shell_command(rm)")), Ask, `go mod init victim.txt && go clean`, `cargo vendor .`, `pnpm install --offline --virtual-store-dir .`)
	allowedStill(t, "node --test x.test.js", "cmake -S . -B b -DCMAKE_C_FLAGS=-O2", "make clean")
}
