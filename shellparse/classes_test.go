package shellparse

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Table tests of the classes issue 15 makes unprovable or unwraps: one row
// (at least) per class, with a benign neighbour that stays provable.

// Wrappers read with their getopt specification.
func TestSegmentsWrapperGetopt(t *testing.T) {
	runRows(t, []row{
		// xargs -i takes its argument only attached: rm is the command, and
		// input replaces {} instead of being appended.
		r("xargs -i rm x", seg("xargs", "xargs", "-i", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "xargs")),
		r("xargs -n1 rm", seg("xargs", "xargs", "-n1", "rm").wraps().tr(), seg("rm", "rm", "<input>").in("wrapper").by(0, "xargs").dyn(1)),
		// env --ignore-signal takes an optional argument.
		r("env --ignore-signal rm x", seg("env", "env", "--ignore-signal", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("strace -qq --output /dev/null rm x", seg("strace", "strace", "-qq", "--output", "/dev/null", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "strace")),
		// an option the spec does not know makes the wrapper unprovable
		r("env --frobnicate rm x", seg("env", "env", "--frobnicate", "rm", "x").wraps().tr().find("unknown_option")),
		// su permutes: -c after the user is still su's option
		r("su - joe -c 'rm x'", seg("su", "su", "-", "joe", "-c", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "su -c")),
		r("runuser -l bob -c 'rm x'", seg("runuser", "runuser", "-l", "bob", "-c", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "runuser -c")),
		r("runuser -u bob -- rm x", seg("runuser", "runuser", "-u", "bob", "--", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "runuser")),
		r("flock /tmp/l -c 'rm x'", seg("flock", "flock", "/tmp/l", "-c", "rm x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "flock -c")),
		r("sg root 'rm x'", seg("sg", "sg", "root", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sg")),
		r("setarch x86_64 -R rm x", seg("setarch", "setarch", "x86_64", "-R", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "setarch")),
		r("toybox rm x", seg("toybox", "toybox", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(0, "toybox")),
		r("fakeroot --lib l.so tar cf a.tar src", seg("fakeroot", "fakeroot", "--lib", "l.so", "tar", "cf", "a.tar", "src").wraps().tr().find("unknown_option"), seg("tar", "tar", "cf", "a.tar", "src").in("wrapper").by(0, "fakeroot")),
		r("at now <<< 'rm x'", seg("at", "at", "now").wraps().rd(Redirect{Op: "<<<", Target: "rm x"}), seg("rm", "rm", "x").in("wrapper").by(0, "at reading stdin")),
	})
}

// Names that are another program: a versioned or flavoured name is also
// read as its stem, git's dashed programs as git's subcommands.
func TestSegmentsProgramNames(t *testing.T) {
	runRows(t, []row{
		r("mkfs.ext4 /dev/x", seg("mkfs.ext4", "mkfs.ext4", "/dev/x").path("mkfs.ext4", "/dev/x").alt([]string{"mkfs", "/dev/x"})),
		// python3.11 is read as python3 is: -c takes x, its code
		r("python3.11 -c x", seg("python3.11", "python3.11", "-c", "x").path("python3.11").alt([]string{"python3"})),
		r("python3.11 -c \"import os; os.remove('x')\"", seg("python3.11", "python3.11", "-c", "import os; os.remove('x')").path("python3.11").alt([]string{"python3"}).find("inline_code")),
		r("lua5.4 -e x", seg("lua5.4", "lua5.4", "-e", "x").path("lua5.4").alt([]string{"lua5"}, []string{"lua"}).find("inline_code")),
		r("git-push origin", seg("git-push", "git-push", "origin").find("dynamic_wrapper").path("git-push", "origin").alt([]string{"git", "push", "origin"})),
		// any program's version is that program (pip3.11 is pip)
		r("pip3.11 config set global.editor vim", seg("pip3.11", "pip3.11", "config", "set", "global.editor", "vim").find("config_plants").path("pip3.11", "config", "set", "global.editor", "vim").alt([]string{"pip3", "config", "set", "global.editor", "vim"}, []string{"pip", "config", "set", "global.editor", "vim"})),
		// a name with a file's ending is not (script.sh is not script -c)
		r("script.sh -c x", seg("script.sh", "script.sh", "-c", "x").path("script.sh", "x").alt([]string{"script.sh"}, []string{"script", "x"}, []string{"script"})),
		// a leading dot or a one-letter stem names no program
		r(".hidden x", seg(".hidden", ".hidden", "x").path(".hidden", "x")),
		r("a.b x", seg("a.b", "a.b", "x").path("a.b", "x")),
	})
}

// An undescribed program's arguments are read as commands it may run, up to
// a bound; past it the program is unprovable (not silently cut short), and
// words that name no program (numbers) do not count.
func TestMaybeRunsBound(t *testing.T) {
	p := testParser(t)
	named := []string{"mytool"}
	numbers := []string{"mytool"}
	for i := 0; i < maxMaybeRuns+6; i++ {
		named = append(named, fmt.Sprintf("w%d", i))
		numbers = append(numbers, fmt.Sprint(i))
	}
	prog := p.Parse(strings.Join(append(named, "rm", "v"), " "))
	if s := prog.Segments[0]; len(s.MaybeRuns) != maxMaybeRuns || !segHasFinding(s, FindDynamicWrapper) {
		t.Errorf("%d arguments: %d maybe_runs, findings %v; want %d and %s", len(named), len(s.MaybeRuns), s.Findings, maxMaybeRuns, FindDynamicWrapper)
	}
	prog = p.Parse(strings.Join(numbers, " "))
	if s := prog.Segments[0]; len(s.MaybeRuns) != 0 || len(s.Findings) != 0 {
		t.Errorf("numbers: %d maybe_runs, findings %v; want none", len(s.MaybeRuns), s.Findings)
	}
}

// A parser for exec time reads an undescribed program's argv for its options
// and path only: each program it starts is decided at its own exec. The
// static parser reads the same argv as commands it may run.
func TestForExecSkipsMaybeRuns(t *testing.T) {
	c, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	const command = "mytool -q --cmd='rm -rf x' rm v"
	static := NewParser(c).Parse(command).Segments[0]
	execp := NewParser(c, ForExec()).Parse(command).Segments[0]
	if len(static.MaybeRuns) == 0 {
		t.Fatalf("static parser: no maybe_runs for %q", command)
	}
	if len(execp.MaybeRuns) != 0 || len(execp.Findings) != 0 {
		t.Errorf("exec parser: maybe_runs %v, findings %v; want none", execp.MaybeRuns, execp.Findings)
	}
	if !slices.Equal(execp.Options, static.Options) || !slices.Equal(execp.Path, static.Path) || !slices.Equal(execp.Argv, static.Argv) {
		t.Errorf("exec parser read options %v path %v argv %v; the static one %v %v %v",
			execp.Options, execp.Path, execp.Argv, static.Options, static.Path, static.Argv)
	}
}

// Text given to an option for people (--body, --title, -m) is not a command
// line; the same text given to another option, or as an operand, is.
func TestMaybeRunsProse(t *testing.T) {
	p := testParser(t)
	for command, want := range map[string]bool{
		"gh pr create --title 'rampart setup openclaw' --body 'rm -rf is bad'": false,
		"gh pr create --body='rm -rf x'":                                       false,
		"sometool new -d 'rm -rf x'":                                           true,
		"mytool --cmd='rm -rf x'":                                              true,
	} {
		got := false
		for _, r := range p.Parse(command).Segments[0].MaybeRuns {
			got = got || len(r) > 0 && r[0] == "rm"
		}
		if got != want {
			t.Errorf("%s: rm among maybe_runs %v, want %v", command, got, want)
		}
	}
}

func segHasFinding(s *Segment, code string) bool {
	for _, f := range s.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// Bash internals gate does not model, named by allowlist.
func TestSegmentsBashInternals(t *testing.T) {
	runRows(t, []row{
		r("BASH_CMDS[ls]=/bin/rm", asg(Assign{Name: "BASH_CMDS", Value: "/bin/rm"}).find("env_code")),
		r("POSIXLY_CORRECT=1", asg(Assign{Name: "POSIXLY_CORRECT", Value: "1"}).find("env_code")),
		r("GIT_TRACE=1 git status", seg("git", "git", "status").as(Assign{Name: "GIT_TRACE", Value: "1"})),
		r("set -k", seg("set", "set", "-k").find("rebinds_commands")),
		r("set -o posix", seg("set", "set", "-o", "posix").find("rebinds_commands")),
		r("set -euo pipefail", seg("set", "set", "-euo", "pipefail")),
		r("shopt -s cdable_vars", seg("shopt", "shopt", "-s", "cdable_vars").find("rebinds_commands")),
		r("shopt -s nullglob extglob", seg("shopt", "shopt", "-s", "nullglob", "extglob")),
		r("compgen -C 'rm x' y", seg("compgen", "compgen", "-C", "rm x", "y").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "compgen -C")),
		r("fc -s", seg("fc", "fc", "-s").find("rebinds_commands")),
		r("unset 'a[$(rm x)]'", seg("unset", "unset", "a[$(rm x)]").find("arithmetic_injection")),
		r("unset 'a[1]'", seg("unset", "unset", "a[1]")),
		// An unquoted empty word is removed: {,rm} x runs rm.
		r("{,rm} x", seg("rm", "rm", "x")),
		r("{,} rm x", seg("rm", "rm", "x")),
		r("nice {,rm} x", seg("nice", "nice", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("echo {,''}x", seg("echo", "echo", "x", "x")),
		// $'...' escapes mvdan leaves undecoded: \c@ is NUL, \x{72} is r.
		r("$'rm\\c@' x", seg("", "$'rm\\c@'", "x").dyn(0).find("dynamic_program")),
		r("$'\\x{72}m' x", seg("", "$'\\x{72}m'", "x").dyn(0).find("dynamic_program")),
		// Integer variables evaluate what is assigned to them.
		r("x='a[$(rm v)]'; declare -ai y=(x)", asg(Assign{Name: "x", Value: "a[$(rm v)]"}), seg("declare", "declare", "-ai", "y=(x)").as(Assign{Name: "y", Value: "(x)"}).find("arithmetic_injection", "arithmetic_injection")),
		r("declare -n r=y; declare -i y; r='a[$(rm v)]'", seg("declare", "declare", "-n", "r=y").as(Assign{Name: "r", Value: "y"}), seg("declare", "declare", "-i", "y").find("arithmetic_injection"), asg(Assign{Name: "r", Value: "a[$(rm v)]"})),
		r("declare -i n=0; n=n+1", seg("declare", "declare", "-i", "n=0").as(Assign{Name: "n", Value: "0"}), asg(Assign{Name: "n", Value: "n+1"})),
		r("printf -v 'a[$(rm x)]' y", seg("printf", "printf", "-v", "a[$(rm x)]", "y").find("arithmetic_injection")),
		r("test -v 'a[`rm x`]'", seg("test", "test", "-v", "a[`rm x`]").find("arithmetic_injection")),
		r("let 'a[$(rm x)]=1'", seg("let", "let", "'a[$(rm x)]=1'").find("arithmetic_injection")),
		r("let 'x=1+2'", seg("let", "let", "'x=1+2'")),
	})
}

// Text bash evaluates that looks quoted, and functions by scope.
func TestSegmentsQuotedDefaults(t *testing.T) {
	runRows(t, []row{
		r(`echo "${x:-'$(rm y)'}"`, seg("echo", "echo", `"${x:-'$(rm y)'}"`).dyn(1), seg("rm", "rm", "y").in("wrapper/cmdsubst").by(0, "a quoted default in double quotes")),
		r(`echo "${x:-'plain'}"`, seg("echo", "echo", `"${x:-'plain'}"`).dyn(1)),
	})
}

// Programs run from stdin or from a file the same command writes.
func TestSegmentsProgramFiles(t *testing.T) {
	runRows(t, []row{
		r("python3 /dev/stdin", seg("python3", "python3", "/dev/stdin").find("inline_code")),
		r("sed -f /dev/stdin f", seg("sed", "sed", "-f", "/dev/stdin", "f").find("inline_code")),
		r("make -f /proc/self/fd/0", seg("make", "make", "-f", "/proc/self/fd/0").find("inline_code")),
		r("printf x > x.js; node x.js", seg("printf", "printf", "x").rd(wr(">", "x.js")), seg("node", "node", "x.js").find("inline_code")),
		r("node x.js", seg("node", "node", "x.js")),
		r("echo {} > package.json && npm test", seg("echo", "echo", "{}").in("and").rd(wr(">", "package.json")), seg("npm", "npm", "test").in("and").find("script_file")),
		r("uniq - f; . f", seg("uniq", "uniq", "-", "f"), seg(".", ".", "f").tr().wraps().find("script_file"), seg("f", "f").in("wrapper").by(1, ".")),
		r("ed f <<< '!rm x'", seg("ed", "ed", "f").rd(Redirect{Op: "<<<", Target: "!rm x"}).find("inline_code")),
	})
}

// The fourteenth round's classes (rt17, rt18): whether any segment of the
// command has a finding of the code, or none at all ("").
func TestFourteenthRoundFindings(t *testing.T) {
	p := testParser(t)
	for _, tc := range []struct{ command, code string }{
		// bash's own integer variables evaluate what they are given
		{"RANDOM='a[$(rm v)]'", FindArithInjection},
		{"read OPTIND <<< 'a[$(rm v)]'", FindArithInjection},
		{"mapfile -t HISTCMD <<< 'a[$(rm v)]'", FindArithInjection},
		{"x='a[$(rm v)]'; declare -i q; : ${q:=x}", FindArithInjection},
		{"RANDOM=5; OPTIND=1; echo $RANDOM", ""},
		{"while getopts ab o; do :; done; shift $((OPTIND-1))", ""},
		// a program gate does not describe, given a name at run time
		{"xyzwrap $(echo rm) v", FindDynamicWrapper},
		{"xyzwrap l /bin/r[m] v", FindDynamicWrapper},
		// a wrapper it describes (moreutils) runs that name
		{"chronic $(echo rm) v", FindDynamicProgram},
		{"lckdo l /bin/r[m] v", FindGlobProgram},
		{"zrun ${x:-rm} v", FindDynamicProgram},
		{"chronic make", ""},
		{"mytool $f", ""},
		{"mytool *.jpg", ""},
		{"find . -exec mytool {} \\;", ""},
		// a project runner finds code written before it starts, not by
		// the commands it runs
		{"npx tsc --noEmit -p tsconfig.json", ""},
		{"npx jest src/a.test.ts", ""},
		{"echo x > index.js && npx foo", FindScriptFile},
		{"npm pkg set type=module", ""},
		{"npm pkg set scripts.test=x && npm test", FindScriptFile},
		// compile modules write bytecode; their inputs must be known
		{"python3 -m py_compile a.py", ""},
		{"python3 -m compileall -q src/a.py src/b.py", ""},
		{"python3 -m compileall -q src", FindInlineCode},
		{"python3 -m compileall", FindInlineCode},
		{"python3 -m py_compile -", FindInlineCode},
		{"python3 -m compileall -i list.txt", FindInlineCode},
		// values known to run nothing, and unset
		{"NODE_OPTIONS=--max-old-space-size=4096 npm run build", ""},
		{"NODE_OPTIONS='--max-old-space-size=4096 --require ./x.js' npm test", FindEnvCode},
		{"GOFLAGS=-toolexec=./x go test", FindEnvCode},
		{"unset NODE_OPTIONS", ""},
		{"unset PATH", FindEnvCode},
		// editor is vim on Debian
		{"editor -es -c '!rm v'", FindInlineCode},
		// man and gcc read programs and output files from these
		{"MANROFFOPT='-U -M. -mx' git status --help", FindEnvCode},
		{"GROFF_BIN_PATH=. man ls", FindEnvCode},
		{"DEPENDENCIES_OUTPUT=x gcc -c x.c", FindEnvCode},
		// unset of a variable whose absence matters, however spelled
		{"unset PAT[H]", FindEnvCode},
		{"declare -n r; for r in PATH; do unset r; done", FindEnvCode},
		// a function run after the command wrote what it may load
		{"f() { python3 x.py; }; echo 'import os' > x.py; f", FindScriptFile},
		{"f() { echo hi; }; echo x > out.txt; f", ""},
		// echo's literal text is the content of the file it writes
		{"echo 'print(1)' > t.py && python3 t.py", ""},
		{"echo 'import os; os.remove(\"v\")' > t.py && python3 t.py", FindInlineCode},
		{"echo -e 'print(1)' > t.py && python3 t.py", FindInlineCode},
		{"echo 'print(1)' > t.py; echo 'import os' >> t.py; python3 t.py", FindScriptFile},
	} {
		prog := p.Parse(tc.command)
		var got []string
		for _, s := range prog.Segments {
			for _, f := range s.Findings {
				got = append(got, f.Code)
			}
		}
		if tc.code == "" && len(got) > 0 || tc.code != "" && !slices.Contains(got, tc.code) {
			t.Errorf("%s: findings %v, want %q", tc.command, got, tc.code)
		}
	}
}

// A tilde after the first = of a word shaped like an assignment is
// expanded as bash does: ~ to the home directory, the others only at run
// time.
func TestAssignmentTilde(t *testing.T) {
	p := testParser(t)
	for _, tc := range []struct {
		command, want string
		dynamic       bool
	}{
		{"dd of=~/x", "of=" + p.home + "/x", false},
		{"env A=~/y:~/z true", "A=" + p.home + "/y:" + p.home + "/z", false},
		{"dd of=~+/../x", "of=~+/../x", true},
		{"dd of=~-/config", "of=~-/config", true},
		{"dd of=\\~/x", "of=~/x", false},
		{"echo --prefix=~/x", "--prefix=~/x", false},
	} {
		s := p.Parse(tc.command).Segments[0]
		if s.Argv[1] != tc.want || slices.Contains(s.Dynamic, 1) != tc.dynamic {
			t.Errorf("%s: argv[1] %q dynamic %v, want %q %v", tc.command, s.Argv[1], s.Dynamic, tc.want, tc.dynamic)
		}
	}
}
