package engine

import "testing"

// The tenth round of attacks: each case was allowed, and did its harm as
// nobody in real bash. The cases run again here in real bash (check
// victim.txt is gone or the harm path exists, so that the case tests
// something) after gate refused them.

// TestTenthRoundGitWritesRealBash: git subcommands that write the file they
// are given plant .git/config in one command, and the git status after them
// runs core.fsmonitor; patch writes where -d, -B and -r say.
func TestTenthRoundGitWritesRealBash(t *testing.T) {
	const status = " && git status >/dev/null 2>&1; true"
	const mbox = `printf 'From x Mon Sep 17 00:00:00 2001\nFrom: a <a@b>\nSubject: s\n\n[core]\n\tfsmonitor = rm -f victim.txt\n' > m.mbox`
	// a patch written by an earlier call that creates hooks/pre-commit
	const newHook = `printf -- '--- /dev/null\n+++ hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+rm -f victim.txt\n' > p.diff`
	const hook = `printf '#!/bin/sh\nrm -f victim.txt\n' > pre-commit && chmod +x pre-commit && printf -- '--- pre-commit\n+++ pre-commit\n@@ -1,2 +1,3 @@\n #!/bin/sh\n rm -f victim.txt\n+# x\n' > p.diff`
	runHarm(t, []harmCase{
		{command: "git interpret-trailers --in-place --trailer $';x: y\\n\\tfsmonitor = rm -f victim.txt #' .git/config" + status, setup: harmRepo, tools: []string{"git"}},
		{command: "git interpret-trailers --in-pl --trailer $';x: y\\n\\tfsmonitor = rm -f victim.txt #' .git/config" + status, setup: harmRepo, tools: []string{"git"}},
		{command: "cp .git/config c2 && printf '\\tfsmonitor = rm -f victim.txt\\n' >> c2 && git merge-file .git/config .git/config c2" + status, setup: harmRepo, tools: []string{"git"}},
		{command: "git mailinfo .git/config pf < m.mbox >/dev/null" + status, setup: harmRepo + " && " + mbox, tools: []string{"git"}},
		{command: "mkdir -p ../ms && git mailsplit -o../ms m.mbox >/dev/null", setup: harmRepo + " && " + mbox, tools: []string{"git"}, harm: "../ms/0001"},
		// the planted hook runs at the next commit, a later call
		{command: "patch -s -d .git -p0 -i ../p.diff", setup: harmRepo + " && " + newHook, tools: []string{"git", "patch"}, harm: ".git/hooks/pre-commit"},
		{command: "patch -s --directory=.git -p0 < p.diff", setup: harmRepo + " && " + newHook, tools: []string{"git", "patch"}, harm: ".git/hooks/pre-commit"},
		{command: "patch -s -b -B .git/hooks/ pre-commit p.diff", setup: harmRepo + " && " + hook, tools: []string{"git", "patch"}, harm: ".git/hooks/pre-commit"},
		{command: "patch -s -b --prefix=.git/hooks/ pre-commit p.diff", setup: harmRepo + " && " + hook, tools: []string{"git", "patch"}, harm: ".git/hooks/pre-commit"},
	})
	allowedStill(t,
		"git merge-file -p a.txt base.txt b.txt",
		"git interpret-trailers --trailer 'Signed-off-by: a <a@b>' msg.txt",
		"git mailinfo msg patch < m.mbox",
		// (patch itself is rm's equivalent: it deletes what a diff
		// deletes; --dry-run only reports)
		"patch --dry-run -p1 -i fix.patch",
		"patch --dry-run -d src -p1 < fix.patch",
	)
}

// TestTenthRoundOutputsRealBash: a compressor told the suffix of names it
// finds at run time, or given a list of names, writes anywhere (the agent's
// own settings); archivers, rsync and Python told where to write.
func TestTenthRoundOutputsRealBash(t *testing.T) {
	const claude = "mkdir .claude && echo '{}' > .claude/settings"
	runHarm(t, []harmCase{
		{command: "printf '.claude/settings\\n' > list; xz -kf -S .json --files=list", setup: claude, tools: []string{"xz"}, harm: ".claude/settings.json"},
		{command: "echo .claude/settings | xargs xz -kf -S .json", setup: claude, tools: []string{"xz"}, harm: ".claude/settings.json"},
		{command: "find . -name settings -exec xz -kf -S .json {} +", setup: claude, tools: []string{"xz"}, harm: ".claude/settings.json"},
		{command: "echo ../zl > list && zstd -q --filelist=list", setup: "echo x > ../zl", tools: []string{"zstd"}, harm: "../zl.zst"},
		// the index holds what the agent put there: checkout-index and
		// checkout -- PATH write the paths they are given
		{command: "git checkout-index .claude/settings.json", setup: "git init -q && mkdir .claude && echo '{}' > .claude/settings.json && git add .claude/settings.json && rm .claude/settings.json", tools: []string{"git"}, harm: ".claude/settings.json"},
		{command: "git checkout -- .claude/settings.json", setup: "git init -q && mkdir .claude && echo '{}' > .claude/settings.json && git add .claude/settings.json && rm .claude/settings.json", tools: []string{"git"}, harm: ".claude/settings.json"},
		{command: "git reflog -1 --output=../rl", setup: harmRepo, tools: []string{"git"}, harm: "../rl"},
		{command: "git rev-list -1 HEAD --output=../rv", setup: harmRepo, tools: []string{"git"}, harm: "../rv"},
		{command: "tar -tf x.tar --index-file=../idx", setup: "tar -cf x.tar victim.txt", tools: []string{"tar"}, harm: "../idx"},
		{command: "mkdir -p ../arout && ar x a.a --output=../arout", setup: "echo m > mem && ar rc a.a mem", tools: []string{"ar"}, harm: "../arout/mem"},
		// --backup-dir is relative to the destination
		{command: "rsync -aI --backup --backup-dir=../../rsb src/ dst/", setup: "mkdir src dst && echo a > src/f && echo b > dst/f", tools: []string{"rsync"}, harm: "../rsb/f"},
		{command: "env -u PYTHONDONTWRITEBYTECODE python3 -X pycache_prefix=../pc -c 'import json'", tools: []string{"python3"}, harm: "../pc"},
	})
	refusedStill(t, "rsync -a -T ../rst --delay-updates src/ dst/", "rsync -a --temp-dir=../rst src/ dst/")
	allowedStill(t,
		"find . -name '*.log' -exec gzip {} \\;",
		"ls *.log | xargs gzip -k",
		"gzip -S .bak notes.txt",
		"xz -k notes.txt",
		"tar --list -f x.tar",
		"rsync -a --backup src/ dst/",
		"rsync -a --partial src/ dst/",
		"python3 -X importtime -c 'print(1)'",
	)
}

// TestTenthRoundDebuggersRealBash: debuggers and pagers that read commands
// from standard input or from a file the command writes.
func TestTenthRoundDebuggersRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: "pdb3 app.py <<< '!import os; os.remove(\"victim.txt\")'", setup: "echo x=1 > app.py", tools: []string{"pdb3"}},
		{command: "gawk -D -f main.awk <<< 'eval \"system(\\\"rm victim.txt\\\")\"' >/dev/null", setup: "echo 'BEGIN{x=1}' > main.awk", tools: []string{"gawk"}},
		{command: "printf 'eval \"system(\\\\\"rm victim.txt\\\\\")\"\\nquit\\n' > d; gawk --debug=d -f main.awk >/dev/null", setup: "echo 'BEGIN{x=1}' > main.awk", tools: []string{"gawk"}},
		{command: "printf 'unlink \"victim.txt\";' > .perldb; perl -d app.pl", setup: "echo 'print 1;' > app.pl", tools: []string{"perl"}},
		{command: "printf '#env\\nLESSOPEN=|rm victim.txt %%s\\n' > x; less --lesskey-src=x README.md", setup: "echo r > README.md", tools: []string{"less"}},
		{command: "printf '#env\\nLESSOPEN=|rm victim.txt %%s\\n' > x; pager --lesskey-src=x README.md", setup: "echo r > README.md", tools: []string{"pager"}},
		{command: "printf 'DEFINE pager rm victim.txt\\nDEFINE cat rm victim.txt\\nDEFINE col rm victim.txt\\nDEFINE tbl rm victim.txt\\n' > x; man -C x -l README.md", setup: "echo r > README.md", tools: []string{"man"}},
	})
	allowedStill(t,
		"less README.md",
		"perl app.pl",
		"gawk '{print $1}' notes.txt",
		"man -l README.md",
	)
}

// TestTenthRoundProjectCodeRealBash: a file the command writes, loaded by a
// script of the project that the command then runs: a module imported, a
// file sourced, a script a recipe or a test runs.
func TestTenthRoundProjectCodeRealBash(t *testing.T) {
	const pyRemove = `printf 'import os\nos.remove("victim.txt")\n'`
	runHarm(t, []harmCase{
		{command: pyRemove + " > json.py; python3 app.py", setup: "echo 'import json' > app.py", tools: []string{"python3"}},
		{command: pyRemove + " > helper.py; python3 app.py", setup: "echo 'import helper' > app.py", tools: []string{"python3"}},
		{command: pyRemove + " > tools/json.py; python3 tools/app.py", setup: "mkdir tools && echo 'import json' > tools/app.py", tools: []string{"python3"}},
		{command: pyRemove + " > json.py; ./app.py", setup: "printf '#!/usr/bin/env python3\\nimport json\\n' > app.py && chmod +x app.py", tools: []string{"python3"}},
		{command: "echo 'rm victim.txt' > helper.sh; bash build.sh", setup: "echo '. ./helper.sh' > build.sh"},
		{command: "echo 'rm victim.txt' > .env; ./run.sh", setup: "printf '#!/bin/sh\\nset -a; . ./.env; set +a\\n' > run.sh && chmod +x run.sh"},
		{command: "echo 'rm victim.txt' > lib; . ./main.sh", setup: "echo '. ./lib' > main.sh"},
		{command: "echo 'rm victim.txt' > scripts/test.sh; make -s test", setup: "mkdir scripts && printf 'test:\\n\\tsh scripts/test.sh\\n' > Makefile", tools: []string{"make"}},
		{command: "printf 'unlink \"victim.txt\";1;' > Helper.pm; perl -I. app.pl", setup: "echo 'use Helper;' > app.pl", tools: []string{"perl"}},
	})
	allowedStill(t,
		"python3 app.py",
		"echo data > input.txt && python3 app.py",
		"bash build.sh",
		"chmod +x build.sh && ./build.sh",
		"touch build.sh && ./build.sh",
		"gzip -d x.gz && make",
		"echo 3 > n.txt && make",
		"pkill -f server.py; python3 server.py",
	)
}

// TestGitDeletesRealBash: git rm refuses a modified file only as far as
// the index tells it, and other git subcommands delete a file only the
// index holds (or take untracked files away): each is rm's equivalent and
// asks under an rm exclude.
func TestGitDeletesRealBash(t *testing.T) {
	const edited = harmRepo + " && echo precious-edit > victim.txt"
	runHarm(t, []harmCase{
		// the edit is in no object afterwards: lost
		{command: "git update-index --assume-unchanged victim.txt && git rm -q victim.txt", setup: edited, tools: []string{"git"}},
		{command: "git add victim.txt && git reset -q --hard", setup: "git init -q", tools: []string{"git"}},
		{command: "git add victim.txt && git reset -q --har", setup: "git init -q", tools: []string{"git"}},
		{command: "git add victim.txt && git checkout -qf HEAD", setup: "git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x", tools: []string{"git"}},
		{command: "git add victim.txt; git restore -s HEAD -SW .", setup: "git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x", tools: []string{"git"}},
		{command: "git add victim.txt; git checkout -q --no-overlay HEAD -- .", setup: "git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x", tools: []string{"git"}},
		{command: "git stash -qu", setup: "git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x", tools: []string{"git"}},
	})
	allowedStill(t,
		"git rm --cached victim.txt",
		"git stash",
		"git checkout main",
		"git checkout -- src/main.go",
		"git restore src/main.go",
		"git reset --soft HEAD~1",
	)
}

// TestImportsNamedModulesRealBash: inline code or a script that imports
// modules is unprovable after the command writes any file Python could
// import (the modules it names import others: json imports re, which
// imports enum), or runs a program that may create files under names gate
// does not see; other writes (the script itself, a log) and programs whose
// writes are all named (git log, curl without -O) leave it proven.
func TestImportsNamedModulesRealBash(t *testing.T) {
	const evil = "printf 'import os\\nos.remove(\"victim.txt\")\\n' > e.py"
	runHarm(t, []harmCase{
		{command: "cp e.py json.py && python3 -c 'import json'", setup: evil, tools: []string{"python3"}},
		{command: "mkdir -p json && cp e.py json/__init__.py && python3 -c 'import json; print(1)'", setup: evil, tools: []string{"python3"}},
		{command: "cp e.py json.py | python3 -c 'import time, json; time.sleep(1)'", setup: evil, tools: []string{"python3"}},
		{command: "cat <<'EOF' > x.py\nimport helper\nprint(1)\nEOF\ncp e.py helper.py; python3 x.py", setup: evil, tools: []string{"python3"}},
		// (Debian's python3 imports re and enum only when asked; a python3
		// whose start-up imports them is not fooled)
		{command: "cp e.py enum.py; /usr/bin/python3 -c 'import json; print(json.dumps(1))'", setup: evil, tools: []string{"/usr/bin/python3"}},
		{command: "cp e.py types.py; /usr/bin/python3 -c 'import re; print(re.sub(\"a\", \"b\", \"a\"))'", setup: evil, tools: []string{"/usr/bin/python3"}},
		{command: "cat <<'EOF' > t.py\nimport json\nprint(json.dumps({}))\nEOF\ncp e.py enum.py; /usr/bin/python3 t.py", setup: evil, tools: []string{"/usr/bin/python3"}},
		{command: "git log -1 --output=json.py --format='import os%nos.remove(\"victim.txt\")' && python3 -c 'import json'", setup: harmRepo, tools: []string{"git", "python3"}},
	})
	allowedStill(t,
		"cat <<'EOF' > x.py\nimport json\nprint(json.dumps({'a': 1}))\nEOF\npython3 x.py",
		"git status && python3 -c 'import json; print(1)'",
		"git log -1 > build/last.txt && python3 -c 'import json; print(1)'",
		"curl -s http://127.0.0.1:1/x | python3 -c 'import json, sys; print(json.load(sys.stdin))'",
		"echo x > notes.txt && python3 -c 'import json; print(1)'",
	)
	refusedStill(t,
		"curl -sO http://127.0.0.1:1/json.py | python3 -c 'import json'",
		"wget -q http://127.0.0.1:1/json.py; python3 -c 'import json'",
		"pip install x && python3 -c 'import x'",
		"git checkout x && python3 -c 'import json'",
		"echo > \"$f\"; python3 -c 'import json'",
	)
}

// TestFindingsInTheirSubcommand: a catalogue finding scoped to a subcommand
// (gh alias set, go env -w, pip config set) does not fire on other
// subcommands, option values or the arguments after -- that a program
// passes on; in its subcommand it still does.
func TestFindingsInTheirSubcommand(t *testing.T) {
	allowedStill(t,
		"gh pr create --title x --body \"$(cat <<'EOF'\n## Summary\n- adds x\nEOF\n)\"",
		"gh issue list --label editor",
		"gh pr comment 4 --body '!important'",
		"go run . -w",
		"cargo run -- --config c.toml",
		"npm run build -- --browser chrome",
		"pip show edit",
		"pnpm add node-options",
		"npm --loglevel silent install",
		"npm install explore",
	)
	// a global option the entry does not know may take the word after it
	runHarm(t, []harmCase{
		{command: "npm --loglevel silent explore x -- rm ../../victim.txt", setup: "mkdir -p node_modules/x && echo '{\"name\":\"x\",\"version\":\"1.0.0\"}' > node_modules/x/package.json", tools: []string{"npm"}},
	})
	refusedStill(t,
		"pip --cache-dir D config set global.python ./x",
		"npm --loglevel silent config set script-shell ./x",
		"go env --w GOFLAGS=-toolexec=./x",
		"gh alias set co '!rm victim.txt'",
		"gh alias set co \"$x\"",
		"gh alias set --shell co x",
		"gh alias import aliases.yml",
		"gh config set editor vim",
		"go env -w GOFLAGS=-toolexec=./x",
		"cargo --config 'target.x.runner=\"sh\"' run",
		"cargo run --config x",
		"npm --script-shell=./x test",
		"npm explore x -- rm victim.txt",
		"pip config set global.python ./x",
		"yarn config set yarnPath ./x",
		"pnpm config set script-shell ./x",
	)
}

// TestIntegersAndReadOnlyBuiltins: values bash keeps numbers ($?, $#, $$,
// $!, ${#x}) hold no subscript; declare -p, test -v and [[ -v ]] only read
// the variable they name; git's subcommand options take their value (commit
// -m "$msg" is the message); interpreters' version options exit. Their
// dangerous neighbours stay refused, and a versioned interpreter's REPL is
// its interpreter's.
func TestIntegersAndReadOnlyBuiltins(t *testing.T) {
	allowedStill(t,
		"rc=$?; echo $((rc + 1))",
		"ls; rc=\"$?\"; (( rc != 0 )) && echo fail",
		"n=$#; echo $((n + 1))",
		"len=${#HOME}; echo $((len + 1))",
		"x=(a b c); n=${#x[@]}; echo \"${x[$((n-1))]}\"",
		"declare -p BASH_CMDS",
		"typeset -p PATH",
		"declare -x -p PATH",
		"test -v HOME && echo set",
		"msg=$(date); git commit -m \"$msg\"",
		"msg=$(date); git commit -m\"$msg\"",
		"x=$(date +%F); git log --since \"$x\"",
		"b=$(date +%s); git checkout -b \"$b\"",
		"python3.11 --version",
		"a=(1 2 3); unset a[1]; echo \"${a[@]}\"",
		"a=(1 2); [[ -v a[1] ]] && echo set",
	)
	// a pattern bash replaces by a file's name: the name holds a subscript
	runHarm(t, []harmCase{
		{command: "a1=x; unset a[1]*", setup: "touch 'a1[$(rm victim.txt)]'"},
	})
	refusedStill(t,
		"x=$1; echo $((x))",
		"x=${?:-a}; echo $((x))",
		"x=$-; echo $((x))",
		"x=$RANDOM; echo $((x))",
		// an append keeps the text before it: x is a0, then a0's value
		"a0='b[$(rm victim.txt)]'; x=a; x+=$?; (( x ))",
		"a0='b[$(rm victim.txt)]'; x=a; x+=0; (( x ))",
		"lua -v -i",
		"lua -v -l x",
		"declare BASH_CMDS",
		"declare -p BASH_CMDS=x",
		"export -p PATH",
		"x=--exec=./h; git commit \"$x\"",
		"x=$(date); git commit -v\"$x\"",
		"python3.11",
		"perl5.36",
		"lua5.4",
		"lua5.4 <<< 'os.execute(\"rm victim.txt\")'",
	)
}

// TestAllowlistNormalisesGlobalOptions: an allowlist entry "git status"
// also lists git with inert global options before the subcommand (-C DIR,
// --no-pager, -c with an inert key), as the conformance cases ask of a bare
// "git"; options that run a pager or read a bare repository, another
// subcommand and keys that run commands stay refused.
func TestAllowlistNormalisesGlobalOptions(t *testing.T) {
	e := newTestEngine(t, Settings{Core: []string{"run_shell_command(ls)", "run_shell_command(git status)", "run_shell_command(git log)"}, ApprovalMode: ApprovalYolo})
	for c, want := range map[string]string{
		"git status":                            Allow,
		"git -C . status":                       Allow,
		"git -C . --no-pager log -1":            Allow,
		"git -C src status":                     Deny,
		"git -c color.ui=never status":          Allow,
		"git --git-dir=x --work-tree=. status":  Deny,
		"git -p status":                         Deny,
		"git --bare status":                     Deny,
		"git -C . push":                         Deny,
		"git -C . commit -m x":                  Deny,
		"git -c core.pager='rm victim.txt' log": Deny,
		"git -C \"$d\" status":                  Deny,
		"/usr/bin/git -C . status":              Deny,
	} {
		d, err := e.Decide(t.Context(), shellCall(c))
		if err != nil || d.Decision != want {
			t.Errorf("%s: %+v %v, want %s", c, d, err, want)
		}
	}
}

// TestWritesInsideAddressesRealBash: a path written named inside a URL or an
// address word: curl uploading to a file: URL, socat's CREATE: and FILE:
// addresses.
func TestWritesInsideAddressesRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: "curl -s -T README.md \"file://$PWD/../up\"", setup: "echo r > README.md", tools: []string{"curl"}, harm: "../up"},
		{command: "curl -s -T README.md \"FILE://$PWD/../up\"", setup: "echo r > README.md", tools: []string{"curl"}, harm: "../up"},
		{command: "socat -u FILE:README.md CREATE:../so", setup: "echo r > README.md", tools: []string{"socat"}, harm: "../so"},
		{command: "echo '{}' | socat -u - CREATE:.claude/settings.json", setup: "mkdir .claude", tools: []string{"socat"}, harm: ".claude/settings.json"},
	})
	allowedStill(t,
		"curl -s -T README.md https://127.0.0.1:1/up",
		"curl -s file:///etc/hostname",
		"socat - TCP:127.0.0.1:80",
	)
}

// TestFourthHelperRoundRealBash: a round against the precision changes of
// this stop (each did its harm, as nobody, while gate allowed it).
func TestFourthHelperRoundRealBash(t *testing.T) {
	const staged = "git init -q && mkdir .claude && echo '{}' > .claude/settings.json && git add .claude/settings.json && rm -r .claude"
	runHarm(t, []harmCase{
		// unset takes the function away: the program runs again
		{command: "env() { :; }; unset env; env rm victim.txt"},
		{command: "env() { :; }; unset -f env; env rm victim.txt"},
		// an append keeps the text before the number
		{command: "a0='b[$(rm victim.txt)]'; x=a; x+=$?; (( x ))"},
		// git's pathspecs: a directory, magic, a list
		{command: "git checkout -q -- .claude", setup: staged, tools: []string{"git"}, harm: ".claude/settings.json"},
		{command: "git restore -- ':/.claude'", setup: staged, tools: []string{"git"}, harm: ".claude/settings.json"},
		{command: "echo .claude/settings.json > l; git checkout -q --pathspec-from-file=l", setup: staged, tools: []string{"git"}, harm: ".claude/settings.json"},
		// socat's bare path address opens and creates the file
		{command: "echo '{}' | socat -u - ./.claude/settings.json", setup: "mkdir .claude", tools: []string{"socat"}, harm: ".claude/settings.json"},
		// npm's abbreviation after an option's value
		{command: "npm --loglevel silent explo x -- rm ../../victim.txt", setup: "mkdir -p node_modules/x && echo '{\"name\":\"x\",\"version\":\"1.0.0\"}' > node_modules/x/package.json", tools: []string{"npm"}},
	})
	refusedStill(t,
		"x=--output=../o; git shortlog -n \"$x\" HEAD",
		"x=--output=../o; git shortlog --committer \"$x\" HEAD",
		"lua -v -i",
	)
	e := newTestEngine(t, Settings{Core: []string{"run_shell_command(git status)"}, ApprovalMode: ApprovalYolo})
	for _, c := range []string{"git --git-dir=x --work-tree=. status", "git -C sub status"} {
		if d, err := e.Decide(t.Context(), shellCall(c)); err != nil || d.Decision == Allow {
			t.Errorf("%s under core git status: %+v %v, want refused", c, d, err)
		}
	}
}
