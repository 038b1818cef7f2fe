package engine

import "testing"

// TestTwentySecondRoundRealBash: what rt37 found the static layer let
// through, each run for real:
//   - a program that reads commands from its input given input from
//     elsewhere than its own redirection: exec < f, a compound command's
//     redirection, a function called with input;
//   - git starting an editor (vi, or $EDITOR) that reads the keys typed
//     from the command's input (printf ':!cmd' | git add -e);
//   - pnpm's shell mode and recursive exec, a script set with pnpm pkg set;
//   - project runners and wrappers outside the catalogue running a file
//     the command wrote (prove, chronic ./a);
//   - programs named by options (capsh --shell, start-stop-daemon -x),
//     pic -U, c99-gcc -wrapper.
func TestTwentySecondRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: `exec <<< '!rm victim.txt'; ed -s victim.txt`, tools: []string{"ed"}},
		{command: `printf '!rm victim.txt\nq\n' > k; exec < k; ed -s victim.txt`, tools: []string{"ed"}},
		{command: `( ed -s victim.txt ) <<< '!rm victim.txt'`, tools: []string{"ed"}},
		{command: `f() { ed -s victim.txt; }; f <<< '!rm victim.txt'`, tools: []string{"ed"}},
		{command: `f() { ed -s victim.txt; }; echo '!rm victim.txt' | f`, tools: []string{"ed"}},
		{command: `for i in 1; do ed -s victim.txt; done <<< '!rm victim.txt'`, tools: []string{"ed"}},
		{command: `exec <<< '.shell rm victim.txt'; sqlite3`, tools: []string{"sqlite3"}},
		{command: `{ vim -n victim.txt; } <<< $':call delete("victim.txt")\n:qa!\n'`, tools: []string{"vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | GIT_EDITOR='vim -n' git add -e`, setup: harmRepo + " && echo w >> victim.txt", tools: []string{"git", "vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | EDITOR='vim -n' git -c user.name=a -c user.email=a@b commit --allow-empty`, setup: harmRepo, tools: []string{"git", "vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | npm config edit --editor='vim -n'`, tools: []string{"npm", "vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | VISUAL='vim -n' npm config edit`, tools: []string{"npm", "vim"}},
		{command: `printf ':call delete("victim.txt")\n:qa!\n' | npm config edit`, tools: []string{"npm", "vi"}},
		{command: `pnpm -c exec 'rm victim.txt'`, setup: "echo '{}' > package.json", tools: []string{"pnpm"}},
		{command: `pnpm recursive exec rm victim.txt`, setup: "echo '{}' > package.json", tools: []string{"pnpm"}},
		{command: `mkdir -p t && printf 'unlink "victim.txt"; print "1..0\n";\n' > t/x.t && prove`, tools: []string{"prove"}},
		{command: `printf '#!/bin/sh\nrm victim.txt\n' > a; chmod +x a; chronic ./a`, tools: []string{"chronic"}},
		{command: `printf '#!/bin/sh\nrm victim.txt\n' > a; chmod +x a; lckdo l ./a`, tools: []string{"lckdo"}},
		{command: `printf '#!/bin/sh\nrm victim.txt\n' > a.sh; chmod +x a.sh; chronic "$PWD/a.sh"`, tools: []string{"chronic"}},
		{command: `capsh --shell=/usr/bin/perl -- -e 'unlink "victim.txt"'`, tools: []string{"capsh", "perl"}},
		{command: `start-stop-daemon -S -d "$PWD" -x /usr/bin/perl -- -e 'unlink "victim.txt"'`, tools: []string{"start-stop-daemon", "perl"}},
		{command: `printf '.PS\nsh "rm victim.txt"\n.PE\n' | pic -U > /dev/null`, tools: []string{"pic"}},
		{command: `printf 'int main(void){return 0;}\n' > x.c; c99-gcc -wrapper perl,-e,'unlink(q(victim.txt))' -c x.c`, tools: []string{"c99-gcc", "perl"}},
	})
	// git hands its -c configuration to the git a shell alias runs: the
	// other aliases there are followed no further, and it is a deny
	decidedAs(t, newTestEngine(t, exclude("run_shell_command(rm)")), Deny, `git -c alias.x='!git y' -c alias.y='!rm victim.txt' x`)
	runHarm(t, []harmCase{{command: `git -c alias.x='!git y' -c alias.y='!rm victim.txt' x`, setup: harmRepo, tools: []string{"git"}}})
	allowedStill(t, "git -c alias.x='!echo hi' x", "while read -r l; do echo \"$l\"; done < victim.txt", "f() { grep -c v; }; f < victim.txt", "exec 2>/dev/null; ls",
		"echo msg | git commit -F -", "echo y | git add -A", "pnpm exec eslint .", "pnpm -r exec tsc", "prove -v t/", "capsh --print", "echo '{}' > out.json && jq . ./out.json")
}
