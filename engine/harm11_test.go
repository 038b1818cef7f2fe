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
		"npm config set //registry.npmjs.org/:_authToken abc",
		"pnpm config set //registry.npmjs.org/:_authToken abc",
		"uudecode -o out.bin data.uu",
		"unshar -d src project.shar",
	)
	// ipdb and pudb are not installed here: pdb's real run is in
	// TestTenthRound (the same catalogue entry)
	// a registry's tokenHelper is a program pnpm runs
	refusedStill(t, "pnpm config set //registry.example.com:tokenHelper ./t.sh", "pnpm config set //registry.example.com/:tokenHelper ./t.sh")
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
		// an annotation processor the class path declares runs in javac
		{command: "printf 'import javax.annotation.processing.*; import javax.lang.model.element.*; import java.util.*; public class P extends AbstractProcessor { public P() { new java.io.File(\"victim.txt\").delete(); } public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) { return false; } public Set<String> getSupportedAnnotationTypes() { return Set.of(\"*\"); } }\\n' > P.java && mkdir -p p/META-INF/services && javac -d p P.java && echo P > p/META-INF/services/javax.annotation.processing.Processor && javac -cp p X.java", setup: src, tools: []string{"javac"}},
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

// TestEleventhRoundWritesRealBash: where files are written. A
// decompressor's output named at run time ($PWD/.git/config) holds what
// the command chose; scp of two local paths and ptx -G copy; tar
// --transform and -P extract anywhere; git stash list and show, format-patch
// and fast-export take --output; openssl loads the engine or provider the
// same command built.
func TestEleventhRoundWritesRealBash(t *testing.T) {
	const status = " && git status >/dev/null 2>&1; true"
	const cfg = `printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = rm -f victim.txt\n'`
	const hook = `printf '#!/bin/sh\nrm -f victim.txt\n' > pre-commit && chmod +x pre-commit`
	const so = `printf '#include <unistd.h>\n__attribute__((constructor)) static void f(void) { unlink("victim.txt"); }\n' > x.c && cc -shared -fPIC -o x.so x.c`
	runHarm(t, []harmCase{
		{command: cfg + " | zstd -q | zstd -dqf -o $PWD/.git/config" + status, setup: harmRepo, tools: []string{"zstd", "git"}},
		{command: cfg + ` | zstd -q | zstd -dqf -o "$(pwd)/.git/config"` + status, setup: harmRepo, tools: []string{"zstd", "git"}},
		{command: "zstd -qf pre-commit && zstd -dqf pre-commit.zst -o $PWD/.git/hooks/pre-commit", setup: harmRepo + " && " + hook, tools: []string{"zstd", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "lz4 -qf README.md c.lz4 && lz4 -dqf c.lz4 $PWD/../lz.out", setup: "echo r > README.md", tools: []string{"lz4"}, harm: "../lz.out"},
		{command: cfg + " > cfg && scp cfg $PWD/.git/config" + status, setup: harmRepo, tools: []string{"scp", "git"}},
		{command: "scp README.md ../scp.out", setup: "echo r > README.md", tools: []string{"scp"}, harm: "../scp.out"},
		{command: "ptx -G README.md ../ptx.out", setup: "echo r > README.md", tools: []string{"ptx"}, harm: "../ptx.out"},
		{command: "tar xf x.tar --transform 's,^,.git/hooks/,'", setup: harmRepo + " && " + hook + " && tar cf x.tar pre-commit", tools: []string{"tar", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "tar -xPf x.tar", setup: `echo r > README.md && tar -cPf x.tar --transform "s,^,$(dirname "$PWD")/tp_," README.md 2>/dev/null`, tools: []string{"tar"}, harm: "../tp_README.md"},
		{command: "git stash list --output=../stash.out", setup: harmRepo + " && echo w >> victim.txt && git -c user.email=a@b -c user.name=n stash -q", tools: []string{"git"}, harm: "../stash.out"},
		{command: "git stash show -p --output=../stash2.out", setup: harmRepo + " && echo w >> victim.txt && git -c user.email=a@b -c user.name=n stash -q", tools: []string{"git"}, harm: "../stash2.out"},
		{command: "git format-patch -1 --output=../fp.out", setup: harmRepo, tools: []string{"git"}, harm: "../fp.out"},
		{command: "git fast-export --all --output=../fe.out", setup: harmRepo, tools: []string{"git"}, harm: "../fe.out"},
		{command: so + " && openssl list -provider-path . -provider x -providers >/dev/null 2>&1; true", tools: []string{"cc", "openssl"}},
	})
	allowedStill(t,
		"zstd -dqf data.zst -o data.json",
		"zstd -qf big.log -o \"$out\"",
		"for f in *.gz; do gunzip \"$f\"; done",
		"find . -name '*.gz' -exec gunzip {} +",
		"gunzip logs/*.gz",
		"tar czf \"$name.tar.gz\" src",
		"tar xzf release.tgz --strip-components 1",
		"scp dist.tgz deploy@web:/srv/",
		"scp deploy@web:/var/log/app.log .",
		"git stash list",
		"git format-patch -3 -o patches/",
		"openssl req -new -key k.pem -out r.csr -subj /CN=x",
		"gunzip test1/*/*.gz",
		"tar czfP backup.tar.gz /srv/catalog",
		"find . -type f -exec scp {} backup:/srv/{} \\;",
		"scp -r dist/ deploy@web:/var/www/",
		"git am --abort",
		"java -agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=*:5005 -jar app.jar",
	)
	refusedStill(t,
		"gunzip .git/hooks/*.gz",
		"gunzip .g*/hooks/*.gz",
		"scp x \"$H:/srv/\"",
		"scp x \"$DEST\"",
	)
}

// TestEleventhRoundDeletersRealBash: programs that delete the files a diff
// deletes (patch and git am, as git apply), or empty the directory they
// are given before they fill it, ask under exclude rm; a diff git prints
// after the same command changed its index is the command's own data, not
// the project's; a program under node_modules/ the same command wrote is
// what npx and npm run.
func TestEleventhRoundDeletersRealBash(t *testing.T) {
	// the first commit holds victim.txt; a diff from it to the empty tree
	// deletes it
	const repo = harmRepo + " && echo r > README.md && git add README.md && git -c user.email=a@b -c user.name=n commit -q -m two"
	const jest = `mkdir -p node_modules/.bin && printf '#!/bin/sh\nrm -f victim.txt\n' > node_modules/.bin/jest && chmod +x node_modules/.bin/jest`
	const pkg = `printf '{"name":"x","version":"1.0.0","scripts":{"test":"jest"}}\n' > package.json`
	runHarm(t, []harmCase{
		{command: "git diff HEAD 4b825dc642cb6eb9a060e54bf8d69288fbee4904 | patch -s -p1", setup: repo, tools: []string{"git", "patch"}},
		{command: "git show HEAD~1 | patch -R -s -p1", setup: repo, tools: []string{"git", "patch"}},
		{command: "git diff HEAD 4b825dc642cb6eb9a060e54bf8d69288fbee4904 > d.txt; patch -s -p1 < d.txt", setup: repo, tools: []string{"git", "patch"}},
		{command: `git update-index --add --cacheinfo 100644,$(echo '{}' | git hash-object -w --stdin),.claude/settings.json && git diff --cached | patch -s -p1`, setup: harmRepo, tools: []string{"git", "patch"}, harm: ".claude/settings.json"},
		{command: "python3 -m venv --clear --without-pip .", tools: []string{"python3"}},
		{command: "python3 -m venv --clear --without-pip env", setup: "mkdir -p env && cp victim.txt env/", tools: []string{"python3"}, gone: "env/victim.txt"},
		{command: jest + " && npx jest", setup: pkg, tools: []string{"npx"}},
		{command: jest + " && npm test >/dev/null", setup: pkg, tools: []string{"npm"}},
	})
	allowedStill(t,
		"python3 -m venv .venv",
		"cargo clean",
		"go mod vendor",
		"git diff | patch -R -p1 --dry-run",
		"npm install && npx jest",
		"npx jest --coverage",
	)
	// where patch writes is still checked on its own, without rm excluded
	// (TestTenthRoundGitWritesRealBash runs these for real)
	e := newTestEngine(t, exclude("run_shell_command(sudo)"))
	for _, c := range []string{"patch -s -d .git -p0 -i ../p.diff", "patch -s -b -B .git/hooks/ pre-commit p.diff", "git diff --cached | patch -p1 -d .git"} {
		if d, err := e.Decide(t.Context(), shellCall(c)); err != nil || d.Decision == Allow {
			t.Errorf("%s without rm excluded: %+v %v, want deny or ask", c, d, err)
		}
	}
	refusedStill(t,
		"cargo clean -q --target-dir .",
		"go mod vendor -o build",
		"git am < 0001-fix.patch",
		"virtualenv --clear build",
	)
}

// TestEleventhRoundThirdHelperRealBash: a third helper attacked this
// round's changes (35 bypasses, 4 of them regressions, all closed here).
// Fixtures of the later rounds: a git configuration whose fsmonitor
// deletes victim.txt, a base64 tgz holding an executable
// .git/hooks/pre-commit that does, and a tar holding that pre-commit.
const (
	rt11Status    = " && git status >/dev/null 2>&1; true"
	rt11Cfg       = `printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = rm -f victim.txt\n'`
	rt11Hook      = `mkdir -p h/.git/hooks && printf '#!/bin/sh\nrm -f victim.txt\n' > h/.git/hooks/pre-commit && chmod +x h/.git/hooks/pre-commit`
	rt11HookTar   = rt11Hook + " && tar czf a.tgz -C h .git/hooks/pre-commit && base64 a.tgz > a.b64 && rm -rf h a.tgz"
	rt11PreCommit = `printf '#!/bin/sh\nrm -f victim.txt\n' > pre-commit && chmod +x pre-commit && tar cf a.tar pre-commit && rm pre-commit`
)

func TestEleventhRoundThirdHelperRealBash(t *testing.T) {
	const status, cfg, hookTar, preCommit = rt11Status, rt11Cfg, rt11HookTar, rt11PreCommit
	const src = "printf 'class X { public static void main(String[] a) { System.out.println(1); } }\\n' > X.java"
	runHarm(t, []harmCase{
		// a version of a program that is not an interpreter may be anything
		{command: "./tee2 -c 'rm victim.txt'", setup: "ln -s \"$(command -v bash)\" tee2", tools: []string{"bash"}},
		// HotSpot reads -XX:Flag:=value as -XX:Flag=value
		{command: "javac -J-Xms1m -J-Xmx4m -J-XX:OnOutOfMemoryError:='rm victim.txt' X.java", setup: src, tools: []string{"javac"}},
		// a decompressed file under a pattern that leads up, or in the
		// directory the command went into
		{command: cfg + " | lz4 -q > c.lz4 && mkdir -p xd && lz4 -dqf c.lz4 x*/../.git/config" + status, setup: harmRepo, tools: []string{"lz4", "git"}},
		{command: cfg + " | lz4 -q > c.lz4 && cd .git && lz4 -dqf ../c.lz4 conf* && cd .." + status, setup: harmRepo, tools: []string{"lz4", "git"}},
		{command: "sqlite3 a*/../../sq.db 'create table t(a)'", tools: []string{"sqlite3"}, harm: "../sq.db"},
		// the project's JVM options and modules reached by cd, cp -r
		{command: "mkdir -p .mvn && printf -- '-Xmx4m\\n-XX:OnOutOfMemoryError=rm${IFS}victim.txt\\n' | gzip > .mvn/jvm.config.gz && cd .mvn && gunzip *.gz && cd .. && mvn -v", tools: []string{"mvn", "gzip"}},
		{command: "mkdir -p x/.bin && printf '#!/bin/sh\\nrm -f victim.txt\\n' > x/.bin/jest && chmod +x x/.bin/jest && cp -r x node_modules && npx jest", tools: []string{"npx"}},
		// argparse's abbreviations
		{command: "python3 -m venv --without-pip --cle .", tools: []string{"python3"}},
		// an archive the command wrote, named at run time
		{command: "base64 -d a.b64 > a.tgz; tar xzf <(cat a.tgz)", setup: harmRepo + " && " + hookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "base64 -d a.b64 > a.tgz; tar xzf a.tg?", setup: harmRepo + " && " + hookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "base64 -d a.b64 > a.tgz; tar -xzfa.tgz", setup: harmRepo + " && " + hookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		// tar options read with their values and abbreviations
		{command: "tar --suffix -c -xf a.tar --transform 's,^,.git/hooks/,'", setup: harmRepo + " && " + preCommit, tools: []string{"tar", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "tar -xf a.tar --dir .git/hooks", setup: harmRepo + " && " + preCommit, tools: []string{"tar", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "tar -xf a.tar --one-top-level=.git/hooks", setup: harmRepo + " && " + preCommit, tools: []string{"tar", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "tar --mtime=2020-01-01 --clamp-mtime -cf ../x.tar a.tar", setup: preCommit, tools: []string{"tar"}, harm: "../x.tar"},
	})
	allowedStill(t,
		"pip3.11 install -r requirements.txt",
		"gunzip *.gz",
		"tar xzf release.tgz",
		"tar -xzf release.tgz -C vendor",
		"tar -xf release.tar --one-top-level",
		"python3 -m venv --without-pip .venv",
		"npm ci && npm test",
	)
}

// TestEleventhRoundFourthHelperRealBash: a fourth helper attacked the fixes
// for the third (34 bypasses, all closed here): a pattern in a written
// name's first directory may match .git (dotglob, extglob); an archive
// read from standard input a redirection around the extractor gives, from
// TAPE, or from a descriptor; tar's old-style letters take their values
// (xgCf -c DIR: -c is -g's); options programs read from the environment
// (UNZIP, XZ_OPT); a file of the project named like a known program.
func TestEleventhRoundFourthHelperRealBash(t *testing.T) {
	const lz = rt11Cfg + " | lz4 -q > c.lz4"
	const zip = `mkdir -p z && printf '#!/bin/sh\nrm -f victim.txt\n' > z/pre-commit && chmod +x z/pre-commit && (cd z && zip -q ../x.zip pre-commit) && rm -rf z`
	runHarm(t, []harmCase{
		{command: "shopt -s dotglob; lz4 -dqf c.lz4 ?git/config" + rt11Status, setup: harmRepo + " && " + lz, tools: []string{"lz4", "git"}},
		{command: "shopt -s extglob\nlz4 -dqf c.lz4 @(.git)/config" + rt11Status, setup: harmRepo + " && " + lz, tools: []string{"lz4", "git"}},
		{command: "base64 -d a.b64 > a.tgz; TAPE=a.tgz tar xz", setup: harmRepo + " && " + rt11HookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "base64 -d a.b64 > a.tgz; (tar xz) < a.tgz", setup: harmRepo + " && " + rt11HookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "base64 -d a.b64 > a.tgz; { tar xz; } < a.tgz", setup: harmRepo + " && " + rt11HookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "base64 -d a.b64 > a.tgz; exec 3< a.tgz; tar xzf /dev/fd/3", setup: harmRepo + " && " + rt11HookTar, tools: []string{"tar", "base64", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "tar xgCf -c .git/hooks a.tar", setup: harmRepo + " && " + rt11PreCommit, tools: []string{"tar", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "UNZIP='-d .git/hooks' unzip -q x.zip", setup: harmRepo + " && " + zip, tools: []string{"unzip", "zip", "git"}, harm: ".git/hooks/pre-commit"},
		{command: "echo victim.txt > l; XZ_OPT=--files=l xz", tools: []string{"xz"}},
		{command: "./perl -c 'rm victim.txt'", setup: "ln -s \"$(command -v bash)\" perl", tools: []string{"bash"}},
	})
	allowedStill(t,
		"gunzip logs/*/*.gz",
		"tar xz < release.tgz",
		"curl -sL https://example.com/x.tgz | tar xz",
		"tar xgf snap.db a.tar",
		"./gradlew build",
		"./venv/bin/python -c 'print(1)'",
	)
}
