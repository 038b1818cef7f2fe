package engine

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestParserDesyncsRealBash: text that mvdan reads differently from bash
// (a red team found 373 such commands in nine classes) is refused under
// exclude rm, and real bash does run rm from each, or writes outside the
// root after moving there.
func TestParserDesyncsRealBash(t *testing.T) {
	for _, tc := range []struct{ class, command string }{
		{"a lone CR is a word character", "ls\r#; rm victim.txt"},
		{"a lone CR is a word character", "echo x\r#; rm victim.txt"},
		{"a lone CR is a word character", ">\r rm victim.txt"},
		{"a lone CR is a word character", "<<<\r rm victim.txt"},
		{"a comment ends at its newline", "ls #\\\nrm victim.txt"},
		{"a comment ends at its newline", "x=1 # note \\\nrm victim.txt"},
		{"a comment ends at its newline", "bash -c 'ls #\\\nrm victim.txt'"},
		{"# after a quoted here-document delimiter", "cat <<'A'#; rm victim.txt\nA"},
		{"# after a quoted here-document delimiter", "cat <<\"A\"#|rm victim.txt\nA"},
		{"# after a quoted here-document delimiter", "cat <<-A''#; rm victim.txt\nA"},
		{"an empty brace alternative is removed", "{,rm} victim.txt"},
		{"an empty brace alternative is removed", "{,} rm victim.txt"},
		{"an empty brace alternative is removed", "nice {,rm} victim.txt"},
		{"an empty brace alternative is removed", "r{m,} victim.txt"},
		{"a quoted here-document keeps its backslash-newlines", "cat <<'A'\nx\\\nA\nrm victim.txt\nA"},
		{"a quoted here-document keeps its backslash-newlines", "cat <<\\A >/dev/null\nx\\\nA\nrm victim.txt\nA"},
		{"$'...' escapes mvdan does not decode", "$'rm\\c@' victim.txt"},
		{"$'...' escapes mvdan does not decode", "$'\\x{72}m' victim.txt"},
		{"{NAME[...]}> evaluates the subscript", "ls {a['$(rm victim.txt)']}>x"},
		{"{NAME[...]}> evaluates the subscript", "exec {a['`rm victim.txt`']}>/dev/null"},
		{"integer variables evaluate what they are given", "x='a[$(rm victim.txt)]'; declare -ai y=(x)"},
		{"integer variables evaluate what they are given", "x='a[$(rm victim.txt)]'; declare -i y; y=x+1"},
		{"integer variables evaluate what they are given", "declare -n r=y; declare -i y; r='a[$(rm victim.txt)]'"},
		{"integer variables evaluate what they are given", "declare -i y; declare -n r=y; read r <<<'a[$(rm victim.txt)]'"},
	} {
		t.Run(tc.class+"/"+tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt")
			if d := r.decide(tc.command); d.Decision == Allow {
				t.Errorf("allowed: %+v", d)
			}
			if out := r.run(tc.command); r.exists("victim.txt") {
				t.Errorf("run by bash, the command did not delete victim.txt (%s): the case tests nothing", out)
			}
		})
	}
	// cd run by builtin or command moves the shell itself.
	for _, command := range []string{
		"builtin cd ..; touch gate-out",
		"command cd .. && touch gate-out",
		"command -p cd ..; echo x > gate-out",
		"builtin pushd .. >/dev/null; touch gate-out",
		"cd {,..}; touch gate-out",
		"$'cd\\c@' ..; touch gate-out",
	} {
		t.Run("cd through a wrapper/"+command, func(t *testing.T) {
			r := newRealBash(t, "")
			if d := r.decide(command); d.Decision == Allow {
				t.Errorf("allowed: %+v", d)
			}
			if out := r.run(command); !r.exists(filepath.Join("..", "gate-out")) {
				t.Errorf("run by bash, the command did not write outside the root (%s): the case tests nothing", out)
			}
		})
	}
}

// TestParserDesyncsLookalikesAllowed: the ordinary forms of the same
// constructs stay allowed.
func TestParserDesyncsLookalikesAllowed(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	for _, c := range []string{
		"ls -la # list \\\necho done",
		"ls\r\necho done\r\n",
		"printf 'a\\r\\n' | tr -d '\\r'",
		"echo \"a\rb\"",
		"cat <<'EOF' > run.sh\ndocker run \\\n  -v x:/x \\\n  img\nEOF",
		"echo {,a}b {x,y}",
		"echo $'tab\\there' $'\\x41'",
		"exec {fd}>log.txt",
		"declare -i n=0; n=n+1; echo $n",
		"declare -ai a=(1 2 3)",
		"builtin cd sub && ls",
		"command -v git",
		"echo x#y",
		"tmux new -d -s w 'python3 app.py'",
		"tmux send-keys -t w 'npm test' Enter",
		"tmux kill-session -t w && tmux ls",
		"tmux set -g mouse on",
		"screen -dmS build make",
		"screen -ls",
		"ctest -j4 --output-on-failure",
	} {
		d, err := e.Decide(t.Context(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != Allow {
			t.Errorf("%q: %+v, want allow", c, d)
		}
	}
}

// TestShellReadingsRealBash: a fourth round of attacks. Scripts run by sh
// are read with the POSIX grammar too (dash is sh here); env takes any word
// with "=" for an assignment; a shell's own set and shopt options are
// checked as set and shopt are; perl runs the BEGIN blocks of a file it
// only checks; pydoc and python -m inspect import a module from the
// current directory. Each is refused under exclude rm, and really deletes
// victim.txt when run.
func TestShellReadingsRealBash(t *testing.T) {
	for _, tc := range []struct{ tool, command string }{
		{"dash", "sh -c 'ls &>/dev/null rm victim.txt'"},
		{"dash", "dash -c 'echo &>/dev/null rm victim.txt'"},
		{"dash", `sh -c "echo \$'\\' ; rm victim.txt ; echo ' #'"`},
		{"dash", `sh -c 'echo "${x-'"'"'}" ; rm victim.txt ; echo "'"'"'}"'`},
		{"dash", "sh <<< 'ls &>/dev/null rm victim.txt'"},
		{"bash", "env a-b=1 rm victim.txt"},
		{"bash", "env -- 'BASH_FUNC_ls%%=() { rm victim.txt; }' bash -c ls"},
		{"bash", "bash -k -c 'bash -c true BASH_ENV=x.sh'"},
		{"bash", "bash -O expand_aliases -c 'alias ls=rm\nls victim.txt'"},
		{"bash", "bash -o posix -c 'rm victim.txt'"},
		{"perl", "printf 'BEGIN { unlink \"victim.txt\" }' > x.pl; perl -c x.pl"},
		{"perl", "printf 'unlink \"victim.txt\"' > x.pl; perl x.pl"},
		{"pydoc3", "printf 'import os; os.remove(\"victim.txt\")' > x.py; pydoc3 x >/dev/null"},
		{"python3", "printf 'import os; os.remove(\"victim.txt\")' > x.py; python3 -m inspect x >/dev/null"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt; echo 'rm victim.txt' > x.sh")
			if d := r.decide(tc.command); d.Decision == Allow {
				t.Errorf("allowed: %+v", d)
			}
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tc.tool)
			}
			if out := r.run(tc.command, "SHELL=/bin/sh"); r.exists("victim.txt") {
				t.Errorf("run by bash, the command did not delete victim.txt (%s): the case tests nothing", out)
			}
		})
	}
	// Writes through output options and operands of shuf and binutils.
	for _, tc := range []struct{ tool, command string }{
		{"shuf", "shuf -o ../gate-out victim.txt"},
		{"strip", "strip -o ../gate-out /bin/true"},
		{"objcopy", "objcopy /bin/true ../gate-out"},
		{"ar", "ar rc ../gate-out victim.txt"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt")
			if d := r.decide(tc.command); d.Decision == Allow {
				t.Errorf("allowed: %+v", d)
			}
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tc.tool)
			}
			if out := r.run(tc.command); !r.exists(filepath.Join("..", "gate-out")) {
				t.Errorf("run by bash, the command did not write outside the root (%s): the case tests nothing", out)
			}
		})
	}
	// The same shells' ordinary forms stay allowed.
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	for _, c := range []string{
		"sh -c 'ls -la | grep x && echo $((1+2))'",
		"sh -c 'for f in *.txt; do echo \"$f\"; done'",
		"bash -euo pipefail -c 'make test'",
		"bash -O extglob -c 'ls !(x)'",
		"env FOO=1 BAR=2 make",
		"perl -c lib.pl",
		"shuf -o out.txt in.txt",
	} {
		d, err := e.Decide(t.Context(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != Allow {
			t.Errorf("%q: %+v, want allow", c, d)
		}
	}
}
