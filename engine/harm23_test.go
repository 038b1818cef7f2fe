package engine

import "testing"

// TestTwentyFourthRoundRealBash: what rt40 and rt41 found the static layer
// let through, each run for real:
//   - an entry listing only some options read a flag it does not list as
//     the abbreviation of one taking a value (parallel --tag as --tagstring,
//     tar --sparse as --sparse-version, cpack --trace as --trace-format),
//     which swallowed the next word;
//   - runners that keep their command's words as words (parallel -q, git
//     bisect run, submodule foreach with several words, sudo -s) or quote
//     the arguments they substitute (parallel CMD {} ::: ARG) were read
//     as if they joined the words as text;
//   - variables that make a program run commands: VIMINIT, EXINIT,
//     VIMRUNTIME, PARALLEL, SCREENRC, APT_CONFIG;
//   - programs with rm's effect under other names or options (zstdmt and
//     lz4c --rm, rsync -M--delete, savelog, systemd-tmpfiles --remove,
//     go clean -modcache and yarn cache clean pointed at the workspace),
//     and moreutils' runners (chronic, ifne, mispipe, pee) running one;
//   - git writing the work tree from a tree without the file: revert,
//     sparse-checkout, switch to a commit the command made.
func TestTwentyFourthRoundRealBash(t *testing.T) {
	commit := "git -c user.email=a@b -c user.name=n "
	runHarm(t, []harmCase{
		{command: `parallel --tag rm ::: victim.txt`, tools: []string{"parallel"}},
		{command: `tar -cf /dev/null README.md --sparse --use-compress-program='rm victim.txt'`, setup: "echo r > README.md", tools: []string{"tar"}},
		{command: `printf 'execute_process(COMMAND rm victim.txt)\n' > c.txt; cpack --trace --config c.txt`, tools: []string{"cpack"}},
		{command: `parallel -q sh -c 'exec rm victim.txt' ::: x`, tools: []string{"parallel"}},
		{command: `parallel sh -c {} ::: 'exec rm victim.txt'`, tools: []string{"parallel"}},
		{command: `echo victim.txt | parallel -q sh -c 'exec rm {}'`, tools: []string{"parallel"}},
		{command: `PARALLEL=-q parallel sh -c 'exec rm victim.txt' ::: x`, tools: []string{"parallel"}},
		{command: `git bisect start HEAD HEAD~1 && git bisect run sh -c 'exec rm victim.txt'`, setup: harmRepo + " && " + commit + "commit -q --allow-empty -m two", tools: []string{"git"}},
		{command: `VIMINIT=':call delete("victim.txt")|q' vim README.md`, setup: "echo r > README.md", tools: []string{"vim"}},
		{command: `zstdmt -q --rm victim.txt`, tools: []string{"zstdmt"}},
		{command: `lz4c --rm victim.txt victim.txt.lz4`, tools: []string{"lz4c"}},
		{command: `rsync -r -M--delete --include=/victim.txt --exclude="*" src/ ./`, setup: "mkdir src", tools: []string{"rsync"}},
		{command: `savelog -q victim.txt`, tools: []string{"savelog"}},
		{command: `echo "r $PWD/victim.txt" | systemd-tmpfiles --remove -`, tools: []string{"systemd-tmpfiles"}},
		{command: `chronic unlink victim.txt`, tools: []string{"chronic"}},
		{command: `ifne -n unlink victim.txt < /dev/null`, tools: []string{"ifne"}},
		{command: `mispipe "unlink victim.txt" true`, tools: []string{"mispipe"}},
		{command: `pee "unlink victim.txt" < /dev/null`, tools: []string{"pee"}},
		{command: `chronic find . -name victim.txt -delete`, tools: []string{"chronic"}},
		{command: commit + `revert --no-edit HEAD`, setup: harmRepo, tools: []string{"git"}},
		{command: `git sparse-checkout set --no-cone "/src/"`, setup: harmRepo, tools: []string{"git"}},
		{command: `git rm -q --cached victim.txt && ` + commit + `commit -qm d && git branch -q d && git reset -q HEAD~ && git switch -q d`, setup: harmRepo + " && " + commit + "commit -q --allow-empty -m two", tools: []string{"git"}},
		{command: `git switch -q --detach "$(` + commit + `commit-tree -m e 4b825dc642cb6eb9a060e54bf8d69288fbee4904)"`, setup: harmRepo, tools: []string{"git"}},
		{command: `yarn cache clean --cache-folder "$PWD"`, tools: []string{"yarn"}},
	})
	rm := newTestEngine(t, exclude("run_shell_command(rm)"))
	// (not run: go starts its telemetry uploader in the background, which
	// writes the home directory as the test removes it)
	decidedAs(t, rm, Ask, `GOMODCACHE="$PWD" go clean -modcache`)
	decidedAs(t, rm, Deny,
		`printf 'APT::Update::Pre-Invoke {"rm %s/victim.txt";};\n' "$PWD" > a.conf && apt-get -c a.conf update`,
		`apt-get update -o APT::Update::Pre-Invoke::="unlink $PWD/victim.txt"`,
		`APT_CONFIG=a.conf apt-get update`,
		`apt-get -oDir::Cache::archives=$PWD clean`,
		`printf 'screen sh -c "rm victim.txt"\n' > x; SCREENRC=x screen -dm true`,
		`TERM=xterm EXINIT='!rm victim.txt' git commit --allow-empty -q`,
		`sudo -s sh -c 'exec rm victim.txt'`,
		`parallel --semaphore --fg -q sh -c 'exec rm victim.txt'`)
	push := newTestEngine(t, Settings{ApprovalMode: ApprovalYolo, Core: []string{"run_shell_command(git)"}, Exclude: []string{"run_shell_command(git push)"}})
	decidedAs(t, push, Deny,
		`git bisect start HEAD HEAD~1 && git bisect run sh -c 'git push -q origin HEAD:main'`,
		`git submodule foreach sh -c 'git -c protocol.file.allow=always push -q origin HEAD:main'`,
		`TERM=xterm VIMINIT=':!git push -q origin HEAD:main' git commit --allow-empty -q`)
	decidedAs(t, push, Ask, `git subtree -P src push origin evil`, `git subtree -Psrc push origin evil`, `git subtree --annotate=x -P src push origin evil`,
		`git daemon --inetd --export-all --enable=receive-pack --base-path=.. < req`)
	allowedStill(t, "parallel --tag echo ::: a", "tar --sparse -cf x.tar victim.txt", "git checkout main && git merge feature",
		"git stash && git stash pop", "git add x && git cherry-pick --continue", "parallel sed \"'/./d'\" ::: f", "watch --interval=10 ls",
		"ssh user@host -p 2222 -o Compression=yes uptime", "chronic make", "git subtree add -P lib ../lib main", "git commit -m msg",
		// env's assignments with values known at run time are assignments
		`env FOO=$PWD ls`, `env FOO="$HOME/x" ls`, "echo a | xargs --exit echo")
	refusedStill(t, `env BASH_ENV=$f bash -c ls`, `env LD_PRELOAD=$PWD/x.so ls`, `env FOO=$X rm x`, `env "$X" ls`)
}
