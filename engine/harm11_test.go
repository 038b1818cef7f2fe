package engine

import "testing"

// The eleventh round of attacks: each case was allowed, and did its harm
// in real bash. The cases run again here in real bash (check victim.txt is
// gone or the harm path exists, so that the case tests something) after
// gate refused them.

// TestEleventhRoundConfigAndDataRealBash: pnpm and yarn read npm's
// script-shell (and their own keys) from the configuration their config
// set writes, as npm does; uudecode writes the file its data names, and
// unshar runs a shell archive, which is a shell script; the Python
// debuggers read commands from standard input, as pdb does.
func TestEleventhRoundConfigAndDataRealBash(t *testing.T) {
	const pkg = `printf '{"name":"x","version":"1.0.0","scripts":{"test":"echo ok"}}\n' > package.json && printf '#!/bin/sh\nrm -f victim.txt\n' > s.sh && chmod +x s.sh`
	runHarm(t, []harmCase{
		{command: "pnpm config set script-shell=./s.sh >/dev/null && pnpm test", setup: pkg, tools: []string{"pnpm"}},
		{command: "pnpm c set script-shell ./s.sh >/dev/null && pnpm test", setup: pkg, tools: []string{"pnpm"}},
		{command: "pnpm --dir . set script-shell=$PWD/s.sh >/dev/null && pnpm test", setup: pkg, tools: []string{"pnpm"}},
		{command: "yarn config set script-shell ./s.sh >/dev/null && yarn -s test", setup: pkg, tools: []string{"yarn"}},
		{command: "printf 'begin 644 .git/hooks/pre-commit\\n#:&D*\\n`\\nend\\n' | uudecode", setup: "git init -q", tools: []string{"uudecode", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "printf 'begin 644 ../out.txt\\n#:&D*\\n`\\nend\\n' > a.uu; uudecode a.uu", tools: []string{"uudecode"}, harm: "../out.txt"},
		{command: "uudecode -o ../out.txt a.uu", setup: "printf 'begin 644 x\\n#:&D*\\n`\\nend\\n' > a.uu", tools: []string{"uudecode"}, harm: "../out.txt"},
		// unshar runs a shell archive: a shell script
		{command: "printf '#!/bin/sh\\nrm -f victim.txt\\n' | unshar >/dev/null", tools: []string{"unshar"}},
		{command: "printf '#!/bin/sh\\nrm -f victim.txt\\n' > x.shar; unshar x.shar >/dev/null", tools: []string{"unshar"}},
	})
	allowedStill(t,
		"pnpm config set registry https://registry.example.com",
		"pnpm config get script-shell",
		"yarn config set registry https://registry.example.com",
		"yarn config get registry",
		"pnpm test",
		"uudecode -o out.bin data.uu",
		"unshar -d src project.shar",
	)
	// ipdb and pudb are not installed here: pdb's real run is in
	// TestTenthRound (the same catalogue entry)
	refusedStill(t, "echo c | ipdb3 x.py", "pudb3 x.py < cmds", "python3 -m ipdb x.py < cmds", "echo c | python3 -m pudb x.py")
}

// TestEleventhRoundOtherNamesRealBash: programs installed under another
// name than their catalogue entry's: the ts-node package's other commands,
// gdb -tui, yarn as Debian and the yarn package name it (yarnpkg),
// restricted bash, any program's version (pip3.11); scriptlive replays a
// logged session's input into a shell.
func TestEleventhRoundOtherNamesRealBash(t *testing.T) {
	const pkg = `printf '{"name":"x","version":"1.0.0","scripts":{"test":"echo ok"}}\n' > package.json && printf '#!/bin/sh\nrm -f victim.txt\n' > s.sh && chmod +x s.sh`
	runHarm(t, []harmCase{
		{command: `ts-node-transpile-only -O '{"module":"commonjs","moduleResolution":"node"}' -e 'require("fs").unlinkSync("victim.txt")'`, tools: []string{"ts-node-transpile-only"}},
		{command: `ts-node-cwd -T -O '{"module":"commonjs","moduleResolution":"node"}' -e 'require("fs").unlinkSync("victim.txt")'`, tools: []string{"ts-node-cwd"}},
		// -nw: the TUI needs a terminal
		{command: "gdbtui -nw -batch -ex 'shell rm -f victim.txt'", tools: []string{"gdbtui"}},
		{command: "yarnpkg config set script-shell ./s.sh >/dev/null && yarnpkg -s test", setup: pkg, tools: []string{"yarnpkg"}},
		{command: "rbash -c 'rm -f victim.txt'", tools: []string{"rbash"}},
		// any program's version is that program: pip3.11 config set
		// global.python makes the next pip run that program
		{command: "pip3.11 config --user set global.python $PWD/s.sh >/dev/null && pip3.11 --version", setup: pkg, tools: []string{"pip3.11"}},
	})
	allowedStill(t,
		"rbash -c 'ls -la'",
		"yarnpkg install --frozen-lockfile",
		"gdbtui -batch ./app",
		"scriptreplay -t t.tm session.log",
	)
	// scriptlive types the log into a shell on a terminal
	refusedStill(t, "printf 'rm victim.txt\\n' > in.log; scriptlive -I in.log -t t.tm", "scriptlive -c 'rm victim.txt' -t t.tm -I in.log")
}

// TestEleventhRoundJVMOptionsRealBash: the JVM's options are one word each
// (-Xmx4m is not -X -m x4m, which had ended java's options before
// -XX:OnOutOfMemoryError=CMD); the JDK's other tools take JVM options
// after -J; maven reads more of them from .mvn/jvm.config.
func TestEleventhRoundJVMOptionsRealBash(t *testing.T) {
	const src = "printf 'class X { public static void main(String[] a) { System.out.println(1); } }\\n' > X.java"
	const evil = "printf '#!/bin/sh\\nrm -f victim.txt\\n' > evil && chmod +x evil"
	runHarm(t, []harmCase{
		{command: "java -Xmx4m -XX:OnOutOfMemoryError='rm victim.txt' X.java", setup: src, tools: []string{"java"}},
		{command: "javac -J-Xms2m -J-Xmx4m -J-XX:OnOutOfMemoryError='rm victim.txt' X.java", setup: src, tools: []string{"javac"}},
		{command: "javac -J-Xms2m -J-Xmx4m -J-XX:OnOutOfMemoryError='find victim.txt -delete' X.java", setup: src, tools: []string{"javac"}},
		{command: "mkdir -p .mvn && echo '-Xmx3m -XX:OnOutOfMemoryError=./evil' > .mvn/jvm.config && mvn -v", setup: evil, tools: []string{"mvn"}},
		{command: "javac -d .. X.java", setup: src, tools: []string{"javac"}, harm: "../X.class"},
	})
	allowedStill(t,
		"java -Xmx4m -cp lib X",
		"java -Xmx512m -XX:+UseG1GC -jar app.jar --port 8080",
		"java -Dlog.level=debug -cp build/classes Main",
		"javac -d build -cp lib src/X.java",
		"javac -J-Xmx1g -d out X.java",
		"mvn -q package",
	)
}
