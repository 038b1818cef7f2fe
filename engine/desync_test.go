package engine

import "testing"

// TestParserDesyncsRealBash: text that mvdan reads differently from bash
// (a red team found 373 such commands in nine classes) is refused under
// exclude rm, and real bash does run rm from each, or writes outside the
// root after moving there.
func TestParserDesyncsRealBash(t *testing.T) {
	var cases []harmCase
	// In turn: a lone CR is a word character; a comment ends at its
	// newline; # after a quoted here-document delimiter is part of it; an
	// empty brace alternative is removed; a quoted here-document keeps its
	// backslash-newlines; $'...' escapes mvdan does not decode; {NAME[...]}>
	// evaluates the subscript; integer variables evaluate what they get.
	for _, c := range []string{
		"ls\r#; rm victim.txt",
		"echo x\r#; rm victim.txt",
		">\r rm victim.txt",
		"<<<\r rm victim.txt",
		"ls #\\\nrm victim.txt",
		"x=1 # note \\\nrm victim.txt",
		"bash -c 'ls #\\\nrm victim.txt'",
		"cat <<'A'#; rm victim.txt\nA",
		"cat <<\"A\"#|rm victim.txt\nA",
		"cat <<-A''#; rm victim.txt\nA",
		"{,rm} victim.txt",
		"{,} rm victim.txt",
		"nice {,rm} victim.txt",
		"r{m,} victim.txt",
		"cat <<'A'\nx\\\nA\nrm victim.txt\nA",
		"cat <<\\A >/dev/null\nx\\\nA\nrm victim.txt\nA",
		"$'rm\\c@' victim.txt",
		"$'\\x{72}m' victim.txt",
		"ls {a['$(rm victim.txt)']}>x",
		"exec {a['`rm victim.txt`']}>/dev/null",
		"x='a[$(rm victim.txt)]'; declare -ai y=(x)",
		"x='a[$(rm victim.txt)]'; declare -i y; y=x+1",
		"declare -n r=y; declare -i y; r='a[$(rm victim.txt)]'",
		"declare -i y; declare -n r=y; read r <<<'a[$(rm victim.txt)]'",
	} {
		cases = append(cases, harmCase{command: c})
	}
	// cd run by builtin or command moves the shell itself.
	for _, c := range []string{
		"builtin cd ..; touch gate-out",
		"command cd .. && touch gate-out",
		"command -p cd ..; echo x > gate-out",
		"builtin pushd .. >/dev/null; touch gate-out",
		"cd {,..}; touch gate-out",
		"$'cd\\c@' ..; touch gate-out",
	} {
		cases = append(cases, harmCase{command: c, harm: "../gate-out"})
	}
	// A function definition followed by |, &, && or ||: bash ends the
	// definition there, so in a pipeline or a background job it defines
	// the function in a subshell only; mvdan read the operator into the
	// body and took the function for defined.
	for _, c := range []string{
		"nice() { :; } & nice rm victim.txt",
		"env() { :; } & wait; env rm victim.txt",
		"xargs() { :; } | cat; echo victim.txt | xargs rm",
		"nice() ( : ) | cat; nice rm victim.txt",
	} {
		cases = append(cases, harmCase{command: c})
	}
	runHarm(t, cases)
}

// TestParserDesyncsLookalikesAllowed: the ordinary forms of the same
// constructs stay allowed.
func TestParserDesyncsLookalikesAllowed(t *testing.T) {
	allowedStill(t,
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
		"f() { ls; } > out.txt; f",
		"f() { ls; }; f | cat",
		"f() ( ls ); f & wait",
		"f() { ls; }; f && f",
		"echo \"${HOME:=/root}\"",
		": ${JOBS:=4}; echo $JOBS",
	)
}

// TestShellReadingsRealBash: a fourth round of attacks. Scripts run by sh
// are read with the POSIX grammar too (dash is sh here); env takes any word
// with "=" for an assignment; a shell's own set and shopt options are
// checked as set and shopt are; perl runs the BEGIN blocks of a file it
// only checks; pydoc and python -m inspect import a module from the
// current directory. Each is refused under exclude rm, and really deletes
// victim.txt when run.
func TestShellReadingsRealBash(t *testing.T) {
	const script = "echo 'rm victim.txt' > x.sh"
	runHarm(t, []harmCase{
		{command: "sh -c 'ls &>/dev/null rm victim.txt'", setup: script, tools: []string{"dash"}},
		{command: "dash -c 'echo &>/dev/null rm victim.txt'", setup: script, tools: []string{"dash"}},
		{command: `sh -c "echo \$'\\' ; rm victim.txt ; echo ' #'"`, setup: script, tools: []string{"dash"}},
		{command: `sh -c 'echo "${x-'"'"'}" ; rm victim.txt ; echo "'"'"'}"'`, setup: script, tools: []string{"dash"}},
		{command: "sh <<< 'ls &>/dev/null rm victim.txt'", setup: script, tools: []string{"dash"}},
		{command: "env a-b=1 rm victim.txt", setup: script, tools: []string{"bash"}},
		{command: "env -- 'BASH_FUNC_ls%%=() { rm victim.txt; }' bash -c ls", setup: script, tools: []string{"bash"}},
		{command: "bash -k -c 'bash -c true BASH_ENV=x.sh'", setup: script, tools: []string{"bash"}},
		{command: "bash -O expand_aliases -c 'alias ls=rm\nls victim.txt'", setup: script, tools: []string{"bash"}},
		{command: "bash -o posix -c 'rm victim.txt'", setup: script, tools: []string{"bash"}},
		{command: "printf 'BEGIN { unlink \"victim.txt\" }' > x.pl; perl -c x.pl", setup: script, tools: []string{"perl"}},
		{command: "printf 'unlink \"victim.txt\"' > x.pl; perl x.pl", setup: script, tools: []string{"perl"}},
		{command: "printf 'import os; os.remove(\"victim.txt\")' > x.py; pydoc3 x >/dev/null", setup: script, tools: []string{"pydoc3"}},
		{command: "printf 'import os; os.remove(\"victim.txt\")' > x.py; python3 -m inspect x >/dev/null", setup: script, tools: []string{"python3"}},
		// writes through output options and operands of shuf and binutils
		{command: "shuf -o ../gate-out victim.txt", tools: []string{"shuf"}, harm: "../gate-out"},
		{command: "strip -o ../gate-out /bin/true", tools: []string{"strip"}, harm: "../gate-out"},
		{command: "objcopy /bin/true ../gate-out", tools: []string{"objcopy"}, harm: "../gate-out"},
		{command: "ar rc ../gate-out victim.txt", tools: []string{"ar"}, harm: "../gate-out"},
	})
	// the same shells' ordinary forms stay allowed
	allowedStill(t,
		"sh -c 'ls -la | grep x && echo $((1+2))'",
		"sh -c 'for f in *.txt; do echo \"$f\"; done'",
		"bash -euo pipefail -c 'make test'",
		"bash -O extglob -c 'ls !(x)'",
		"env FOO=1 BAR=2 make",
		"perl -c lib.pl",
		"shuf -o out.txt in.txt",
		// short version options print and exit (python3 -v stays a REPL)
		"python3 -V",
		"python -VV",
		"node -v && npm -v",
		"perl -v",
	)
}
