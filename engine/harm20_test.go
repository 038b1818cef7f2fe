package engine

import "testing"

// TestTwentyFirstRoundRealBash: what rt36 found the static layer let
// through, each run for real:
//   - GNU sed ends a label (and v's version) at white space: ':a e CMD';
//   - a redirection of a compound command ({ …; } > f, ( … ) > f) writes
//     f for the commands after it, as a simple command's does;
//   - /proc/self/root/dev/stdin is /dev/stdin, /proc/self/cwd/X is X;
//   - vim reads the keys typed from a standard input that is not a
//     terminal, in any mode;
//   - npm exec (and pnpm, yarn) take the first "--" for their own: npm
//     exec node -- -e CODE runs node -e CODE; npm run env runs env;
//   - an editor command is given a file name at run time: git config
//     --edit with core.editor='cp F' copies F over .git/config, rebase -i
//     with GIT_SEQUENCE_EDITOR='cp F' runs the todo list F holds.
func TestTwentyFirstRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: `echo x | sed ':a e rm victim.txt'`},
		{command: `echo x | sed -n 'v 4.2 e rm victim.txt'`},
		{command: `{ echo 'import os; os.remove("victim.txt")'; } > x.py; python3 x.py`, tools: []string{"python3"}},
		{command: `( echo 'unlink "victim.txt";' ) > x.pl && perl x.pl`, tools: []string{"perl"}},
		{command: `for i in 1; do echo 'unlink "victim.txt";'; done > x.pl; perl x.pl`, tools: []string{"perl"}},
		{command: `{ printf 'require("fs").unlinkSync("victim.txt")'; } > server.js; npm start`, setup: "echo '{}' > package.json", tools: []string{"npm", "node"}},
		{command: `{ echo '{"scripts":{"test":"rm victim.txt"}}'; } > package.json && npm test`, tools: []string{"npm"}},
		{command: `python3 /proc/self/root/dev/stdin <<< 'import os; os.remove("victim.txt")'`, tools: []string{"python3"}},
		{command: `perl /proc/self/root/proc/self/fd/0 <<< 'unlink q(victim.txt)'`, tools: []string{"perl"}},
		{command: `printf '#!/bin/sh\nexit 0\n' > /proc/self/cwd/.git/hooks/pre-commit`, setup: harmRepo, tools: []string{"git"}, harm: ".git/hooks/pre-commit"},
		{command: `vim -n README.md <<< $':!rm victim.txt\n:qa!\n'`, setup: "echo r > README.md", tools: []string{"vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | vi -n README.md`, setup: "echo r > README.md", tools: []string{"vi"}},
		{command: `npm run env -- rm victim.txt`, setup: "echo '{}' > package.json", tools: []string{"npm"}},
		{command: `npm exec node -- -e 'require("fs").unlinkSync("victim.txt")'`, setup: "echo '{}' > package.json", tools: []string{"npm", "node"}},
		// pnpm runs a first word that is none of its commands as pnpm exec
		{command: `pnpm node -e 'require("fs").unlinkSync("victim.txt")'`, setup: "echo '{}' > package.json", tools: []string{"pnpm", "node"}},
		{command: `pnpm sh -c 'rm victim.txt'`, setup: "echo '{}' > package.json", tools: []string{"pnpm"}},
		{command: `printf '[core]\n\tfsmonitor = rm victim.txt\n' > x.cfg; git -c core.editor='cp x.cfg' config --edit && git status`, setup: harmRepo, tools: []string{"git"}},
		{command: `printf 'exec rm victim.txt\n' > t; GIT_SEQUENCE_EDITOR='cp t' git rebase -i HEAD`, setup: harmRepo, tools: []string{"git"}},
		// sed's w command and s///w flag write the file that ends the line
		{command: `sed -n '/v/w .git/hooks/pre-commit' victim.txt`, setup: harmRepo, tools: []string{"git"}, harm: ".git/hooks/pre-commit"},
		{command: `sed -n 's/v/#!\/bin\/sh/w .git/hooks/post-checkout' victim.txt`, setup: harmRepo, tools: []string{"git"}, harm: ".git/hooks/post-checkout"},
		{command: `sed -n 'w x.sh' victim.txt; sed -i 's/v/rm victim.txt/' x.sh; bash x.sh`},
	})
	// over-blocks rt36 found: sed writing its output to a file of the
	// workspace or to /dev/stdout, git's trace to stderr or a file
	allowedStill(t, `sed -n 's/v/&/w /dev/stdout' victim.txt`, `sed -n '/v/w build/headers.txt' victim.txt`,
		"GIT_TRACE2=1 git status", "GIT_TRACE2_PERF=2 git status", "GIT_TRACE=1 git status")
	allowedStill(t, `sed ':a;N;$!ba;s/\n/ /g' victim.txt`, `sed '/^$/b end
s/a/b/
:end' victim.txt`, "{ echo a; echo b; } > out.txt && cat out.txt", "cat /proc/self/cwd/victim.txt",
		"vim victim.txt", "npm exec -- eslint .", "npm run env", "EDITOR=vim git commit", "GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash HEAD~3")
}
