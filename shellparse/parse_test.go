package shellparse

import (
	"strings"
	"testing"
)

// segs is the expected list of segment descriptions (see describe).
func segs(d ...string) []string { return d }

// parseCase is one command and the segments it must give.
type parseCase struct {
	command string
	want    []string
}

func pc(command string, want ...string) parseCase { return parseCase{command, want} }

func runParseCases(t *testing.T, cases []parseCase) {
	t.Helper()
	p := testParser(t)
	for _, tc := range cases {
		prog := p.Parse(tc.command)
		if prog.Error != nil {
			t.Errorf("%q: parse error %v", tc.command, prog.Error)
			continue
		}
		got := make([]string, len(prog.Segments))
		for i, s := range prog.Segments {
			got[i] = describe(s)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%q:\ngot:\n  %s\nwant:\n  %s", tc.command, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
		}
	}
}

func TestParseStructure(t *testing.T) {
	runParseCases(t, []parseCase{
		pc("ls -la | grep x && rm y || echo z; cat f & wc -l",
			"ls[ls -la] ctx=or/and/pipe", "grep[grep x] ctx=or/and/pipe", "rm[rm y] ctx=or/and", "echo[echo z] ctx=or",
			"cat[cat f] bg", "wc[wc -l]"),
		pc("ls\nrm x\r\n", "ls[ls]", "rm[rm x]"),
		pc("(cd sub && make) ; { echo a; echo b; } > out.txt",
			"cd[cd sub] ctx=subshell/and", "make[make] ctx=subshell/and", "echo[echo a] ctx=block >out.txt", "echo[echo b] ctx=block"),
		pc("echo \"$(rm x)\" `id -u` <(ls a) >(tee b)",
			"echo[echo \"$(rm x)\" `id -u` <(ls a) >(tee b)] dyn=1,2,3,4", "rm[rm x] ctx=cmdsubst", "id[id -u] ctx=cmdsubst",
			"ls[ls a] ctx=procsubst", "tee[tee b] ctx=procsubst"),
		pc("echo `echo \\`rm x\\``", "echo[echo `echo \\`rm x\\``] dyn=1", "echo[echo `rm x`] ctx=cmdsubst dyn=1", "rm[rm x] ctx=cmdsubst/cmdsubst"),
		// The third level: bash runs rm (a backslash before $, ` or \ is
		// removed once a level).
		pc("echo `echo \\`echo \\\\\\`rm x\\\\\\`\\``", "echo[echo `echo \\`echo \\\\\\`rm x\\\\\\`\\``] dyn=1",
			"echo[echo `echo \\`rm x\\``] ctx=cmdsubst dyn=1", "echo[echo `rm x`] ctx=cmdsubst/cmdsubst dyn=1", "rm[rm x] ctx=cmdsubst/cmdsubst/cmdsubst"),
		pc("echo \"`echo \\\"\\`rm x\\`\\\"`\"", "echo[echo \"`echo \\\"\\`rm x\\`\\\"`\"] dyn=1",
			"echo[echo \"`rm x`\"] ctx=cmdsubst dyn=1", "rm[rm x] ctx=cmdsubst/cmdsubst"),
		pc("echo `echo '\\`rm x\\`'`", "echo[echo `echo '\\`rm x\\`'`] dyn=1", "echo[echo `rm x`] ctx=cmdsubst"),
		pc("if grep -q x f; then rm a; elif true; then rm b; else rm c; fi",
			"grep[grep -q x f] ctx=if", "rm[rm a] ctx=if", "true[true] ctx=if", "rm[rm b] ctx=if", "rm[rm c] ctx=if"),
		pc("while read l; do echo $l; done < f", "read[read l] ctx=while", "echo[echo $l] ctx=while dyn=1"),
		pc("until false; do break; done", "false[false] ctx=until", "break[break] ctx=until"),
		pc("for i in 1 2; do rm $i; done", "rm[rm $i] ctx=for dyn=1"),
		pc("case $x in a) rm y;; *) ls;; esac", "rm[rm y] ctx=case", "ls[ls] ctx=case"),
		pc("f() { rm -rf x; }; f", "rm[rm -rf x] ctx=function/block", "f[f]"),
		pc("! rm x", "rm[rm x] ctx=negated"),
		pc("echo $(( $(rm x) + 1 ))", "echo[echo $(( $(rm x) + 1 ))] dyn=1 !arithmetic_injection", "rm[rm x] ctx=arith/cmdsubst"),
		pc("[[ -f x ]] && rm y", "test[[[ -f x ]]] ctx=and", "rm[rm y] ctx=and"),
		pc("x=1 rm y", "rm[rm y]"),
		pc("x=1", "assignment[]"),
		pc("A=$(rm x)", "assignment[]", "rm[rm x] ctx=cmdsubst"),
		pc("ls > ~/out 2>&1 >> /tmp/a", "ls[ls] >/home/u/out >/tmp/a"),
		pc("cat <<EOF\n$(rm x)\nEOF", "cat[cat]", "rm[rm x] ctx=heredoc/cmdsubst"),
		pc("cat <<'EOF'\n$(rm x)\nEOF", "cat[cat]"),
		pc("# rm -rf /\nls", "ls[ls]"),
		pc("echo 'rm -rf /' \"git push\"", "echo[echo rm -rf / git push]"),
	})
}

func TestParseIdentity(t *testing.T) {
	p := testParser(t)
	for _, raw := range []string{"/bin/rm", "\\rm", "\"r\"m", "./rm", "'rm'", "/usr/local/../bin/rm", "r''m"} {
		prog := p.Parse(raw + " x")
		if prog.Error != nil || len(prog.Segments) != 1 {
			t.Fatalf("%s: %+v", raw, prog)
		}
		s := prog.Segments[0]
		if s.Program != "rm" || s.RawProgram != raw {
			t.Errorf("%s: program %q raw %q", raw, s.Program, s.RawProgram)
		}
	}
}

func TestParseWrappers(t *testing.T) {
	runParseCases(t, []parseCase{
		pc("sudo -u bob rm x", "sudo[sudo -u bob rm x]", "rm[rm x] ctx=wrapper via=sudo"),
		pc("doas rm x", "doas[doas rm x]", "rm[rm x] ctx=wrapper via=doas"),
		pc("env -i A=1 rm x", "env[env -i A=1 rm x]", "rm[rm x] ctx=wrapper via=env"),
		pc("/usr/bin/bash -e -c 'rm x' arg0", "bash[/usr/bin/bash -e -c rm x arg0]", "rm[rm x] ctx=wrapper via=bash -c"),
		pc("sh -c \"ls; rm y\"", "sh[sh -c ls; rm y]", "ls[ls] ctx=wrapper via=sh -c", "rm[rm y] ctx=wrapper via=sh -c"),
		pc("zsh -lc 'rm x'", "zsh[zsh -lc rm x] !unsupported_syntax", "rm[rm x] ctx=wrapper via=zsh -c"),
		pc("nice -n 5 nohup timeout -s KILL 5 stdbuf -oL setsid time rm x",
			"nice[nice -n 5 nohup timeout -s KILL 5 stdbuf -oL setsid time rm x]",
			"nohup[nohup timeout -s KILL 5 stdbuf -oL setsid time rm x] ctx=wrapper via=nice",
			"timeout[timeout -s KILL 5 stdbuf -oL setsid time rm x] ctx=wrapper/wrapper via=nohup",
			"stdbuf[stdbuf -oL setsid time rm x] ctx=wrapper/wrapper/wrapper via=timeout",
			"setsid[setsid time rm x] ctx=wrapper/wrapper/wrapper/wrapper via=stdbuf",
			"time[time rm x] ctx=wrapper/wrapper/wrapper/wrapper/wrapper via=setsid",
			"rm[rm x] ctx=wrapper/wrapper/wrapper/wrapper/wrapper/wrapper via=time"),
		pc("command rm x; builtin echo y; exec rm z",
			"command[command rm x]", "rm[rm x] ctx=wrapper via=command", "builtin[builtin echo y]",
			"echo[echo y] ctx=wrapper via=builtin", "exec[exec rm z]", "rm[rm z] ctx=wrapper via=exec"),
		pc("ls | xargs -0 rm -f", "ls[ls] ctx=pipe", "xargs[xargs -0 rm -f] ctx=pipe", "rm[rm -f <input>] ctx=pipe/wrapper via=xargs dyn=2"),
		pc("flock /tmp/l rm x", "flock[flock /tmp/l rm x]", "rm[rm x] ctx=wrapper via=flock"),
		pc("watch -n 1 rm x", "watch[watch -n 1 rm x]", "rm[rm x] ctx=wrapper via=watch"),
		pc("find . -name '*.o' -exec rm {} \\; -execdir ls {} + -ok mv {} x \\;",
			"find[find . -name *.o -exec rm {} ; -execdir ls {} + -ok mv {} x ;]",
			"rm[rm {}] ctx=wrapper via=find -exec dyn=1", "ls[ls {}] ctx=wrapper via=find -execdir dyn=1",
			"mv[mv {} x] ctx=wrapper via=find -ok dyn=1"),
		pc("git -c alias.x='!rm y' x", "git[git -c alias.x=!rm y x]", "rm[rm y] ctx=wrapper via=git alias x"),
		pc("eval 'rm x'", "eval[eval rm x]", "rm[rm x] ctx=wrapper via=eval"),
	})
}

func TestParseUnprovable(t *testing.T) {
	runParseCases(t, []parseCase{
		pc("$cmd x", "?[$cmd x] dyn=0 !dynamic_program"),
		pc("eval \"$x\"", "eval[eval \"$x\"] dyn=1 !dynamic_script"),
		pc("source \"$f\"", "source[source \"$f\"] dyn=1 !dynamic_script"),
		pc("echo ${x@P}", "echo[echo ${x@P}] dyn=1 !prompt_expansion"),
		pc("python -c 'import os; os.remove(1)'", "python[python -c import os; os.remove(1)] !inline_code"),
		pc("perl -e 'unlink 1'", "perl[perl -e unlink 1] !inline_code"),
		pc("node -e 'x'", "node[node -e x] !inline_code"),
		pc("curl x | sh", "curl[curl x] ctx=pipe", "sh[sh] ctx=pipe !stdin_script"),
		pc("curl x | bash -s", "curl[curl x] ctx=pipe", "bash[bash -s] ctx=pipe !stdin_script"),
	})
}

func TestParseGitGlobalOptions(t *testing.T) {
	p := testParser(t)
	for _, cmd := range []string{"git -C dir push origin", "git --no-pager push", "git -c user.name=x push", "git --git-dir=.git push"} {
		prog := p.Parse(cmd)
		if prog.Error != nil || len(prog.Segments) == 0 {
			t.Fatalf("%q: %+v", cmd, prog)
		}
		s := prog.Segments[0]
		if len(s.Path) < 2 || s.Path[0] != "git" || s.Path[1] != "push" {
			t.Errorf("%q: path %v, want git push first", cmd, s.Path)
		}
	}
}

func TestParseErrors(t *testing.T) {
	p := testParser(t)
	for _, cmd := range []string{"echo 'unterminated", "ls &&", "if true; then", "echo $(", "ls \\\r\nrm x", "((", "a |"} {
		prog := p.Parse(cmd)
		if prog.Error == nil || len(prog.Segments) != 0 {
			t.Errorf("%q: want a parse error and no segments, got %+v", cmd, prog)
		}
	}
}

// Where mvdan and bash read the same text differently, gate reads it as
// bash does, or refuses it: a lone CR is a word character, # starts a
// comment only at the start of a word, a comment ends at its newline even
// after a backslash, a quoted here-document keeps its backslash-newlines,
// and {NAME[...]}> is a redirection whose subscript bash evaluates.
func TestParseBashDesyncs(t *testing.T) {
	p := testParser(t)
	for _, cmd := range []string{
		"ls\r#; rm x", ">\r rm x", "2>\r touch ../o", "<<<\r rm x", "echo x\r#; rm x",
		"cat <<'A'#; rm x\nA", "cat <<\"A\"#|rm x\nA", "cat <<A#; rm x\nA", "cat <<-'A'#; rm x\nA",
		"ls {a['$(rm x)']}>x", "exec {a['`rm x`']}>/dev/null", "\x00", "ls\x00; echo",
		"echo 'a\rb' \"c\" \r rm x", "echo \"$(printf 'a\rb')\" \rrm x", "echo \\\\\r rm x",
		strings.Repeat("echo 'a\rb'; ", 2000) + "ls\r#; rm x",
	} {
		if prog := p.Parse(cmd); prog.Error == nil {
			t.Errorf("%q: want a parse error, got %+v", cmd, prog.Segments)
		}
	}
	runParseCases(t, []parseCase{
		pc("ls #\\\nrm x", "ls[ls]", "rm[rm x]"),
		pc("git status # note \\\ngit push", "git[git status]", "git[git push]"),
		pc("f() { ls #\\\nrm x\n}", "ls[ls] ctx=function/block", "rm[rm x] ctx=function/block"),
		pc("cat <<'A'\nx\\\nA\nrm x\nA", "cat[cat]", "rm[rm x]", "A[A]"),
		pc("cat <<\\A\nx\\\nA\nrm x\nA", "cat[cat]", "rm[rm x]", "A[A]"),
		pc("# only a comment \\\nrm x", "rm[rm x]"),
		pc("ls\r\nrm x\r\n", "ls[ls]", "rm[rm x]"),
		pc("printf 'a\rb'; echo \"c\rd\" # e\rf", "printf[printf a\rb]", "echo[echo c\rd]"),
		pc("cat <<'A'\ndocker run \\\n  -v x\nA", "cat[cat]"),
		pc("echo x#y 'a'#b", "echo[echo x#y a#b]"),
		pc("echo \"$(printf 'a\rb')\r\" a\\\rb", "echo[echo \"$(printf 'a\rb')\r\" a\rb] dyn=1", "printf[printf a\rb] ctx=cmdsubst"),
		pc("exec {fd}>x", "exec[exec] >x"),
	})
}

func TestParseLineContinuation(t *testing.T) {
	runParseCases(t, []parseCase{
		pc("r\\\nm x", "rm[rm x]"),
		pc("echo \"$\\\n(rm x)\"", "echo[echo \"$(rm x)\"] dyn=1", "rm[rm x] ctx=cmdsubst"),
	})
}

// PipedFrom links a simple command to the simple command whose output is
// its input through a pipe (|, not |&), and nothing else.
func TestPipedFrom(t *testing.T) {
	for _, tc := range []struct {
		command  string
		from, to string // programs; from "" when to reads no command's output
	}{
		{"find . | xargs chmod 644", "find", "xargs"},
		{"find . -print0 2>/dev/null | xargs -0 sed -i s/a/b/", "find", "xargs"},
		{"ls | find . | xargs chmod 644", "find", "xargs"},
		{"ls | find . | xargs chmod 644", "ls", "find"},
		{"find . | sort | xargs chmod 644", "sort", "xargs"},
		{"cd d && find . | xargs chmod 644", "find", "xargs"},
		{"for i in 1; do find . | xargs chmod 644; done", "find", "xargs"},
		{"find . |& xargs chmod 644", "", "xargs"},
		{"find . | (xargs chmod 644)", "", "xargs"},
		{"find . | { xargs chmod 644; }", "", "xargs"},
		{"(find .) | xargs chmod 644", "", "xargs"},
		{"find .; xargs chmod 644", "", "xargs"},
		{"find . && xargs chmod 644", "", "xargs"},
		{"echo $(find .) | xargs chmod 644", "echo", "xargs"},
		{"find . | xargs chmod 644 &", "find", "xargs"},
	} {
		prog := testParser(t).Parse(tc.command)
		if prog.Error != nil {
			t.Fatalf("%q: %v", tc.command, prog.Error)
		}
		var to *Segment
		for _, s := range prog.Segments {
			if s.Program == tc.to && s.Parent < 0 {
				to = s
			}
		}
		if to == nil {
			t.Fatalf("%q: no %s", tc.command, tc.to)
		}
		got := ""
		if to.PipedFrom >= 0 {
			got = prog.Segments[to.PipedFrom].Program
		}
		if got != tc.from {
			t.Errorf("%q: %s is piped from %q, want %q", tc.command, tc.to, got, tc.from)
		}
	}
}
