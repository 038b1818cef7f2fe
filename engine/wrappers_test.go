package engine

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrapperAttacksRealBash: commands that run an excluded rm through a
// program that takes a command (a wrapper gate reads, an option whose
// value is a command, makefile text) are refused under exclude rm; where
// the program is installed, the same command run by real bash does delete
// the victim, so the case tests something real.
func TestWrapperAttacksRealBash(t *testing.T) {
	for _, tc := range []attack{
		{"ssh -o ProxyCommand='rm victim.txt' -o BatchMode=yes x true", "ssh", ""},
		{"ssh -oProxyCommand='rm victim.txt' -o BatchMode=yes x true", "ssh", ""},
		{"ssh -o 'ProxyCommand rm victim.txt' -o BatchMode=yes x true", "ssh", ""},
		{"ssh -o 'LocalCommand=rm victim.txt' -o PermitLocalCommand=yes x", "", ""},
		{"sftp -D 'rm victim.txt' x </dev/null", "sftp", ""},
		{"zip -TT 'rm victim.txt' -T z.zip victim.txt", "zip", ""},
		{"cpio --rsh-command='rm victim.txt' -o -F h:f </dev/null", "", ""},
		{"less '+!rm victim.txt' victim.txt", "", ""},
		{"LESS='+!rm victim.txt' less victim.txt", "", ""},
		{"dc -e '!rm victim.txt'", "dc", ""},
		// Long options abbreviated as getopt_long and git accept them.
		{"tar --checkpoint=1 --checkpoint-act=exec='rm victim.txt' -cf /dev/null /etc/hostname", "tar", ""},
		{"printf 'hello\\n' > h.txt && git grep --no-index --open-files='rm victim.txt' hello h.txt", "git", ""},
		// sed scripts are proven to hold no e, w or W, whatever the address
		// or delimiter.
		{"sed -n '0~1e rm victim.txt' victim.txt", "sed", ""},
		{"sed -n '/v/I e rm victim.txt' victim.txt", "sed", ""},
		{"sed -n '\\,v, e rm victim.txt' victim.txt", "sed", ""},
		{"sed 's=v=rm victim.txt=e' victim.txt", "sed", ""},
		{"sed 's v rm\\ victim.txt e' victim.txt", "sed", ""},
		{"sed 's/[/]*v/rm victim.txt/e' victim.txt", "sed", ""},
		// Programs that find and run the code the command just wrote.
		{"printf 'package main\\nimport \"os\"\\nfunc main(){ os.Remove(\"victim.txt\") }\\n' > main.go && printf 'module m\\n' > go.mod && go run .", "go", ""},
		{"printf 'import os\\nos.remove(\"victim.txt\")\\n' > __main__.py && python3 .", "python3", ""},
		{"for i in 1 2; do python3 x.py; echo 'import os; os.remove(\"victim.txt\")' > x.py; done", "python3", ""},
		{"python3 -m timeit -n1 -r1 '__import__(\"os\").remove(\"victim.txt\")'", "python3", ""},
		{"python3 -m code <<< 'import os; os.remove(\"victim.txt\")'", "python3", ""},
		{"sqlite3 :memory: 'select 1' \".once '|rm victim.txt'\" 'select 2'", "sqlite3", ""},
		{"perl '-Mstrict;BEGIN{unlink q(victim.txt)}' /dev/null", "perl", ""},
		{"awk 'BEGIN{ system\\\n(\"rm victim.txt\") }'", "awk", ""},
		{"m4 <<< 'syscmd(rm victim.txt)'", "m4", ""},
		{"printf 'file(REMOVE victim.txt)\\n' > x.cmake && cmake -P x.cmake", "cmake", ""},
		// git runs what a repository the command configures holds, and
		// helpers given as option values.
		{"git init -q --bare x && printf '[alias]\\n\\tst = !rm ../victim.txt\\n' >> x/config && git -C x st", "git", ""},
		{"git init -q --bare x && printf '[alias]\\n\\tst = !rm victim.txt\\n' >> x/config && git --git-dir=x st", "git", ""},
		{"git init -q && git fetch-pack --upload-pack='rm victim.txt' .", "git", ""},
		{"git init -q && git ls-remote --upload-pa='rm victim.txt' .", "git", ""},
		{"git init -q && cp /bin/rm git-foo && git --exec-path=. foo victim.txt", "git", ""},
		{"printf 'connect git-upload-pack\\n' | git remote-ext . 'rm victim.txt'", "git", ""},
		{"git --work-tree=.git reset -q --hard", "", ""},
		{"git checkout-index --prefix=.git/ -a", "", ""},
		{"git archive --prefix=.git/ HEAD hooks | tar x", "", ""},
		// Compilers told to run or load other programs.
		{"printf 'int x;' > x.c && gcc -wrapper 'sh,-c,rm victim.txt' -c x.c", "gcc", ""},
		{"printf '#!/bin/sh\\nrm victim.txt\\n' > as && chmod +x as && printf 'int x;' > x.c && gcc -B./ -c x.c", "gcc", ""},
		{"npm explore lodash -- rm ../../victim.txt", "", ""},
		// make expands variable definitions it is given.
		{"make -f /dev/null 'X:=$(shell rm victim.txt)'", "make", ""},
		{"MAKEFLAGS='X:=$(shell rm victim.txt)' make -f /dev/null", "make", ""},
		{"TAR_OPTIONS=\"--to-command='rm victim.txt'\" tar -cf /dev/null /etc/hostname; tar -cf x.tar /etc/hostname 2>/dev/null; TAR_OPTIONS=\"--to-command='rm victim.txt'\" tar -xf x.tar", "tar", ""},
		{"parallel ::: 'rm victim.txt'", "parallel", ""},
		{"echo victim.txt | parallel rm", "parallel", ""},
		{"git submodule foreach --recursive 'rm victim.txt'", "", ""},
		{"crontab -l | { cat; echo '* * * * * rm victim.txt'; } | crontab -", "", ""},
		{"git clone -q 'ext::sh -c rm% victim.txt' x", "", ""},
		{"git remote add o 'ext::rm victim.txt'", "", ""},
		{"guile -c '(system \"rm victim.txt\")'", "guile", ""},
		{"racket -e '(delete-file \"victim.txt\")'", "racket", ""},
		{"gnuplot -e '!rm victim.txt'", "gnuplot", ""},
		{"octave --eval 'delete(\"victim.txt\")'", "octave", ""},
		{"echo 'new java.io.File(\"victim.txt\").delete()' | jshell -q", "jshell", ""},
		{"gawk 'BEGIN { f = \"system\"; @f(\"rm victim.txt\") }'", "gawk", ""},
		{"mytool --code \"os.execute('rm victim.txt')\"", "", ""},
		{"printf 'import os\\nos.remove(\"victim.txt\")\\n' > x.py; python3 -m x", "python3", ""},
		{"mkdir -p p && printf 'import os\\nos.remove(\"victim.txt\")\\n' > p/__main__.py; python3 -m p", "python3", ""},
		{"printf 'import os\\nos.remove(\"victim.txt\")\\n' > conftest.py; pytest -q", "pytest", ""},
		{"printf 'file.remove(\"victim.txt\")' > x.R; Rscript x.R", "Rscript", ""},
		{"printf 'require(\"fs\").unlinkSync(\"victim.txt\")' > x.js; bun x.js", "bun", ""},
		{"printf 'Deno.removeSync(\"victim.txt\")' > x.ts; deno run -A x.ts", "deno", ""},
		{"printf 'require(\"fs\").unlinkSync(\"victim.txt\")' > x.ts; tsx x.ts", "tsx", ""},
		{"mysql -e 'system rm victim.txt'", "", ""},
		{"mariadb --execute='\\! rm victim.txt'", "", ""},
		{"psql -c '\\! rm victim.txt'", "", ""},
		{"psql -c \"\\copy t to program 'rm victim.txt'\"", "", ""},
		{"lftp -c '!rm victim.txt'", "", ""},
		{"./mywrap rm victim.txt", "bash", "#!/bin/sh\nexec \"$@\"\n"},
		{"./mywrap -p secret rm -f victim.txt", "bash", "#!/bin/sh\nshift 2\nexec \"$@\"\n"},
		{"./mywrap --cmd='rm victim.txt'", "bash", "#!/bin/sh\nexec sh -c \"${1#--cmd=}\"\n"},
		{"./mywrap new -d 'cd . && rm victim.txt'", "bash", "#!/bin/sh\nexec sh -c \"$3\"\n"},
		{"tar cf /dev/null victim.txt --checkpoint=1 --checkpoint-action=exec='rm victim.txt'", "tar", ""},
		{"tar cf /dev/null victim.txt --checkpoint=1 --checkpoint-action exec='rm victim.txt'", "tar", ""},
		{"make -E 'a:;rm victim.txt' a", "make", ""},
		{"make --eval='a:;rm victim.txt' a", "make", ""},
		{"bwrap --bind / / rm victim.txt", "bwrap", ""},
		{"numactl -C 0 rm victim.txt", "numactl", ""},
		{"cpulimit -l 50 rm victim.txt", "cpulimit", ""},
		{"catchsegv rm victim.txt", "catchsegv", ""},
		{"perf stat rm victim.txt", "perf", ""},
		{"echo victim.txt | entr -s 'rm victim.txt'", "", ""},
		{"scp -S rm victim.txt host:", "", ""},
	} {
		t.Run(tc.command, func(t *testing.T) { tc.check(t) })
	}
}

// TestBashInternalsRealBash: text that bash evaluates as arithmetic, where an
// array subscript runs a command substitution (an integer variable's later
// assignments, read into one), is refused under exclude rm; real bash does
// delete the victim.
func TestBashInternalsRealBash(t *testing.T) {
	for _, tc := range []attack{
		{command: "declare -i n; n='a[$(rm victim.txt)]'", tool: "bash"},
		{command: "declare -i n; n+='a[$(rm victim.txt)]'", tool: "bash"},
		{command: "declare -ia arr; arr[0]='a[$(rm victim.txt)]'", tool: "bash"},
		{command: "f() { local -i x; x='b[$(rm victim.txt)]'; }; f", tool: "bash"},
		{command: "declare -i n; read n <<< 'a[$(rm victim.txt)]'", tool: "bash"},
		{command: "typeset -i n=1; n='a[$(rm victim.txt)]'", tool: "bash"},
		{command: "declare -n r; r='a[$(rm victim.txt)]'; echo \"$r\"", tool: "bash"},
		{command: "f() { local -n ref; ref='a[$(rm victim.txt)]'; : \"$ref\"; }; f", tool: "bash"},
		// A quoted compound assignment is parsed and expanded by bash.
		{command: "declare -a a='($(rm victim.txt))'", tool: "bash"},
		{command: "declare -A m='([k]=$(rm victim.txt))'", tool: "bash"},
		{command: "declare -a \"a=(\\$(rm victim.txt))\"", tool: "bash"},
		{command: "f(){ local -a a='(`rm victim.txt`)'; }; f", tool: "bash"},
		{command: "declare -a a='(x)' b='($(rm victim.txt))'", tool: "bash"},
		// Values bash sets from the command's data reach arithmetic.
		{command: "set -- 'a[$(rm victim.txt)]'; : $(($1))", tool: "bash"},
		{command: "bash -c ': $(($1))' _ 'a[$(rm victim.txt)]'", tool: "bash"},
		{command: "f(){ [[ $1 -gt 0 ]]; }; f 'a[$(rm victim.txt)]'", tool: "bash"},
		{command: "s=abc; f(){ echo \"${s:$1:1}\"; }; f 'b[$(rm victim.txt)]'", tool: "bash"},
		{command: "set -- 'a[$(rm victim.txt)]'; : $((\"$1\"))", tool: "bash"},
		{command: "echo 'a[$(rm victim.txt)]' >/dev/null; : $(($_))", tool: "bash"},
		{command: "[[ 'a[$(rm victim.txt)]' =~ (.*) ]]; : $((BASH_REMATCH[1]))", tool: "bash"},
		{command: "getopts a: o -a 'a[$(rm victim.txt)]'; : $((OPTARG))", tool: "bash"},
		{command: ": $(( $(echo 'a[$(rm victim.txt)]') ))", tool: "bash"},
		{command: "env x='a[$(rm victim.txt)]' bash -c ': $((x))'", tool: "bash"},
		{command: "y='a[$(rm victim.txt)]'; : ${z:=$y}; : $((z))", tool: "bash"},
		{command: "for PS4 in '$(rm victim.txt)'; do set -x; :; done", tool: "bash"},
		// ${NAME:=WORD} and ${NAME=WORD} assign NAME as NAME=WORD does.
		{command: ": ${BASH_CMDS[ls]:=/bin/rm}; ls victim.txt", tool: "bash"},
		{command: "echo ${BASH_CMDS[cat]=/bin/rm} >/dev/null; cat victim.txt", tool: "bash"},
		{command: "echo \"${BASH_CMDS[wc]:=/usr/bin/rm}\" >/dev/null; wc victim.txt", tool: "bash"},
		// Backquotes nested three levels deep.
		{command: "echo `echo \\`echo \\\\\\`rm victim.txt\\\\\\`\\``", tool: "bash"},
	} {
		t.Run(tc.command, func(t *testing.T) { tc.check(t) })
	}
}

// Bash and the parser must agree on where a here-document ends: what one
// reads as data the other would run. Each command deletes victim.txt in
// real bash and is refused (a parse error: the ends may differ).
func TestHeredocEndsRealBash(t *testing.T) {
	for _, tc := range []attack{
		{command: "cat <<EOF\nE\\\nOF\nrm victim.txt\nEOF", tool: "bash"},
		{command: "cat <<-EOF\n\tE\\\nOF\nrm victim.txt\nEOF", tool: "bash"},
		{command: "x=$(cat <<EOF\nE\\\nOF\nrm victim.txt\nEOF\n)", tool: "bash"},
		{command: "cat <<EOF\nhi\n\\\nEOF\nrm victim.txt\nEOF", tool: "bash"},
		{command: "cat <<EOF\nhi\nEOF\\\n\nrm victim.txt\nEOF", tool: "bash"},
		{command: "cat <<\"E\\\"F\"\nx\nE\"F\nrm victim.txt\nE\\\"F", tool: "bash"},
		{command: "cat <<$'E\\x4fF'\nx\nEOF\nrm victim.txt\nE\\x4fF", tool: "bash"},
		{command: "x=$(cat <<EOF\nEOF)\nrm victim.txt\nEOF\n)", tool: "bash"},
		{command: "x=$(cat <<'EOF'\nEOF)\nrm victim.txt\nEOF\n)", tool: "bash"},
	} {
		t.Run(tc.command, func(t *testing.T) { tc.check(t) })
	}
	// Here-documents bash and the parser end alike stay allowed.
	r := newRealBash(t, "", "")
	for _, command := range []string{
		"cat <<EOF > x.sh\nls \\\n  -la\nEOF\necho ok",
		"cat <<'EOF' > x.sh\nls \\\nEOF\necho ok",
		"cat <<-EOF\n\thi\n\tEOF",
		"cat << \"PYEOF\" > a.py\nprint(1)\nPYEOF",
		"cat <<E\"OF\"\nx\nEOF",
		"x=$(cat <<EOF\nhi\nEOF\n)",
	} {
		if d := r.decide(command); d.Decision != Allow {
			t.Errorf("%q: decision %+v, want allow", command, d)
		}
	}
}

// attack is a command that deletes victim.txt when real bash runs it, and
// that gate must deny under exclude rm.
type attack struct {
	command string
	tool    string // run for real when this is on PATH ("" : never run)
	script  string // written to ./mywrap in the root: a wrapper gate does not know
}

func (tc attack) check(t *testing.T) {
	t.Helper()
	r := newRealBash(t, `echo v > victim.txt; if [ -n "$1" ]; then printf '%s' "$1" > mywrap; chmod 755 mywrap; fi`, tc.script)
	if d := r.decide(tc.command); d.Decision != Deny {
		t.Errorf("decision %+v, want deny", d)
	}
	if tc.tool == "" {
		return
	}
	if _, err := exec.LookPath(tc.tool); err != nil {
		t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tc.tool)
	}
	// ssh writes known_hosts in HOME. SHELL is set as a login gives it:
	// make 4.3 expands a command-line $(shell …) before its own default
	// SHELL exists, and CI runs with none in its environment.
	out := r.run(tc.command, "HOME="+t.TempDir(), "SHELL=/bin/sh")
	if r.exists("victim.txt") {
		t.Errorf("run by bash, the command did not delete victim.txt (%s): the case tests nothing", out)
	}
}

// TestPathIdentity: a bare name the catalogue does not describe, whose file
// on PATH is an excluded program under another name (a link, a copy, a
// versioned name such as python3.11), is judged as that program; real bash
// runs it and deletes the victim.
func TestPathIdentity(t *testing.T) {
	rm, err := exec.LookPath("rm")
	if err != nil {
		t.Skip("SKIPPED: rm is not on PATH")
	}
	bin := t.TempDir()
	data, err := os.ReadFile(rm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "zap"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rm, filepath.Join(bin, "erase")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tc := range []attack{
		{command: "zap victim.txt", tool: "zap"},
		{command: "erase -f victim.txt", tool: "erase"},
		{command: "rm.exe victim.txt"},
	} {
		t.Run(tc.command, func(t *testing.T) { tc.check(t) })
	}
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	for _, c := range []string{"ls", "zapper x", "python3 --version"} {
		if d, err := e.Decide(context.Background(), shellCall(c)); err != nil || d.Decision != Allow {
			t.Errorf("%s: %+v %v, want allow", c, d, err)
		}
	}
}

// hookPatch is a git-style patch that makes an executable
// .git/hooks/post-checkout: GNU patch creates it (git apply refuses paths
// inside .git).
const hookPatch = "diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+#!/bin/sh\n"

// hookTarball is a gzipped tar archive holding an executable
// .git/hooks/post-checkout, in base64.
func hookTarball(t *testing.T) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	body := "#!/bin/sh\n"
	if err := tw.WriteHeader(&tar.Header{Name: ".git/hooks/post-checkout", Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestPlantsHook: commands that plant a hook where gate cannot see its name
// statically (an archive the command makes, then extracts into .git; any
// extraction into .git), into a hooks directory that does not exist yet
// (rsync into .git/hooks/), or as the output of a program the catalogue
// does not describe as writing (cc -o) are not allowed; real bash, tar,
// zip, rsync, sponge and cc do plant the hook.
func TestPlantsHook(t *testing.T) {
	for _, tc := range []struct {
		command string
		code    Code
		tools   []string
		setup   string
	}{
		{"printf 'int main(void){return 0;}' > m.c && cc -o .git/hooks/post-checkout m.c", CodePathProtected, []string{"cc"}, "mkdir -p .git/hooks"},
		{"printf 'int main(void){return 0;}' > m.c && cc m.c -o.git/hooks/post-checkout", CodePathProtected, []string{"cc"}, "mkdir -p .git/hooks"},
		{"mkdir -p t/hooks && printf '#!/bin/sh\\n' > t/hooks/post-checkout && tar -C t -cf x.tar hooks && mv x.tar y.tar && tar -C .git -xf y.tar", CodePathUnknown, []string{"tar"}, "mkdir .git"},
		{"mkdir -p t/hooks && printf '#!/bin/sh\\n' > t/hooks/post-checkout && tar -C t -cf x.tar hooks && tar -xf x.tar -C .git", CodePathUnknown, []string{"tar"}, ""},
		{"mkdir -p t/hooks && printf '#!/bin/sh\\n' > t/hooks/post-checkout && cd t && zip -qr ../x.zip hooks && cd .. && unzip -qo x.zip -d .git", CodePathUnknown, []string{"zip", "unzip"}, ""},
		{"mkdir -p t && printf '#!/bin/sh\\n' > t/post-checkout && rsync -a t/ .git/hooks/", CodePathProtected, []string{"rsync"}, ""},
		{"mkdir -p .git/hooks && printf '#!/bin/sh\\n' | sponge .git/hooks/post-checkout", CodePathProtected, []string{"sponge"}, ""},
		{"echo '#!/bin/sh' >& .git/hooks/post-checkout", CodePathProtected, nil, "mkdir -p .git/hooks"},
		{"printf '#!/bin/sh\\n' > h && uniq h .git/hooks/post-checkout", CodePathProtected, []string{"uniq"}, "mkdir -p .git/hooks"},
		{"xxd -r - .git/hooks/post-checkout <<< '00000000: 2321'", CodePathProtected, []string{"xxd"}, "mkdir -p .git/hooks"},
		{"strace -o .git/hooks/post-checkout true", CodePathProtected, []string{"strace"}, "mkdir -p .git/hooks"},
		{"awk 'BEGIN{print \"#!/bin/sh\" > \".git/hooks/post-checkout\"}'", CodeCommandUnprovable, []string{"awk"}, "mkdir -p .git/hooks"},
		{"sqlite3 x.db \"vacuum into '.git/hooks/post-checkout'\"", CodeCommandUnprovable, []string{"sqlite3"}, "mkdir -p .git/hooks"},
		{"GIT_TRACE=$PWD/.git/hooks/post-checkout git version", CodeCommandUnprovable, []string{"git"}, "mkdir -p .git/hooks"},
		{"mkdir -p t/hooks && printf '#!/bin/sh\\n' > t/hooks/post-checkout && tar -C t -cf - hooks | (cd .git && tar xf -)", CodePathUnknown, []string{"tar"}, ""},
		// patch and tar given data the command spells out write the names in it
		{"printf '" + strings.ReplaceAll(hookPatch, "\n", `\n`) + "' | patch -s -p1", CodePathUnknown, []string{"patch"}, ""},
		{"patch -s -p1 <<'EOF'\n" + hookPatch + "EOF", CodePathUnknown, []string{"patch"}, ""},
		{"echo " + hookTarball(t) + " | base64 -d | tar xz", CodePathUnknown, []string{"tar", "base64"}, ""},
		{"base64 -d <<< " + hookTarball(t) + " | tar -xz", CodePathUnknown, []string{"tar", "base64"}, ""},
		// ed writes the files its commands name
		{"ed -s x <<< $'w .git/hooks/post-checkout\\nq'", CodeCommandUnprovable, []string{"ed"}, "mkdir -p .git/hooks && echo '#!/bin/sh' > x"},
		{"ed -s x <<'EOF'\nf .git/hooks/post-checkout\nw\nq\nEOF", CodeCommandUnprovable, []string{"ed"}, "mkdir -p .git/hooks && echo '#!/bin/sh' > x"},
		{"ed -s x <<'EOF'\ng/sh/w .git/hooks/post-checkout\nq\nEOF", CodeCommandUnprovable, []string{"ed"}, "mkdir -p .git/hooks && echo '#!/bin/sh' > x"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			setup := tc.setup
			if setup == "" {
				setup = "mkdir .git"
			}
			r := newRealBash(t, setup)
			if d := r.decide(tc.command); d.Decision == Allow || !hasCode(d, tc.code) {
				t.Errorf("decision %+v, want %s", d, tc.code)
			}
			for _, tool := range tc.tools {
				if _, err := exec.LookPath(tool); err != nil {
					t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tool)
				}
			}
			if out := r.run(tc.command); !r.exists(".git/hooks/post-checkout") {
				t.Errorf("run by bash, the command did not plant .git/hooks/post-checkout (%s): the case tests nothing", out)
			}
		})
	}
}

// TestConfigAttacksRealBash: programs told to load configuration that names
// a program to run (cargo --config, a tmux or screen configuration this
// command writes) are refused under exclude rm; real cargo and tmux delete
// the victim.
func TestConfigAttacksRealBash(t *testing.T) {
	const crate = `mkdir src && printf 'fn main(){}\n' > src/main.rs && printf '[package]\nname="x"\nversion="0.1.0"\nedition="2021"\n' > Cargo.toml && printf '#!/bin/sh\nrm -f victim.txt\nexec "$@"\n' > w && chmod +x w`
	for _, tc := range []struct {
		command, setup, tool string
	}{
		{`cargo --config 'build.rustc-wrapper="./w"' build --offline -q`, crate, "cargo"},
		{`cargo build --offline -q --config=build.rustc-wrapper='"./w"'`, crate, "cargo"},
		{`printf 'run-shell "rm victim.txt"\n' > t.conf && tmux -L gate-attack-$$ -f t.conf new -d true; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
		{`tmux -L gate-attack-$$ new -d 'rm victim.txt'; sleep 1; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
		// tmux's own command language: run-shell, quoting inside it, a
		// shell command of new-session, a hook
		{`tmux -L gate-attack-$$ new -d \; run 'r\m victim.txt'; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
		{`tmux -L gate-attack-$$ new -d 'sh -c "r""m victim.txt"'; for i in $(seq 100); do [ -e victim.txt ] || break; sleep 0.1; done; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
		{`tmux -L gate-attack-$$ new -d \; set-hook -g after-new-window 'run "rm victim.txt"' \; neww; for i in $(seq 100); do [ -e victim.txt ] || break; sleep 0.1; done; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
		{`tmux -L gate-attack-$$ new -d \; send-keys 'r\m victim.txt' Enter; for i in $(seq 100); do [ -e victim.txt ] || break; sleep 0.1; done; tmux -L gate-attack-$$ kill-server 2>/dev/null; true`, "", "tmux"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt; "+tc.setup)
			if d := r.decide(tc.command); d.Decision != Deny {
				t.Errorf("decision %+v, want deny", d)
			}
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("SKIPPED the real run (the decision was checked): %s is not installed", tc.tool)
			}
			if out := r.run(tc.command, "HOME="+os.Getenv("HOME"), "TMUX=", "SHELL=/bin/sh"); r.exists("victim.txt") {
				t.Errorf("run by bash, the command did not delete victim.txt (%s): the case tests nothing", out)
			}
		})
	}
}
