package shellparse

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Table tests of the segments a command line gives. Rows are built with the
// constructors of want_test.go; a failing row prints the segment it got in
// the same notation.

// Pipelines, && || ; & and newlines, negation and the time keyword.
func TestSegmentsLists(t *testing.T) {
	runRows(t, []row{
		r("ls -la | grep x && rm y || echo z; cat f & wc -l",
			seg("ls", "ls", "-la").in("or/and/pipe"),
			seg("grep", "grep", "x").in("or/and/pipe"),
			seg("rm", "rm", "y").in("or/and"),
			seg("echo", "echo", "z").in("or"),
			seg("cat", "cat", "f").bg(),
			seg("wc", "wc", "-l"),
		),
		r("a |& b", seg("a", "a").in("pipe"), seg("b", "b").in("pipe")),
		r("a | b | c", seg("a", "a").in("pipe/pipe"), seg("b", "b").in("pipe/pipe"), seg("c", "c").in("pipe")),
		r("a; b & c", seg("a", "a"), seg("b", "b").bg(), seg("c", "c")),
		r("a\nb\n\nc", seg("a", "a"), seg("b", "b"), seg("c", "c")),
		r("a && b && c", seg("a", "a").in("and/and"), seg("b", "b").in("and/and"), seg("c", "c").in("and")),
		r("a || b", seg("a", "a").in("or"), seg("b", "b").in("or")),
		r("a &\nb", seg("a", "a").bg(), seg("b", "b")),
		r("rm x & disown", seg("rm", "rm", "x").bg(), seg("disown", "disown")),
		r("! rm x", seg("rm", "rm", "x").in("negated")),
		r("! a | b", seg("a", "a").in("negated/pipe"), seg("b", "b").in("negated/pipe")),
		r("time rm x", seg("rm", "rm", "x").in("time")),
		r("time -p rm x", seg("rm", "rm", "x").in("time")),
		r("time ls | rm x", seg("ls", "ls").in("time/pipe"), seg("rm", "rm", "x").in("time/pipe")),
	})
}

// Subshells, groups, if/while/until/for/select/case, functions, coproc, [[ ]] and (( )).
func TestSegmentsCompound(t *testing.T) {
	runRows(t, []row{
		r("(cd sub && make) ; { echo a; echo b; } > out.txt",
			seg("cd", "cd", "sub").in("subshell/and"),
			seg("make", "make").in("subshell/and"),
			seg("echo", "echo", "a").in("block").rd(inh(wr(">", "out.txt"))),
			seg("echo", "echo", "b").in("block"),
		),
		r("( (rm a) )", seg("rm", "rm", "a").in("subshell/subshell")),
		r("{ rm a; } 2>/dev/null", seg("rm", "rm", "a").in("block").rd(inh(onFD("2", wr(">", "/dev/null"))))),
		r("{ rm x; } &", seg("rm", "rm", "x").in("block").bg()),
		r("(rm x) &", seg("rm", "rm", "x").in("subshell").bg()),
		r("if grep -q x f; then rm a; elif true; then rm b; else rm c; fi",
			seg("grep", "grep", "-q", "x", "f").in("if"),
			seg("rm", "rm", "a").in("if"),
			seg("true", "true").in("if"),
			seg("rm", "rm", "b").in("if"),
			seg("rm", "rm", "c").in("if"),
		),
		r("if $(rm x); then :; fi", seg("", "$(rm x)").in("if").dyn(0).find("dynamic_program"), seg("rm", "rm", "x").in("if/cmdsubst"), seg(":", ":").in("if")),
		r("while read l; do echo $l; done < f", seg("read", "read", "l").in("while").rd(inh(rdin("<", "f"))), seg("echo", "echo", "$l").in("while").dyn(1)),
		r("until false; do break; done", seg("false", "false").in("until"), seg("break", "break").in("until")),
		r("for i in 1 2; do rm $i; done", seg("rm", "rm", "$i").in("for").dyn(1)),
		r("for i in $(ls); do rm \"$i\"; done", seg("ls", "ls").in("for/cmdsubst"), seg("rm", "rm", "\"$i\"").in("for").dyn(1)),
		r("for i; do :; done", seg(":", ":").in("for")),
		r("for ((i=0; i<$(rm x); i++)); do echo; done", asg().find("arithmetic_injection"), seg("rm", "rm", "x").in("for/arith/cmdsubst"), seg("echo", "echo").in("for")),
		r("select x in $(rm y); do rm z; done", seg("rm", "rm", "y").in("for/cmdsubst"), seg("rm", "rm", "z").in("for")),
		r("case $x in a) rm y;; *) ls;; esac", seg("rm", "rm", "y").in("case"), seg("ls", "ls").in("case")),
		r("case $(rm x) in $(rm y)) rm z;; esac", seg("rm", "rm", "x").in("case/cmdsubst"), seg("rm", "rm", "y").in("case/cmdsubst"), seg("rm", "rm", "z").in("case")),
		r("case x in a) rm y;& b) rm z;;& *) ls;; esac", seg("rm", "rm", "y").in("case"), seg("rm", "rm", "z").in("case"), seg("ls", "ls").in("case")),
		r("f() { rm -rf x; }; f", seg("rm", "rm", "-rf", "x").in("function/block"), seg("f", "f").fn()),
		r("function g { rm y; }; g arg", seg("rm", "rm", "y").in("function/block"), seg("g", "g", "arg").fn()),
		r("f() ( rm x ); f", seg("rm", "rm", "x").in("function/subshell"), seg("f", "f").fn()),
		// g is defined only when f runs, which it does not: g is a program.
		r("f() { g() { rm x; }; }; g", seg("rm", "rm", "x").in("function/block/function/block"), seg("g", "g")),
		// a function defined in a subshell is gone after it; one defined
		// after the call, or on one path only, is not what the call runs.
		r("(rm() { ls; }); rm x", seg("ls", "ls").in("subshell/function/block"), seg("rm", "rm", "x")),
		r("rm x; rm() { ls; }", seg("rm", "rm", "x"), seg("ls", "ls").in("function/block")),
		r("if true; then rm() { ls; }; fi; rm x", seg("true", "true").in("if"), seg("ls", "ls").in("if/function/block"), seg("rm", "rm", "x")),
		r("rm() { ls; }; (rm x)", seg("ls", "ls").in("function/block"), seg("rm", "rm", "x").in("subshell").fn()),
		r("rm() { ls; }; nohup rm x", seg("ls", "ls").in("function/block"), seg("nohup", "nohup", "rm", "x").wraps().tr(), seg("rm", "rm", "x").in("wrapper").by(1, "nohup")),
		r("rm() { :; }; rm -rf /", seg(":", ":").in("function/block"), seg("rm", "rm", "-rf", "/").fn()),
		r("rm() { :; }; \\rm -rf /", seg(":", ":").in("function/block"), seg("rm", "rm", "-rf", "/").fn()),
		r("rm() { :; }; /bin/rm x", seg(":", ":").in("function/block"), seg("rm", "/bin/rm", "x")),
		r("rm() { :; }; time rm x", seg(":", ":").in("function/block"), seg("rm", "rm", "x").in("time").fn()),
		r("coproc rm x", seg("rm", "rm", "x").in("coproc").bg()),
		r("coproc mine { rm x; }", seg("rm", "rm", "x").in("coproc/block").bg()),
		r("[[ -f x ]] && rm y", tst("[[", "[[", "-f x", "]]").in("and"), seg("rm", "rm", "y").in("and")),
		r("[[ $(rm x) == y ]]", tst("[[", "[[", "$(rm x) == y", "]]"), seg("rm", "rm", "x").in("cmdsubst")),
		r("[[ x =~ $(rm y) ]]", tst("[[", "[[", "x =~ $(rm y)", "]]"), seg("rm", "rm", "y").in("cmdsubst")),
		r("[[ a < b ]]", tst("[[", "[[", "a < b", "]]")),
		r("(( i++ ))", tst("((", "((", "i++", "))")),
		r("let i++", seg("let", "let", "i++")),
	})
}

// Command and process substitutions, parameter and arithmetic expansions that
// run commands, and here-documents (expanding ones run their substitutions,
// quoted ones do not).
func TestSegmentsSubstitutions(t *testing.T) {
	runRows(t, []row{
		r("echo \"$(rm x)\" `id -u` <(ls a) >(tee b)",
			seg("echo", "echo", "\"$(rm x)\"", "`id -u`", "<(ls a)", ">(tee b)").dyn(1, 2, 3, 4),
			seg("rm", "rm", "x").in("cmdsubst"),
			seg("id", "id", "-u").in("cmdsubst"),
			seg("ls", "ls", "a").in("procsubst"),
			seg("tee", "tee", "b").in("procsubst"),
		),
		r("echo $(echo $(rm x))",
			seg("echo", "echo", "$(echo $(rm x))").dyn(1),
			seg("echo", "echo", "$(rm x)").in("cmdsubst").dyn(1),
			seg("rm", "rm", "x").in("cmdsubst/cmdsubst"),
		),
		r("echo `echo \\`rm x\\``",
			seg("echo", "echo", "`echo \\`rm x\\``").dyn(1),
			seg("echo", "echo", "`rm x`").in("cmdsubst").dyn(1),
			seg("rm", "rm", "x").in("cmdsubst/cmdsubst"),
		),
		r("diff <(sort a) <(sort b)",
			seg("diff", "diff", "<(sort a)", "<(sort b)").dyn(1, 2),
			seg("sort", "sort", "a").in("procsubst"),
			seg("sort", "sort", "b").in("procsubst"),
		),
		r("cat > >(rm x)", seg("cat", "cat").rd(pipeR(wr(">", ">(rm x)"))), seg("rm", "rm", "x").in("procsubst")),
		r("ls > $(rm x)", seg("ls", "ls").rd(dynR(wr(">", "$(rm x)"))), seg("rm", "rm", "x").in("cmdsubst")),
		r("x=$(rm y) ls", seg("ls", "ls").as(avDyn("x", "$(rm y)")), seg("rm", "rm", "y").in("cmdsubst")),
		r("echo ${x:-$(rm y)}", seg("echo", "echo", "${x:-$(rm y)}").dyn(1), seg("rm", "rm", "y").in("cmdsubst")),
		r("echo ${x/$(rm a)/$(rm b)}", seg("echo", "echo", "${x/$(rm a)/$(rm b)}").dyn(1), seg("rm", "rm", "a").in("cmdsubst"), seg("rm", "rm", "b").in("cmdsubst")),
		r("echo ${x:$(rm a):1}", seg("echo", "echo", "${x:$(rm a):1}").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "a").in("arith/cmdsubst")),
		r("echo ${a[$(rm x)]}", seg("echo", "echo", "${a[$(rm x)]}").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/cmdsubst")),
		r("echo {a,$(rm x)}", seg("echo", "echo", "a", "{a,$(rm x)}").dyn(2), seg("rm", "rm", "x").in("cmdsubst")),
		r("echo $(( $(rm x) + 1 ))", seg("echo", "echo", "$(( $(rm x) + 1 ))").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/cmdsubst")),
		r("echo $(( a[$(rm x)] ))", seg("echo", "echo", "$(( a[$(rm x)] ))").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/arith/cmdsubst")),
		r("(( a[$(rm x)] ))", tst("((", "((", "a[$(rm x)]", "))").find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/arith/cmdsubst")),
		r("echo $[ $(rm x) ]", seg("echo", "echo", "$[ $(rm x) ]").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/cmdsubst")),
		r("a[$(rm x)]=1", asg(av("a", "1")).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/cmdsubst")),
		r("echo \"$(( \"$(rm x)\" ))\"", seg("echo", "echo", "\"$(( \"$(rm x)\" ))\"").dyn(1).find("arithmetic_injection"), seg("rm", "rm", "x").in("arith/cmdsubst")),
		r("cat <<EOF\n$(rm x)\n`id`\n${y}\nEOF", seg("cat", "cat").rd(rdin("<<", "")), seg("rm", "rm", "x").in("heredoc/cmdsubst"), seg("id", "id").in("heredoc/cmdsubst")),
		r("cat <<'EOF'\n$(rm x)\nEOF", seg("cat", "cat").rd(rdin("<<", ""))),
		// A here-document left open at the end of the input: bash runs it
		// with all that follows as its body, and so does gate read it.
		r("cat <<'EOF' > x.md\n# notes\n$(rm x)", seg("cat", "cat").rd(rdin("<<", ""), wr(">", "x.md"))),
		r("cat <<EOF\n$(rm x)", seg("cat", "cat").rd(rdin("<<", "")), seg("rm", "rm", "x").in("heredoc/cmdsubst")),
		r("cat <<EOF\nx\n", seg("cat", "cat").rd(rdin("<<", ""))),
		r("bash <<EOF\nrm x", seg("bash", "bash").twraps().rd(rdin("<<", "")), seg("rm", "rm", "x").in("wrapper").by(0, "bash reading stdin")),
		r("cat <<\"EOF\"\n$(rm x)\nEOF", seg("cat", "cat").rd(rdin("<<", ""))),
		r("cat <<\\EOF\n$(rm x)\nEOF", seg("cat", "cat").rd(rdin("<<", ""))),
		r("cat <<E\"OF\"\n$(rm x)\nEOF", seg("cat", "cat").rd(rdin("<<", ""))),
		r("cat <<-EOF\n\t$(rm x)\n\tEOF", seg("cat", "cat").rd(rdin("<<-", "")), seg("rm", "rm", "x").in("heredoc/cmdsubst")),
		r("cat <<EOF | sh\nrm x\nEOF", seg("cat", "cat").in("pipe").rd(rdin("<<", "")), seg("sh", "sh").in("pipe").twraps().find("stdin_script")),
		r("bash <<EOF\nrm x\nEOF", seg("bash", "bash").twraps().rd(rdin("<<", "")), seg("rm", "rm", "x").in("wrapper").by(0, "bash reading stdin")),
		r("bash <<'EOF'\nrm $x\nEOF", seg("bash", "bash").twraps().rd(rdin("<<", "")), seg("rm", "rm", "$x").in("wrapper").by(0, "bash reading stdin").dyn(1)),
		r("bash <<EOF\n$x\nEOF", seg("bash", "bash").twraps().rd(rdin("<<", "")).find("stdin_script")),
		r("sh <<< 'rm x'", seg("sh", "sh").twraps().rd(rdin("<<<", "rm x")), seg("rm", "rm", "x").in("wrapper").by(0, "sh reading stdin")),
		r("bash <<< \"$x\"", seg("bash", "bash").twraps().rd(dynR(rdin("<<<", "\"$x\""))).find("stdin_script")),
	})
}

// Program identity: the last path element after quote removal; RawProgram
// keeps the spelling and ProgramPath the path.
func TestSegmentsIdentity(t *testing.T) {
	runRows(t, []row{
		r("/bin/rm x", seg("rm", "/bin/rm", "x").raw("/bin/rm").ppath("/bin/rm").path("rm", "x")),
		r("\\rm x", seg("rm", "rm", "x").raw("\\rm").ppath("").path("rm", "x")),
		r("\"r\"m x", seg("rm", "rm", "x").raw("\"r\"m").ppath("").path("rm", "x")),
		r("./rm x", seg("rm", "./rm", "x").raw("./rm").ppath("./rm").path("rm", "x")),
		r("'rm' x", seg("rm", "rm", "x").raw("'rm'").ppath("").path("rm", "x")),
		r("r''m x", seg("rm", "rm", "x").raw("r''m").ppath("").path("rm", "x")),
		r("$'rm' x", seg("rm", "rm", "x").raw("$'rm'").ppath("").path("rm", "x")),
		r("$\"rm\" x", seg("rm", "rm", "x").raw("$\"rm\"").ppath("").path("rm", "x")),
		r("\\/bin/rm x", seg("rm", "/bin/rm", "x").raw("\\/bin/rm").ppath("/bin/rm").path("rm", "x")),
		r("/usr/local/../bin/rm x", seg("rm", "/usr/local/../bin/rm", "x").raw("/usr/local/../bin/rm").ppath("/usr/local/../bin/rm").path("rm", "x")),
		r("../bin/rm x", seg("rm", "../bin/rm", "x").raw("../bin/rm").ppath("../bin/rm").path("rm", "x")),
		r("~/bin/rm x", seg("rm", "/home/u/bin/rm", "x").raw("~/bin/rm").ppath("/home/u/bin/rm").path("rm", "x")),
		r("\"/usr/bin/env\" rm x",
			seg("env", "/usr/bin/env", "rm", "x").twraps().raw("\"/usr/bin/env\"").ppath("/usr/bin/env").path("env", "rm", "x"),
			seg("rm", "rm", "x").in("wrapper").by(0, "env").raw("rm").ppath("").path("rm", "x"),
		),
		r("r{m,x} y", seg("rm", "rm", "rx", "y").raw("r{m,x}").ppath("").path("rm", "rx", "y")),
	})
}

// Every wrapper of the catalogue, with its options: the inner command is a
// segment whose parent is the wrapper.
func TestSegmentsWrappers(t *testing.T) {
	runRows(t, []row{
		r("sudo rm x", seg("sudo", "sudo", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -u bob -g wheel rm x", seg("sudo", "sudo", "-u", "bob", "-g", "wheel", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo --user=bob rm x", seg("sudo", "sudo", "--user=bob", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -uroot rm x", seg("sudo", "sudo", "-uroot", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -Hu root rm x", seg("sudo", "sudo", "-Hu", "root", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -E -H rm x", seg("sudo", "sudo", "-E", "-H", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -- rm x", seg("sudo", "sudo", "--", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -s rm x", seg("sudo", "sudo", "-s", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -i rm x", seg("sudo", "sudo", "-i", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -u root -i -- rm x", seg("sudo", "sudo", "-u", "root", "-i", "--", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -i", seg("sudo", "sudo", "-i").wraps()),
		r("sudo -l rm", seg("sudo", "sudo", "-l", "rm")),
		r("sudo -v", seg("sudo", "sudo", "-v")),
		r("sudo -e /etc/x", seg("sudo", "sudo", "-e", "/etc/x")),
		r("sudo sudo rm x",
			seg("sudo", "sudo", "sudo", "rm", "x").wraps(),
			seg("sudo", "sudo", "rm", "x").in("wrapper").by(0, "sudo").wraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "sudo"),
		),
		r("sudo $cmd x", seg("sudo", "sudo", "$cmd", "x").dyn(1).wraps(), seg("", "$cmd", "x").in("wrapper").by(0, "sudo").dyn(0).find("dynamic_program")),
		r("sudo -u $u rm x", seg("sudo", "sudo", "-u", "$u", "rm", "x").dyn(2).wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sudo")),
		r("sudo -u root env A=1 nice -n 5 bash -c 'rm x'",
			seg("sudo", "sudo", "-u", "root", "env", "A=1", "nice", "-n", "5", "bash", "-c", "rm x").wraps(),
			seg("env", "env", "A=1", "nice", "-n", "5", "bash", "-c", "rm x").in("wrapper").by(0, "sudo").twraps(),
			seg("nice", "nice", "-n", "5", "bash", "-c", "rm x").in("wrapper/wrapper").by(1, "env").twraps().as(av("A", "1")),
			seg("bash", "bash", "-c", "rm x").in("wrapper/wrapper/wrapper").by(2, "nice").twraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper/wrapper/wrapper").by(3, "bash -c"),
		),
		r("doas rm x", seg("doas", "doas", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "doas")),
		r("doas -u root rm x", seg("doas", "doas", "-u", "root", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "doas")),
		r("doas -- rm x", seg("doas", "doas", "--", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "doas")),
		r("doas -s", seg("doas", "doas", "-s").wraps()),
		r("pkexec --user bob rm x", seg("pkexec", "pkexec", "--user", "bob", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "pkexec")),
		r("run0 -u bob rm x", seg("run0", "run0", "-u", "bob", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "run0")),
		r("su -c 'rm x'", seg("su", "su", "-c", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "su -c")),
		r("su -c 'rm x' root", seg("su", "su", "-c", "rm x", "root").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "su -c")),
		r("su --command='rm x'", seg("su", "su", "--command=rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "su -c")),
		r("runuser -u x -- rm y", seg("runuser", "runuser", "-u", "x", "--", "rm", "y").wraps(), seg("rm", "rm", "y").in("wrapper").by(0, "runuser")),
		r("runuser -c 'rm x' u", seg("runuser", "runuser", "-c", "rm x", "u").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "runuser -c")),
		r("env rm x", seg("env", "env", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env -i A=1 B=2 rm x", seg("env", "env", "-i", "A=1", "B=2", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env").as(av("A", "1"), av("B", "2"))),
		r("env -u HOME rm x", seg("env", "env", "-u", "HOME", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env -C /tmp rm x", seg("env", "env", "-C", "/tmp", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env -- rm x", seg("env", "env", "--", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env -S 'rm x'", seg("env", "env", "-S", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env -S\"rm x\"", seg("env", "env", "-Srm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		r("env --split-string='rm x'", seg("env", "env", "--split-string=rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env")),
		// env's own splitting, and the operands after the string
		r(`env -S 'git\_push' origin`, seg("env", "env", "-S", `git\_push`, "origin").twraps(), seg("git", "git", "push", "origin").in("wrapper").by(0, "env")),
		r("env -S '#x' rm y", seg("env", "env", "-S", "#x", "rm", "y").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "env")),
		r("env A=1", seg("env", "env", "A=1").twraps()),
		r("env", seg("env", "env")),
		r("env LD_PRELOAD=/x.so ls",
			seg("env", "env", "LD_PRELOAD=/x.so", "ls").twraps(),
			seg("ls", "ls").in("wrapper").by(0, "env").as(av("LD_PRELOAD", "/x.so")).find("env_code"),
		),
		r("env GIT_SSH_COMMAND='rm x' git fetch",
			seg("env", "env", "GIT_SSH_COMMAND=rm x", "git", "fetch").twraps(),
			seg("git", "git", "fetch").in("wrapper").by(0, "env").wraps().as(av("GIT_SSH_COMMAND", "rm x")),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "env GIT_SSH_COMMAND"),
		),
		r("env GIT_SSH_COMMAND='rm x'", seg("env", "env", "GIT_SSH_COMMAND=rm x").twraps()),
		r("nice rm x", seg("nice", "nice", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("nice -n 5 rm x", seg("nice", "nice", "-n", "5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("nice -n5 rm x", seg("nice", "nice", "-n5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("nice --adjustment=5 rm x", seg("nice", "nice", "--adjustment=5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("nohup rm x &", seg("nohup", "nohup", "rm", "x").bg().twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nohup").bg()),
		r("timeout 5 rm x", seg("timeout", "timeout", "5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "timeout")),
		r("timeout -s KILL 5 rm x", seg("timeout", "timeout", "-s", "KILL", "5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "timeout")),
		r("timeout --signal=KILL -k 2 5s rm x",
			seg("timeout", "timeout", "--signal=KILL", "-k", "2", "5s", "rm", "x").twraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "timeout"),
		),
		r("timeout 5", seg("timeout", "timeout", "5")),
		r("stdbuf -oL rm x", seg("stdbuf", "stdbuf", "-oL", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "stdbuf")),
		r("stdbuf -o L -e 0 rm x", seg("stdbuf", "stdbuf", "-o", "L", "-e", "0", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "stdbuf")),
		r("setsid rm x", seg("setsid", "setsid", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "setsid")),
		r("setsid -f rm x", seg("setsid", "setsid", "-f", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "setsid")),
		r("/usr/bin/time -f %e rm x", seg("time", "/usr/bin/time", "-f", "%e", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "time")),
		r("\\time rm x", seg("time", "time", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "time")),
		r("nice time -v rm x",
			seg("nice", "nice", "time", "-v", "rm", "x").twraps(),
			seg("time", "time", "-v", "rm", "x").in("wrapper").by(0, "nice").twraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "time"),
		),
		r("nohup -- rm x", seg("nohup", "nohup", "--", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nohup")),
		r("timeout -k5 10 rm x", seg("timeout", "timeout", "-k5", "10", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "timeout")),
		r("nice -10 rm x", seg("nice", "nice", "-10", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nice")),
		r("exec -c rm x", seg("exec", "exec", "-c", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "exec")),
		r("busybox rm x", seg("busybox", "busybox", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "busybox")),
		r("command rm x", seg("command", "command", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "command")),
		r("command -p rm x", seg("command", "command", "-p", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "command")),
		r("command -- rm x", seg("command", "command", "--", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "command")),
		r("command -v rm", seg("command", "command", "-v", "rm")),
		r("command -pv rm", seg("command", "command", "-pv", "rm")),
		r("builtin echo x", seg("builtin", "builtin", "echo", "x").twraps(), seg("echo", "echo", "x").in("wrapper").by(0, "builtin")),
		r("builtin eval 'rm x'",
			seg("builtin", "builtin", "eval", "rm x").twraps(),
			seg("eval", "eval", "rm x").in("wrapper").by(0, "builtin").twraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "eval"),
		),
		r("exec rm x", seg("exec", "exec", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "exec")),
		r("exec -a name rm x", seg("exec", "exec", "-a", "name", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "exec")),
		r("exec > log", seg("exec", "exec").rd(wr(">", "log"))),
		r("exec 3>&1", seg("exec", "exec").rd(dup("3", ">&", "1"))),
		r("ionice -c 3 rm x", seg("ionice", "ionice", "-c", "3", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ionice")),
		r("ionice -c3 -n7 rm x", seg("ionice", "ionice", "-c3", "-n7", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ionice")),
		r("chrt -f 10 rm x", seg("chrt", "chrt", "-f", "10", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "chrt")),
		r("taskset -c 0,1 rm x", seg("taskset", "taskset", "-c", "0,1", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "taskset")),
		r("chroot /srv rm x", seg("chroot", "chroot", "/srv", "rm", "x").wraps().find("dynamic_wrapper"), seg("rm", "rm", "x").in("wrapper").by(0, "chroot")),
		r("chroot --userspec=a:b /srv rm x", seg("chroot", "chroot", "--userspec=a:b", "/srv", "rm", "x").wraps().find("dynamic_wrapper"), seg("rm", "rm", "x").in("wrapper").by(0, "chroot")),
		r("chroot /srv", seg("chroot", "chroot", "/srv").find("dynamic_wrapper")),
		r("unshare -r rm x", seg("unshare", "unshare", "-r", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "unshare")),
		r("nsenter -t 1 -m rm x", seg("nsenter", "nsenter", "-t", "1", "-m", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "nsenter")),
		r("firejail --net=none rm x", seg("firejail", "firejail", "--net=none", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "firejail")),
		r("unbuffer rm x", seg("unbuffer", "unbuffer", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "unbuffer")),
		r("caffeinate -t 5 rm x", seg("caffeinate", "caffeinate", "-t", "5", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "caffeinate")),
		r("strace -f -e trace=file -o log rm x",
			seg("strace", "strace", "-f", "-e", "trace=file", "-o", "log", "rm", "x").twraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "strace"),
		),
		r("ltrace rm x", seg("ltrace", "ltrace", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ltrace")),
		r("valgrind --leak-check=full ./prog", seg("valgrind", "valgrind", "--leak-check=full", "./prog").twraps(), seg("prog", "./prog").in("wrapper").by(0, "valgrind")),
		r("proxychains4 -f cfg curl x", seg("proxychains4", "proxychains4", "-f", "cfg", "curl", "x").twraps(), seg("curl", "curl", "x").in("wrapper").by(0, "proxychains4")),
		r("torsocks curl x", seg("torsocks", "torsocks", "curl", "x").twraps(), seg("curl", "curl", "x").in("wrapper").by(0, "torsocks")),
		r("ls | xargs rm", seg("ls", "ls").in("pipe"), seg("xargs", "xargs", "rm").in("pipe").twraps(), seg("rm", "rm", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(1)),
		r("ls | xargs -0 rm -f",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "-0", "rm", "-f").in("pipe").twraps(),
			seg("rm", "rm", "-f", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(2),
		),
		r("ls | xargs -I{} rm {}",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "-I{}", "rm", "{}").in("pipe").twraps(),
			seg("rm", "rm", "{}").in("pipe/wrapper").by(1, "xargs").dyn(1),
		),
		r("ls | xargs -I {} mv {} /tmp",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "-I", "{}", "mv", "{}", "/tmp").in("pipe").twraps(),
			seg("mv", "mv", "{}", "/tmp").in("pipe/wrapper").by(1, "xargs").dyn(1),
		),
		r("ls | xargs -n1 -P4 rm",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "-n1", "-P4", "rm").in("pipe").twraps(),
			seg("rm", "rm", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(1),
		),
		r("ls | xargs -- rm",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "--", "rm").in("pipe").twraps(),
			seg("rm", "rm", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(1),
		),
		r("ls | xargs", seg("ls", "ls").in("pipe"), seg("xargs", "xargs").in("pipe").twraps(), seg("echo", "echo", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(1)),
		r("ls | xargs sh -c 'rm \"$@\"' _",
			seg("ls", "ls").in("pipe"),
			seg("xargs", "xargs", "sh", "-c", "rm \"$@\"", "_").in("pipe").twraps(),
			seg("sh", "sh", "-c", "rm \"$@\"", "_", "<input>").in("pipe/wrapper").by(1, "xargs").dyn(4).twraps(),
			seg("rm", "rm", "\"$@\"").in("pipe/wrapper/wrapper").by(2, "sh -c").dyn(1),
		),
		r("xargs -a list rm", seg("xargs", "xargs", "-a", "list", "rm").twraps(), seg("rm", "rm", "<input>").in("wrapper").by(0, "xargs").dyn(1)),
		r("xargs -I% sh -c 'rm %'",
			seg("xargs", "xargs", "-I%", "sh", "-c", "rm %").twraps(),
			seg("sh", "sh", "-c", "rm %").in("wrapper").by(0, "xargs").dyn(2).wraps().find("dynamic_script"),
		),
		r("flock /tmp/l rm x", seg("flock", "flock", "/tmp/l", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "flock")),
		r("flock -w 5 /tmp/l rm x", seg("flock", "flock", "-w", "5", "/tmp/l", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "flock")),
		r("flock -x /tmp/l rm x", seg("flock", "flock", "-x", "/tmp/l", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "flock")),
		r("flock -c 'rm x' /tmp/l", seg("flock", "flock", "-c", "rm x", "/tmp/l").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "flock -c")),
		r("watch rm x", seg("watch", "watch", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "watch")),
		r("watch -n 1 'rm x; ls'",
			seg("watch", "watch", "-n", "1", "rm x; ls").twraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "watch"),
			seg("ls", "ls").in("wrapper").by(0, "watch"),
		),
		r("parallel -j4 'rm {}' ::: a b",
			seg("parallel", "parallel", "-j4", "rm {}", ":::", "a", "b").twraps(),
			seg("rm", "rm", "a").in("wrapper").by(0, "parallel"),
			seg("rm", "rm", "b").in("wrapper").by(0, "parallel"),
		),
		// without a command the arguments are the commands; with one, each
		// argument completes it
		r("parallel ::: 'rm v'",
			seg("parallel", "parallel", ":::", "rm v").twraps(),
			seg("rm", "rm", "v").in("wrapper").by(0, "parallel"),
		),
		r("parallel git ::: push",
			seg("parallel", "parallel", "git", ":::", "push").twraps(),
			seg("git", "git", "push").in("wrapper").by(0, "parallel"),
		),
		r("ssh host rm x", seg("ssh", "ssh", "host", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ssh")),
		r("ssh -p 22 host 'rm x; ls'",
			seg("ssh", "ssh", "-p", "22", "host", "rm x; ls").wraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "ssh"),
			seg("ls", "ls").in("wrapper").by(0, "ssh"),
		),
		r("ssh -i key user@host rm -rf /", seg("ssh", "ssh", "-i", "key", "user@host", "rm", "-rf", "/").wraps(), seg("rm", "rm", "-rf", "/").in("wrapper").by(0, "ssh")),
		r("ssh host", seg("ssh", "ssh", "host").wraps()),
		r("script -c 'rm x' log", seg("script", "script", "-c", "rm x", "log").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "script -c")),
		r("busybox sh -c 'rm x'",
			seg("busybox", "busybox", "sh", "-c", "rm x").twraps(),
			seg("sh", "sh", "-c", "rm x").in("wrapper").by(0, "busybox").twraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "sh -c"),
		),
		r("npx cowsay hi", seg("npx", "npx", "cowsay", "hi").wraps(), seg("cowsay", "cowsay", "hi").in("wrapper").by(0, "npx")),
		r("npx -c 'rm x'", seg("npx", "npx", "-c", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "npx -c")),
		r("npx -p pkg cmd", seg("npx", "npx", "-p", "pkg", "cmd").wraps(), seg("cmd", "cmd").in("wrapper").by(0, "npx")),
		r("bunx cowsay", seg("bunx", "bunx", "cowsay").wraps(), seg("cowsay", "cowsay").in("wrapper").by(0, "bunx")),
		r("pnpx cowsay", seg("pnpx", "pnpx", "cowsay").wraps(), seg("cowsay", "cowsay").in("wrapper").by(0, "pnpx")),
		r("uvx --from pkg tool", seg("uvx", "uvx", "--from", "pkg", "tool").wraps(), seg("tool", "tool").in("wrapper").by(0, "uvx")),
		r("npm exec rm x", seg("npm", "npm", "exec", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "npm exec")),
		r("npm x -- rm x", seg("npm", "npm", "x", "--", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "npm exec")),
		r("npm install x", seg("npm", "npm", "install", "x")),
		r("pnpm exec rm x", seg("pnpm", "pnpm", "exec", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "pnpm exec")),
		r("pnpm dlx cowsay", seg("pnpm", "pnpm", "dlx", "cowsay").wraps(), seg("cowsay", "cowsay").in("wrapper").by(0, "pnpm dlx")),
		r("yarn dlx cowsay", seg("yarn", "yarn", "dlx", "cowsay").wraps(), seg("cowsay", "cowsay").in("wrapper").by(0, "yarn dlx")),
		r("yarn add x", seg("yarn", "yarn", "add", "x")),
		r("find . -exec rm {} \\;", seg("find", "find", ".", "-exec", "rm", "{}", ";").wraps(), seg("rm", "rm", "{}").in("wrapper").by(0, "find -exec").dyn(1)),
		r("find . -name '*.o' -exec rm -f {} +",
			seg("find", "find", ".", "-name", "*.o", "-exec", "rm", "-f", "{}", "+").wraps(),
			seg("rm", "rm", "-f", "{}").in("wrapper").by(0, "find -exec").dyn(2),
		),
		r("find . -execdir sh -c 'rm \"$1\"' _ {} \\;",
			seg("find", "find", ".", "-execdir", "sh", "-c", "rm \"$1\"", "_", "{}", ";").wraps(),
			seg("sh", "sh", "-c", "rm \"$1\"", "_", "{}").in("wrapper").by(0, "find -execdir").dyn(4).twraps(),
			seg("rm", "rm", "\"$1\"").in("wrapper/wrapper").by(1, "sh -c").dyn(1),
		),
		r("find . -ok rm {} \\;", seg("find", "find", ".", "-ok", "rm", "{}", ";").wraps(), seg("rm", "rm", "{}").in("wrapper").by(0, "find -ok").dyn(1)),
		r("find . -okdir rm {} \\;", seg("find", "find", ".", "-okdir", "rm", "{}", ";").wraps(), seg("rm", "rm", "{}").in("wrapper").by(0, "find -okdir").dyn(1)),
		r("find . -exec rm {} \\; -exec ls \\;",
			seg("find", "find", ".", "-exec", "rm", "{}", ";", "-exec", "ls", ";").wraps(),
			seg("rm", "rm", "{}").in("wrapper").by(0, "find -exec").dyn(1),
			seg("ls", "ls").in("wrapper").by(0, "find -exec"),
		),
		r("find . -exec $cmd {} \\;",
			seg("find", "find", ".", "-exec", "$cmd", "{}", ";").dyn(3).wraps(),
			seg("", "$cmd", "{}").in("wrapper").by(0, "find -exec").dyn(0, 1).find("dynamic_program"),
		),
		r("find . -delete", seg("find", "find", ".", "-delete")),
		r("fd -x rm", seg("fd", "fd", "-x", "rm").wraps(), seg("rm", "rm").in("wrapper").by(0, "fd -x")),
		r("fd pattern --exec rm {} \\;", seg("fd", "fd", "pattern", "--exec", "rm", "{}", ";").wraps(), seg("rm", "rm", "{}").in("wrapper").by(0, "fd --exec").dyn(1)),
		r("eval 'rm x'", seg("eval", "eval", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "eval")),
		r("eval rm x", seg("eval", "eval", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "eval")),
		r("eval", seg("eval", "eval")),
		r("source ./x.sh", seg("source", "source", "./x.sh").twraps(), seg("x.sh", "./x.sh").in("wrapper").by(0, "source")),
		r(". ./x.sh", seg(".", ".", "./x.sh").twraps(), seg("x.sh", "./x.sh").in("wrapper").by(0, ".")),
		r("source", seg("source", "source")),
		r("trap 'rm x' EXIT", seg("trap", "trap", "rm x", "EXIT").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "trap")),
		r("trap -- 'rm x' EXIT", seg("trap", "trap", "--", "rm x", "EXIT").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "trap")),
		r("trap -p", seg("trap", "trap", "-p")),
		r("tar --to-command='rm x' -xf a.tar", seg("tar", "tar", "--to-command=rm x", "-xf", "a.tar").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "tar --to-command")),
		r("tar -I 'rm x' -cf a.tar .", seg("tar", "tar", "-I", "rm x", "-cf", "a.tar", ".").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "tar -I")),
		r("rsync -e 'rm x' a b:", seg("rsync", "rsync", "-e", "rm x", "a", "b:").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "rsync -e")),
		r("man -P 'rm x' ls", seg("man", "man", "-P", "rm x", "ls").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "man -P")),
		r("sort --compress-program='rm x' f", seg("sort", "sort", "--compress-program=rm x", "f").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sort --compress-program")),
		r("eval eval eval eval eval eval eval eval eval eval rm x",
			seg("eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper").by(0, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper").by(1, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper").by(2, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper/wrapper").by(3, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper").by(4, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(5, "eval").twraps(),
			seg("eval", "eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(6, "eval").twraps(),
			seg("eval", "eval", "eval", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(7, "eval").twraps().find("nesting_too_deep"),
		),
		r("nice nice nice nice nice nice nice nice nice nice rm x",
			seg("nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper").by(0, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper").by(1, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper").by(2, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper/wrapper").by(3, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper").by(4, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(5, "nice").twraps(),
			seg("nice", "nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(6, "nice").twraps(),
			seg("nice", "nice", "nice", "rm", "x").in("wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper/wrapper").by(7, "nice").twraps().find("nesting_too_deep"),
		),
	})
}

// Shells: -c at any path, clustered and with other flags, script files and
// scripts read from stdin.
func TestSegmentsShells(t *testing.T) {
	runRows(t, []row{
		r("bash -c 'rm x'", seg("bash", "bash", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("/bin/bash -c 'rm x'", seg("bash", "/bin/bash", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("/usr/local/bin/bash -c 'rm x'", seg("bash", "/usr/local/bin/bash", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("sh -c 'rm x' sh arg", seg("sh", "sh", "-c", "rm x", "sh", "arg").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "sh -c")),
		r("bash -e -c 'rm x'", seg("bash", "bash", "-e", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -ec 'rm x'", seg("bash", "bash", "-ec", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -xeuc 'rm x'", seg("bash", "bash", "-xeuc", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -lc 'rm x'", seg("bash", "bash", "-lc", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -o pipefail -c 'rm x'", seg("bash", "bash", "-o", "pipefail", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -O extglob -c 'rm x'", seg("bash", "bash", "-O", "extglob", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash +O extglob -c 'rm x'", seg("bash", "bash", "+O", "extglob", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash --norc -c 'rm x'", seg("bash", "bash", "--norc", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash --rcfile /x -c 'rm x'", seg("bash", "bash", "--rcfile", "/x", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash +x -c 'rm x'", seg("bash", "bash", "+x", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -c -- 'rm x'", seg("bash", "bash", "-c", "--", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash -c 'rm x; ls | wc -l'",
			seg("bash", "bash", "-c", "rm x; ls | wc -l").twraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "bash -c"),
			seg("ls", "ls").in("wrapper/pipe").by(0, "bash -c"),
			seg("wc", "wc", "-l").in("wrapper/pipe").by(0, "bash -c"),
		),
		r("bash -c 'echo $(rm x)'",
			seg("bash", "bash", "-c", "echo $(rm x)").twraps(),
			seg("echo", "echo", "$(rm x)").in("wrapper").by(0, "bash -c").dyn(1),
			seg("rm", "rm", "x").in("wrapper/cmdsubst").by(0, "bash -c"),
		),
		r("bash -c 'bash -c \"rm x\"'",
			seg("bash", "bash", "-c", "bash -c \"rm x\"").twraps(),
			seg("bash", "bash", "-c", "rm x").in("wrapper").by(0, "bash -c").twraps(),
			seg("rm", "rm", "x").in("wrapper/wrapper").by(1, "bash -c"),
		),
		r("bash -c 'rm x' &", seg("bash", "bash", "-c", "rm x").bg().twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c").bg()),
		r("bash -c", seg("bash", "bash", "-c").twraps()),
		r("bash script.sh arg", seg("bash", "bash", "script.sh", "arg").twraps(), seg("script.sh", "script.sh", "arg").in("wrapper").by(0, "bash")),
		r("bash ./script.sh", seg("bash", "bash", "./script.sh").twraps(), seg("script.sh", "./script.sh").in("wrapper").by(0, "bash")),
		r("sh x.sh -c 'rm x'", seg("sh", "sh", "x.sh", "-c", "rm x").twraps(), seg("x.sh", "x.sh", "-c", "rm x").in("wrapper").by(0, "sh")),
		r("bash -s arg < script", seg("bash", "bash", "-s", "arg").twraps().rd(rdin("<", "script")).find("stdin_script")),
		r("bash < script", seg("bash", "bash").twraps().rd(rdin("<", "script")).find("stdin_script")),
		r("bash", seg("bash", "bash").tr()),
		r("bash -i", seg("bash", "bash", "-i").tr()),
		r("dash -c 'rm x'", seg("dash", "dash", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "dash -c")),
		r("zsh -lc 'rm x'", seg("zsh", "zsh", "-lc", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "zsh -c")),
		r("ksh -c 'rm x'", seg("ksh", "ksh", "-c", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "ksh -c")),
		r("mksh -c 'rm x'", seg("mksh", "mksh", "-c", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "mksh -c")),
		r("ash -c 'rm x'", seg("ash", "ash", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ash -c")),
		r("fish -c 'rm x'", seg("fish", "fish", "-c", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "fish -c")),
		r("csh -c 'rm x'", seg("csh", "csh", "-c", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "csh -c")),
		r("tcsh -c 'rm x'", seg("tcsh", "tcsh", "-c", "rm x").twraps().find("unsupported_syntax"), seg("rm", "rm", "x").in("wrapper").by(0, "tcsh -c")),
		r("sudo -u x bash -c \"rm -rf /\"",
			seg("sudo", "sudo", "-u", "x", "bash", "-c", "rm -rf /").wraps(),
			seg("bash", "bash", "-c", "rm -rf /").in("wrapper").by(0, "sudo").twraps(),
			seg("rm", "rm", "-rf", "/").in("wrapper/wrapper").by(1, "bash -c"),
		),
	})
}

// git: aliases, configuration keys that are commands, subcommands that run
// scripts and global options before the subcommand.
func TestSegmentsGit(t *testing.T) {
	runRows(t, []row{
		r("git -c alias.x='!rm y' x", seg("git", "git", "-c", "alias.x=!rm y", "x").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "git alias x")),
		// git runs sh -c 'rm y "$@"' x arg: arg is rm's too
		r("git -c alias.x='!rm y' x arg", seg("git", "git", "-c", "alias.x=!rm y", "x", "arg").twraps(), seg("rm", "rm", "y", "arg").in("wrapper").by(0, "git alias x")),
		r("git -calias.x='!rm y' x", seg("git", "git", "-calias.x=!rm y", "x").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "git alias x")),
		r("git -c alias.X='!rm y' x", seg("git", "git", "-c", "alias.X=!rm y", "x").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "git alias x")),
		r("git -c alias.st=status st",
			seg("git", "git", "-c", "alias.st=status", "st").twraps(),
			seg("git", "git", "-c", "alias.st=status", "status").in("wrapper").by(0, "git alias st"),
		),
		r("git -c alias.x='!f() { rm y; }; f' x",
			seg("git", "git", "-c", "alias.x=!f() { rm y; }; f", "x").twraps(),
			seg("rm", "rm", "y").in("wrapper/function/block").by(0, "git alias x"),
			seg("f", "f").in("wrapper").by(0, "git alias x").fn(),
		),
		r("git -C dir -c alias.x='!rm y' x", seg("git", "git", "-C", "dir", "-c", "alias.x=!rm y", "x").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "git alias x")),
		r("/usr/bin/git -c alias.x='!rm y' x", seg("git", "/usr/bin/git", "-c", "alias.x=!rm y", "x").twraps(), seg("rm", "rm", "y").in("wrapper").by(0, "git alias x")),
		r("git -c core.pager='rm x' log", seg("git", "git", "-c", "core.pager=rm x", "log").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git -c core.pager")),
		r("git -c core.sshCommand='rm x' fetch",
			seg("git", "git", "-c", "core.sshCommand=rm x", "fetch").wraps(),
			seg("rm", "rm", "x").in("wrapper").by(0, "git -c core.sshcommand"),
		),
		r("git -c pager.log='rm x' log", seg("git", "git", "-c", "pager.log=rm x", "log").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git -c pager.log")),
		r("git rebase --exec 'rm x' main", seg("git", "git", "rebase", "--exec", "rm x", "main").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git rebase --exec")),
		r("git rebase -x 'rm x' main", seg("git", "git", "rebase", "-x", "rm x", "main").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git rebase -x")),
		r("git bisect run rm x", seg("git", "git", "bisect", "run", "rm", "x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git bisect run")),
		r("git submodule foreach 'rm x'", seg("git", "git", "submodule", "foreach", "rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "git submodule foreach")),
		r("git -C dir push origin", seg("git", "git", "-C", "dir", "push", "origin")),
		r("git --git-dir=.git --work-tree=. status", seg("git", "git", "--git-dir=.git", "--work-tree=.", "status")),
		r("git --no-pager log", seg("git", "git", "--no-pager", "log")),
		r("git -c user.name=x commit -m msg", seg("git", "git", "-c", "user.name=x", "commit", "-m", "msg")),
		r("git config user.name bob", seg("git", "git", "config", "user.name", "bob")),
		// $sub may be -c KEY=VALUE, or an option that takes one
		r("git $sub", seg("git", "git", "$sub").dyn(1).find("git_config_code")),
		r("git -c\"$kv\" log", seg("git", "git", "-c\"$kv\"", "log").dyn(1).find("git_config_code")),
		r("git log \"$rev\"", seg("git", "git", "log", "\"$rev\"").dyn(2)),
	})
}

// Dynamic program names and what cannot be known statically.
func TestSegmentsFindings(t *testing.T) {
	runRows(t, []row{
		r("$cmd x", seg("", "$cmd", "x").dyn(0).find("dynamic_program")),
		r("\"$cmd\" x", seg("", "\"$cmd\"", "x").dyn(0).find("dynamic_program")),
		r("${cmd} x", seg("", "${cmd}", "x").dyn(0).find("dynamic_program")),
		r("r$x x", seg("", "r$x", "x").dyn(0).find("dynamic_program")),
		r("$HOME/bin/rm x", seg("", "$HOME/bin/rm", "x").dyn(0).find("dynamic_program")),
		r("$(which rm) x", seg("", "$(which rm)", "x").dyn(0).find("dynamic_program"), seg("which", "which", "rm").in("cmdsubst")),
		r("rm* x", seg("", "rm*", "x").dyn(0).find("glob_program")),
		r("r?m x", seg("", "r?m", "x").dyn(0).find("glob_program")),
		r("eval \"$x\"", seg("eval", "eval", "\"$x\"").dyn(1).twraps().find("dynamic_script")),
		r("eval \"rm $x\"", seg("eval", "eval", "\"rm $x\"").dyn(1).twraps().find("dynamic_script")),
		r("source \"$f\"", seg("source", "source", "\"$f\"").dyn(1).twraps().find("dynamic_script")),
		r(". \"$f\"", seg(".", ".", "\"$f\"").dyn(1).twraps().find("dynamic_script")),
		r("source <(curl x)", seg("source", "source", "<(curl x)").dyn(1).twraps().find("dynamic_script"), seg("curl", "curl", "x").in("procsubst")),
		r("trap \"$x\" EXIT", seg("trap", "trap", "\"$x\"", "EXIT").dyn(1).wraps().find("dynamic_script")),
		r("bash -c \"$x\"", seg("bash", "bash", "-c", "\"$x\"").dyn(2).wraps().find("dynamic_script")),
		r("bash \"$f\"", seg("bash", "bash", "\"$f\"").dyn(1).wraps().find("dynamic_script")),
		r("bash <(curl x)", seg("bash", "bash", "<(curl x)").dyn(1).wraps().find("dynamic_script"), seg("curl", "curl", "x").in("procsubst")),
		r("sh < <(curl x)", seg("sh", "sh").twraps().rd(pipeR(rdin("<", "<(curl x)"))).find("stdin_script"), seg("curl", "curl", "x").in("procsubst")),
		r("echo ${x@P}", seg("echo", "echo", "${x@P}").dyn(1).find("prompt_expansion")),
		r("echo \"${x@P}\"", seg("echo", "echo", "\"${x@P}\"").dyn(1).find("prompt_expansion")),
		r("echo ${x@Q}", seg("echo", "echo", "${x@Q}").dyn(1)),
		r("read v; echo ${!v}", seg("read", "read", "v"), seg("echo", "echo", "${!v}").dyn(1).find("indirect_expansion")),
		r("b='a[$(rm x)]'; echo ${!b}", asg(av("b", "a[$(rm x)]")), seg("echo", "echo", "${!b}").dyn(1).find("indirect_expansion")),
		r("echo ${!v}", seg("echo", "echo", "${!v}").dyn(1)),
		r("echo ${!prefix*}", seg("echo", "echo", "${!prefix*}").dyn(1)),
		r("python -c 'import os; os.remove(1)'", seg("python", "python", "-c", "import os; os.remove(1)").find("inline_code")),
		r("python3 -c \"$code\"", seg("python3", "python3", "-c", "\"$code\"").dyn(2).find("inline_code")),
		r("python script.py", seg("python", "python", "script.py")),
		r("echo 'print(1)' | python", seg("echo", "echo", "print(1)").in("pipe"), seg("python", "python").in("pipe").find("inline_code")),
		r("python - < x.py", seg("python", "python", "-").rd(rdin("<", "x.py")).find("inline_code")),
		r("perl -e 'unlink 1'", seg("perl", "perl", "-e", "unlink 1").find("inline_code")),
		r("perl -E 'say 1'", seg("perl", "perl", "-E", "say 1").find("inline_code")),
		r("ruby -e 'x'", seg("ruby", "ruby", "-e", "x").find("inline_code")),
		r("node -e 'x'", seg("node", "node", "-e", "x").find("inline_code")),
		r("node --eval 'x'", seg("node", "node", "--eval", "x").find("inline_code")),
		r("node -p 'x'", seg("node", "node", "-p", "x").find("inline_code")),
		r("node x.js", seg("node", "node", "x.js")),
		r("php -r 'x'", seg("php", "php", "-r", "x").find("inline_code")),
		r("lua -e 'x'", seg("lua", "lua", "-e", "x").find("inline_code")),
		r("awk '{print $1}' f", seg("awk", "awk", "{print $1}", "f")),
		r("awk '{system(\"rm x\")}' f", seg("awk", "awk", "{system(\"rm x\")}", "f").find("inline_code")),
		r("awk -f prog.awk f", seg("awk", "awk", "-f", "prog.awk", "f")),
		r("sed 's/a/b/' f", seg("sed", "sed", "s/a/b/", "f")),
		r("sed 's/a/b/e' f", seg("sed", "sed", "s/a/b/e", "f").find("inline_code")),
		r("sed -e '1e rm x' f", seg("sed", "sed", "-e", "1e rm x", "f").find("inline_code")),
		r("vim +10 f", seg("vim", "vim", "+10", "f")),
		r("vim '+!rm x' f", seg("vim", "vim", "+!rm x", "f").find("inline_code")),
		r("vim -c '!rm x' f", seg("vim", "vim", "-c", "!rm x", "f").find("inline_code")),
		r("curl x | sh", seg("curl", "curl", "x").in("pipe"), seg("sh", "sh").in("pipe").twraps().find("stdin_script")),
		r("curl x | bash -s", seg("curl", "curl", "x").in("pipe"), seg("bash", "bash", "-s").in("pipe").twraps().find("stdin_script")),
		r("curl x | bash -s -- arg", seg("curl", "curl", "x").in("pipe"), seg("bash", "bash", "-s", "--", "arg").in("pipe").twraps().find("stdin_script")),
		r("curl x | sudo bash",
			seg("curl", "curl", "x").in("pipe"),
			seg("sudo", "sudo", "bash").in("pipe").wraps(),
			seg("bash", "bash").in("pipe/wrapper").by(1, "sudo").twraps().find("stdin_script"),
		),
		r("curl x | sh -c 'cat'", seg("curl", "curl", "x").in("pipe"), seg("sh", "sh", "-c", "cat").in("pipe").twraps(), seg("cat", "cat").in("pipe/wrapper").by(1, "sh -c")),
		r("wget -O- x | python3", seg("wget", "wget", "-O-", "x").in("pipe"), seg("python3", "python3").in("pipe").find("inline_code")),
		r("cat x | bash script.sh",
			seg("cat", "cat", "x").in("pipe"),
			seg("bash", "bash", "script.sh").in("pipe").twraps(),
			seg("script.sh", "script.sh").in("pipe/wrapper").by(1, "bash"),
		),
		r("x=$1; echo $((x))", asg(avDyn("x", "$1")), seg("echo", "echo", "$((x))").dyn(1).find("arithmetic_injection")),
		r("read x; echo $((x))", seg("read", "read", "x"), seg("echo", "echo", "$((x))").dyn(1).find("arithmetic_injection")),
		r("read x; (( x ))", seg("read", "read", "x"), tst("((", "((", "x", "))").find("arithmetic_injection")),
		r("read x; [[ $x -eq 1 ]]", seg("read", "read", "x"), tst("[[", "[[", "$x -eq 1", "]]").find("arithmetic_injection")),
		r("read x; [[ -v $x ]]", seg("read", "read", "x"), tst("[[", "[[", "-v $x", "]]").find("arithmetic_injection")),
		r("[[ -v a[$(rm x)] ]]", tst("[[", "[[", "-v a[$(rm x)]", "]]").find("arithmetic_injection"), seg("rm", "rm", "x").in("cmdsubst")),
		r("read x; echo ${a[x]}", seg("read", "read", "x"), seg("echo", "echo", "${a[x]}").dyn(1).find("arithmetic_injection")),
		r("read x; echo ${a[$x]}", seg("read", "read", "x"), seg("echo", "echo", "${a[$x]}").dyn(1).find("arithmetic_injection")),
		r("x='a[$(rm x)]'; echo $((x))", asg(av("x", "a[$(rm x)]")), seg("echo", "echo", "$((x))").dyn(1).find("arithmetic_injection")),
		r("declare -i n='a[$(rm x)]'", seg("declare", "declare", "-i", "n='a[$(rm x)]'").as(av("n", "a[$(rm x)]")).find("arithmetic_injection")),
		r("for i in a b; do rm $i; done; echo $((i))", seg("rm", "rm", "$i").in("for").dyn(1), seg("echo", "echo", "$((i))").dyn(1).find("arithmetic_injection")),
		r("for i in 1 2; do :; done; echo $((i))", seg(":", ":").in("for"), seg("echo", "echo", "$((i))").dyn(1)),
		r("mapfile -t arr < f; echo $(( arr[0] ))",
			seg("mapfile", "mapfile", "-t", "arr").rd(rdin("<", "f")),
			seg("echo", "echo", "$(( arr[0] ))").dyn(1).find("arithmetic_injection"),
		),
		r("echo $((x)); x=$1", seg("echo", "echo", "$((x))").dyn(1).find("arithmetic_injection"), asg(avDyn("x", "$1"))),
		// A counter assigned an arithmetic expansion holds a number.
		r("i=0; i=$((i+1)); echo $((i))", asg(av("i", "0")), asg(avDyn("i", "$((i+1))")), seg("echo", "echo", "$((i))").dyn(1)),
		r("i=$[i+1]; (( i < 3 ))", asg(avDyn("i", "$[i+1]")), tst("((", "((", "i < 3", "))")),
		// ... but not one whose expression reads an untrusted value, nor one
		// with more text around the expansion.
		r("read x; i=$((x+1))", seg("read", "read", "x"), asg(avDyn("i", "$((x+1))")).find("arithmetic_injection")),
		r("i=a$((1)); echo $((i))", asg(avDyn("i", "a$((1))")), seg("echo", "echo", "$((i))").dyn(1).find("arithmetic_injection")),
		r("i=$((1)); i=$1; echo $((i))", asg(avDyn("i", "$((1))")), asg(avDyn("i", "$1")), seg("echo", "echo", "$((i))").dyn(1).find("arithmetic_injection")),
		r("git -c \"alias.x=$v\" x", seg("git", "git", "-c", "\"alias.x=$v\"", "x").dyn(2).find("git_config_code")),
		r("git -c $kv x", seg("git", "git", "-c", "$kv", "x").dyn(2).find("git_config_code")),
		r("git -c core.hooksPath=/tmp/h commit", seg("git", "git", "-c", "core.hooksPath=/tmp/h", "commit").find("git_config_code")),
		r("git -c include.path=/x status", seg("git", "git", "-c", "include.path=/x", "status").find("git_config_code")),
		r("git --config-env=core.pager=X log", seg("git", "git", "--config-env=core.pager=X", "log").find("git_config_code")),
		r("git config alias.x '!rm y'", seg("git", "git", "config", "alias.x", "!rm y").find("git_config_plants")),
		r("git config --global core.pager less", seg("git", "git", "config", "--global", "core.pager", "less").find("git_config_plants")),
		// A key alone reads it; --unset removes it.
		r("git config alias.st", seg("git", "git", "config", "alias.st")),
		r("git config --global --unset alias.st", seg("git", "git", "config", "--global", "--unset", "alias.st")),
		r("git config --add alias.st '!rm x'", seg("git", "git", "config", "--add", "alias.st", "!rm x").find("git_config_plants")),
		r("git config -f .git/config alias.st", seg("git", "git", "config", "-f", ".git/config", "alias.st").find("git_config_plants")),
		r("git config --replace-all alias.st", seg("git", "git", "config", "--replace-all", "alias.st").find("git_config_plants")),
		r("git config set alias.st '!rm x'", seg("git", "git", "config", "set", "alias.st", "!rm x").find("git_config_plants")),
		r("GIT_PAGER='rm x' git log", seg("git", "git", "log").wraps().as(av("GIT_PAGER", "rm x")), seg("rm", "rm", "x").in("wrapper").by(0, "env GIT_PAGER")),
		r("GIT_SSH_COMMAND='rm x' git fetch",
			seg("git", "git", "fetch").wraps().as(av("GIT_SSH_COMMAND", "rm x")),
			seg("rm", "rm", "x").in("wrapper").by(0, "env GIT_SSH_COMMAND"),
		),
		r("PAGER='rm x' man ls", seg("man", "man", "ls").wraps().as(av("PAGER", "rm x")), seg("rm", "rm", "x").in("wrapper").by(0, "env PAGER")),
		r("EDITOR='rm x' crontab -e", seg("crontab", "crontab", "-e").wraps().as(av("EDITOR", "rm x")), seg("rm", "rm", "x", "./\"$@\"").in("wrapper").by(0, "env EDITOR").dyn(2)),
		r("BASH_ENV=/x bash -c ls", seg("bash", "bash", "-c", "ls").twraps().as(av("BASH_ENV", "/x")).find("env_code"), seg("ls", "ls").in("wrapper").by(0, "bash -c")),
		r("PATH=/tmp:$PATH ls", seg("ls", "ls").as(avDyn("PATH", "/tmp:$PATH")).find("env_code")),
		r("PATH=$PATH:/tmp ls", seg("ls", "ls").as(avDyn("PATH", "$PATH:/tmp"))),
		r("PATH=/tmp ls", seg("ls", "ls").as(av("PATH", "/tmp")).find("env_code")),
		r("IFS=x read a", seg("read", "read", "a").as(av("IFS", "x"))),
		r("while IFS= read -r l; do echo \"$l\"; done", seg("read", "read", "-r", "l").in("while").as(av("IFS", "")), seg("echo", "echo", "\"$l\"").in("while").dyn(1)),
		// IFS set for the rest of the shell, or for another program or a
		// function named read, stays unprovable.
		r("IFS=x; read a", asg(av("IFS", "x")).find("env_code"), seg("read", "read", "a")),
		r("IFS=x cat f", seg("cat", "cat", "f").as(av("IFS", "x")).find("env_code")),
		r("read() { :; }; IFS=x read a", seg(":", ":").in("function/block"), seg("read", "read", "a").fn().as(av("IFS", "x")).find("env_code")),
		r("IFS=x \\read a", seg("read", "read", "a").as(av("IFS", "x")).find("env_code")),
		r("LD_PRELOAD=/x.so ls", seg("ls", "ls").as(av("LD_PRELOAD", "/x.so")).find("env_code")),
		r("GIT_SSH_COMMAND=\"$c\" git fetch", seg("git", "git", "fetch").as(avDyn("GIT_SSH_COMMAND", "\"$c\"")).find("env_code")),
		r("PS4='$(rm x)' bash -x -c ls",
			seg("bash", "bash", "-x", "-c", "ls").twraps().as(av("PS4", "$(rm x)")),
			seg("rm", "rm", "x").in("wrapper/cmdsubst").by(0, "prompt PS4"),
			seg("ls", "ls").in("wrapper").by(0, "bash -c"),
		),
		r("alias ls='rm -rf /'; ls", seg("alias", "alias", "ls=rm -rf /").find("rebinds_commands"), seg("ls", "ls")),
		r("alias ls='rm -rf /'", seg("alias", "alias", "ls=rm -rf /")),
		r("alias ll; alias", seg("alias", "alias", "ll"), seg("alias", "alias")),
		r("alias \"$a\"", seg("alias", "alias", "\"$a\"").dyn(1)),
		r("ls; alias \"$a\"", seg("ls", "ls"), seg("alias", "alias", "\"$a\"").dyn(1)),
		r("alias \"$a\"; ls", seg("alias", "alias", "\"$a\"").dyn(1).find("rebinds_commands"), seg("ls", "ls")),
		r("trap ls EXIT; alias ls=rm", seg("trap", "trap", "ls", "EXIT").wraps(), seg("ls", "ls").in("wrapper").by(0, "trap"), seg("alias", "alias", "ls=rm").find("rebinds_commands")),
		r("for i in 1 2; do alias ls=rm; done", seg("alias", "alias", "ls=rm").in("for").find("rebinds_commands")),
		r("shopt -s expand_aliases", seg("shopt", "shopt", "-s", "expand_aliases").find("rebinds_commands")),
		r("hash -p /bin/rm ls", seg("hash", "hash", "-p", "/bin/rm", "ls").find("rebinds_commands")),
		r("enable -f x.so foo", seg("enable", "enable", "-f", "x.so", "foo").find("rebinds_commands")),
		r("echo {1..2000}", seg("echo", "echo", "{1..2000}").dyn(1).find("brace_expansion_too_large")),
		r("bash -c 'rm \"x'", seg("bash", "bash", "-c", "rm \"x").twraps().find("unsupported_syntax")),
	})
}

// Redirections: op, fd, target, write, dup, dynamic and inherited.
func TestSegmentsRedirects(t *testing.T) {
	runRows(t, []row{
		r("ls > out", seg("ls", "ls").rd(wr(">", "out"))),
		r("ls >> out", seg("ls", "ls").rd(wr(">>", "out"))),
		r("ls 2> err", seg("ls", "ls").rd(onFD("2", wr(">", "err")))),
		r("ls 2>> err", seg("ls", "ls").rd(onFD("2", wr(">>", "err")))),
		r("ls &> all", seg("ls", "ls").rd(wr("&>", "all"))),
		r("ls &>> all", seg("ls", "ls").rd(wr("&>>", "all"))),
		r("ls >| out", seg("ls", "ls").rd(wr(">|", "out"))),
		r("ls 2>&1", seg("ls", "ls").rd(dup("2", ">&", "1"))),
		r("ls >&2", seg("ls", "ls").rd(dup("", ">&", "2"))),
		r("ls 1>&-", seg("ls", "ls").rd(dup("1", ">&", "-"))),
		r("ls > \"$f\"", seg("ls", "ls").rd(dynR(wr(">", "\"$f\"")))),
		r("ls > ~/out", seg("ls", "ls").rd(wr(">", "/home/u/out"))),
		r("ls > ~/out 2>&1 >> /tmp/a", seg("ls", "ls").rd(wr(">", "/home/u/out"), dup("2", ">&", "1"), wr(">>", "/tmp/a"))),
		r("cat < in", seg("cat", "cat").rd(rdin("<", "in"))),
		r("cat 0< in", seg("cat", "cat").rd(onFD("0", rdin("<", "in")))),
		r("cat <> rw", seg("cat", "cat").rd(wr("<>", "rw"))),
		r("exec 3<> rw", seg("exec", "exec").rd(onFD("3", wr("<>", "rw")))),
		r("cat 3< in", seg("cat", "cat").rd(onFD("3", rdin("<", "in")))),
		r("ls {fd}> out", seg("ls", "ls").rd(onFD("{fd}", wr(">", "out")))),
		r("cat <<< word", seg("cat", "cat").rd(rdin("<<<", "word"))),
		r("cat <<< $x", seg("cat", "cat").rd(dynR(rdin("<<<", "$x")))),
		r("> out", seg("").rd(wr(">", "out"))),
		r("< in", seg("").rd(rdin("<", "in"))),
		r("2>&1", seg("").rd(dup("2", ">&", "1"))),
		r("ls > a > b", seg("ls", "ls").rd(wr(">", "a"), wr(">", "b"))),
		r("ls > out | wc", seg("ls", "ls").in("pipe").rd(wr(">", "out")), seg("wc", "wc").in("pipe")),
		r("{ ls; pwd; } > out 2>&1", seg("ls", "ls").in("block").rd(inh(wr(">", "out")), inh(dup("2", ">&", "1"))), seg("pwd", "pwd").in("block")),
		r("(ls) > out", seg("ls", "ls").in("subshell").rd(inh(wr(">", "out")))),
		r("if true; then ls; fi > out", seg("true", "true").in("if").rd(inh(wr(">", "out"))), seg("ls", "ls").in("if")),
		r("while read l; do :; done < in > out", seg("read", "read", "l").in("while").rd(inh(rdin("<", "in")), inh(wr(">", "out"))), seg(":", ":").in("while")),
		r("f() { ls; } > out", seg("ls", "ls").in("function/block").rd(inh(wr(">", "out")))),
	})
}

// Assignments, alone, before a command and in declaration builtins.
func TestSegmentsAssignments(t *testing.T) {
	runRows(t, []row{
		r("x=1", asg(av("x", "1"))),
		r("x=1 rm y", seg("rm", "rm", "y").as(av("x", "1"))),
		r("x= y", seg("y", "y").as(av("x", ""))),
		r("a=1 b=2", asg(av("a", "1"), av("b", "2"))),
		r("a+=1", asg(av("a", "1"))),
		r("a[0]=1", asg(av("a", "1"))),
		r("A=1 B=\"$c\" ls", seg("ls", "ls").as(av("A", "1"), avDyn("B", "\"$c\""))),
		r("A=$(rm x)", asg(avDyn("A", "$(rm x)")), seg("rm", "rm", "x").in("cmdsubst")),
		r("a=(1 $(rm x))", asg(avDyn("a", "(1 $(rm x))")), seg("rm", "rm", "x").in("cmdsubst")),
		r("declare x", seg("declare", "declare", "x")),
		r("declare -a c=($(rm z))", seg("declare", "declare", "-a", "c=($(rm z))").as(avDyn("c", "($(rm z))")), seg("rm", "rm", "z").in("cmdsubst")),
		r("local x=$(rm y)", seg("local", "local", "x=$(rm y)").as(avDyn("x", "$(rm y)")), seg("rm", "rm", "y").in("cmdsubst")),
		r("export X=$(rm y)", seg("export", "export", "X=$(rm y)").as(avDyn("X", "$(rm y)")), seg("rm", "rm", "y").in("cmdsubst")),
		r("readonly R=1", seg("readonly", "readonly", "R=1").as(av("R", "1"))),
		r("typeset -i n=x", seg("typeset", "typeset", "-i", "n=x").as(av("n", "x"))),
		r("declare \"$v\"", seg("declare", "declare", "\"$v\"").dyn(1).find("arithmetic_injection")),
		r("echo x=y", seg("echo", "echo", "x=y")),
	})
}

// Quote removal, brace expansion, globs, tilde and dynamic word indexes.
func TestSegmentsWords(t *testing.T) {
	runRows(t, []row{
		r("echo 'rm -rf /' \"git push\"", seg("echo", "echo", "rm -rf /", "git push")),
		r("echo \"a\"'b'$'c'", seg("echo", "echo", "abc")),
		r("echo \"a$x\"", seg("echo", "echo", "\"a$x\"").dyn(1)),
		r("echo 'a$x'", seg("echo", "echo", "a$x")),
		r("echo a\\ b", seg("echo", "echo", "a b")),
		r("echo $'\\x72m'", seg("echo", "echo", "rm")),
		r("echo *.txt", seg("echo", "echo", "*.txt").dyn(1)),
		r("echo \"*.txt\"", seg("echo", "echo", "*.txt")),
		r("echo [ab]", seg("echo", "echo", "[ab]").dyn(1)),
		r("echo @(a|b)", seg("echo", "echo", "@(a|b)").dyn(1)),
		r("echo ~", seg("echo", "echo", "/home/u")),
		r("echo ~/x ~root/x ~+", seg("echo", "echo", "/home/u/x", "~root/x", "~+").dyn(2, 3)),
		r("ls \"$@\" $* $# $? $$ $! $- $0 $1 ${10}", seg("ls", "ls", "\"$@\"", "$*", "$#", "$?", "$$", "$!", "$-", "$0", "$1", "${10}").dyn(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
		r("rm -- -rf", seg("rm", "rm", "--", "-rf")),
		r("rm \"\" x", seg("rm", "rm", "", "x")),
		r("rm {1..3}", seg("rm", "rm", "1", "2", "3")),
		r("echo {a,b}{1,2}", seg("echo", "echo", "a1", "a2", "b1", "b2")),
		r("# rm -rf /\nls", seg("ls", "ls")),
		r("echo a # rm x", seg("echo", "echo", "a")),
	})
}

// Line continuations are removed as bash does before parsing (also inside
// double quotes, backquotes and here-documents); CR LF line ends are read as
// newlines.
func TestSegmentsContinuations(t *testing.T) {
	runRows(t, []row{
		r("r\\\nm x", seg("rm", "rm", "x")),
		r("ls \\\nrm x", seg("ls", "ls", "rm", "x")),
		r("echo \"$\\\n(rm x)\"", seg("echo", "echo", "\"$(rm x)\"").dyn(1), seg("rm", "rm", "x").in("cmdsubst")),
		r("cat <<EOF\n$\\\n(rm x)\nEOF", seg("cat", "cat").rd(rdin("<<", "")), seg("rm", "rm", "x").in("heredoc/cmdsubst")),
		r("echo a\\\n\\\nb", seg("echo", "echo", "ab")),
		r("echo `r\\\nm x`", seg("echo", "echo", "`rm x`").dyn(1), seg("rm", "rm", "x").in("cmdsubst")),
		r("echo \"`r\\\nm x`\"", seg("echo", "echo", "\"`rm x`\"").dyn(1), seg("rm", "rm", "x").in("cmdsubst")),
		r("rm x\\\n", seg("rm", "rm", "x")),
		r("e\\\nv\\\na\\\nl 'rm x'", seg("eval", "eval", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "eval")),
		r("echo ${x\\\n@P}", seg("echo", "echo", "${x@P}").dyn(1).find("prompt_expansion")),
		r("ls\nrm x\r\n", seg("ls", "ls"), seg("rm", "rm", "x")),
		r("ls\r\nrm x\r\n", seg("ls", "ls"), seg("rm", "rm", "x")),
		r("ls;\r\nrm x", seg("ls", "ls"), seg("rm", "rm", "x")),
		r("ls\r\n\r\nrm x", seg("ls", "ls"), seg("rm", "rm", "x")),
		r("bash -c 'ls\r\nrm x'",
			seg("bash", "bash", "-c", "ls\nrm x").twraps(),
			seg("ls", "ls").in("wrapper").by(0, "bash -c"),
			seg("rm", "rm", "x").in("wrapper").by(0, "bash -c"),
		),
		r("cat <<EOF\r\n$(rm x)\r\nEOF\r\n", seg("cat", "cat").rd(rdin("<<", "")), seg("rm", "rm", "x").in("heredoc/cmdsubst")),
	})
}

// Options (split, canonical), Path (operands up to a dynamic word), AltPaths
// for options of unknown arity, and the files written through arguments.
func TestSegmentsViews(t *testing.T) {
	runRows(t, []row{
		r("rm -rf --verbose a b", seg("rm", "rm", "-rf", "--verbose", "a", "b").opts("-f", "-r", "-v").path("rm", "a", "b").writes()),
		r("rm -R --recursive x", seg("rm", "rm", "-R", "--recursive", "x").opts("-r").path("rm", "x")),
		r("rm -rf $d x", seg("rm", "rm", "-rf", "$d", "x").dyn(2).opts("-f", "-r").path("rm").partial()),
		r("foo -x a b", seg("foo", "foo", "-x", "a", "b").opts("-x").path("foo", "a", "b").alt([]string{"foo", "b"})),
		r("foo -a -b c d", seg("foo", "foo", "-a", "-b", "c", "d").opts("-a", "-b").path("foo", "c", "d").alt([]string{"foo", "d"})),
		r("git --no-pager log --oneline", seg("git", "git", "--no-pager", "log", "--oneline").opts("--no-pager", "--oneline").path("git", "log")),
		r("git -C dir push origin main", seg("git", "git", "-C", "dir", "push", "origin", "main").opts("-C").path("git", "push", "origin", "main")),
		r("git --git-dir=.git push", seg("git", "git", "--git-dir=.git", "push").opts("--git-dir").path("git", "push")),
		r("git -c user.name=x commit -m msg", seg("git", "git", "-c", "user.name=x", "commit", "-m", "msg").opts("-c", "-m").path("git", "commit")),
		// a partial entry reads an option it does not know both ways, as no entry would
		r("npm --registry X publish", seg("npm", "npm", "--registry", "X", "publish").opts("--registry").path("npm", "X", "publish").alt([]string{"npm", "publish"})),
		r("sudo -u bob rm x",
			seg("sudo", "sudo", "-u", "bob", "rm", "x").wraps().opts("-u").path("sudo", "rm", "x"),
			seg("rm", "rm", "x").in("wrapper").by(0, "sudo").opts().path("rm", "x"),
		),
		r("sort -o out in", seg("sort", "sort", "-o", "out", "in").opts("-o").path("sort", "in").writes(wd("out"))),
		r("cp a b c/", seg("cp", "cp", "a", "b", "c/").writes(wd("c/"))),
		r("mv a b", seg("mv", "mv", "a", "b").writes(wd("b"))),
		r("tee -a f1 f2", seg("tee", "tee", "-a", "f1", "f2").writes(wd("f1"), wd("f2"))),
		r("tee \"$f\"", seg("tee", "tee", "\"$f\"").dyn(1).path("tee").partial().writes(wdDyn("\"$f\""))),
		r("touch a b", seg("touch", "touch", "a", "b").writes(wd("a"), wd("b"))),
		r("dd if=a of=b", seg("dd", "dd", "if=a", "of=b").writes(wd("b"))),
		r("chmod 644 a b", seg("chmod", "chmod", "644", "a", "b").writes(wd("a"), wd("b"))),
		r("sed -i 's/a/b/' f g", seg("sed", "sed", "-i", "s/a/b/", "f", "g").writes(wd("f"), wd("g"))),
		r("sed -i -e 's/a/b/' f", seg("sed", "sed", "-i", "-e", "s/a/b/", "f").opts("-e", "-i").path("sed", "f").writes(wd("f"))),
		r("sed 's/a/b/' f", seg("sed", "sed", "s/a/b/", "f").writes()),
		r("curl -o out http://x", seg("curl", "curl", "-o", "out", "http://x").path("curl", "http://x").writes(wd("out"))),
		r("find . -fprint out", seg("find", "find", ".", "-fprint", "out").opts("-fprint").writes(wd("out"))),
		r("gcc -O2 -MMD -MF d.mk -c m.c -o o/m.o", seg("gcc", "gcc", "-O2", "-MMD", "-MF", "d.mk", "-c", "m.c", "-o", "o/m.o").writes(wd("o/m.o"), wd("d.mk"))),
		// git subcommands: clone's directory (relative to -C), worktree add's path, output options
		r("git clone -b main URL ../d", seg("git", "git", "clone", "-b", "main", "URL", "../d").writes(wd("../d"))),
		r("git clone URL", seg("git", "git", "clone", "URL").writes()),
		r("git -C a -C b clone URL d", seg("git", "git", "-C", "a", "-C", "b", "clone", "URL", "d").writes(wd("a/b/d"))),
		// A repository elsewhere is written by every subcommand that is
		// not read-only.
		r("git -C ../r branch x", seg("git", "git", "-C", "../r", "branch", "x").writes(wd("../r"))),
		r("git --git-dir=../r.git tag x", seg("git", "git", "--git-dir=../r.git", "tag", "x").writes(wd("../r.git"))),
		r("git -C ../r --git-dir=.git fetch", seg("git", "git", "-C", "../r", "--git-dir=.git", "fetch").writes(wd("../r/.git"))),
		r("git -C ../r log -3", seg("git", "git", "-C", "../r", "log", "-3").writes()),
		r("git -C ../r init", seg("git", "git", "-C", "../r", "init").writes(wd("../r"))),
		r("git commit -m x", seg("git", "git", "commit", "-m", "x").writes()),
		r("git -C $x clone URL d", seg("git", "git", "-C", "$x", "clone", "URL", "d").dyn(2).writes(wdDyn("$x/d"))),
		r("git worktree add -b t ../w HEAD", seg("git", "git", "worktree", "add", "-b", "t", "../w", "HEAD").writes(wd("../w"))),
		r("git worktree list", seg("git", "git", "worktree", "list").writes()),
		r("git bundle create b.bundle HEAD", seg("git", "git", "bundle", "create", "b.bundle", "HEAD").writes(wd("b.bundle"))),
		r("git bundle verify b.bundle", seg("git", "git", "bundle", "verify", "b.bundle").writes()),
		r("git archive --output=a.tar HEAD", seg("git", "git", "archive", "--output=a.tar", "HEAD").writes(wd("a.tar"))),
		r("git log --output l.txt", seg("git", "git", "log", "--output", "l.txt").writes(wd("l.txt"))),
		// git config -f FILE writes FILE when it sets, adds or removes
		r("git config -f f a.b c", seg("git", "git", "config", "-f", "f", "a.b", "c").writes(wd("f"))),
		r("git config --file=f --unset a.b", seg("git", "git", "config", "--file=f", "--unset", "a.b").writes(wd("f"))),
		r("git config -f f a.b", seg("git", "git", "config", "-f", "f", "a.b").writes()),
		r("git config -f f --get-regexp a b", seg("git", "git", "config", "-f", "f", "--get-regexp", "a", "b").writes()),
		r("git config get -f f a.b", seg("git", "git", "config", "get", "-f", "f", "a.b").writes()),
		r("git config set -f f a.b c", seg("git", "git", "config", "set", "-f", "f", "a.b", "c").writes(wd("f"))),
	})
}

// The directory relative paths resolve against: cd changes it for what
// follows in the same shell, not across subshells; a cd that may not have
// run or whose target is unknown makes it unknown.
func TestSegmentsChdir(t *testing.T) {
	runRows(t, []row{
		r("cd /tmp && rm x", seg("cd", "cd", "/tmp").in("and").cd(), seg("rm", "rm", "x").in("and").cd("/tmp")),
		r("cd /tmp && cd sub && rm x", seg("cd", "cd", "/tmp").in("and/and").cd(), seg("cd", "cd", "sub").in("and/and").cd("/tmp"), seg("rm", "rm", "x").in("and").cd("/tmp", "sub")),
		r("cd && rm x", seg("cd", "cd").in("and").cd(), seg("rm", "rm", "x").in("and").cd("/home/u")),
		// after cd X; what follows runs whether or not cd worked (X
		// missing, a file, two operands, a failed redirection)
		r("cd /tmp; cd sub; rm x", seg("cd", "cd", "/tmp").cd(), seg("cd", "cd", "sub").cdUnknown(), seg("rm", "rm", "x").cdUnknown()),
		r("cd; rm x", seg("cd", "cd").cd(), seg("rm", "rm", "x").cdUnknown()),
		r("cd a b && rm x", seg("cd", "cd", "a", "b").in("and").cd(), seg("rm", "rm", "x").in("and").cdUnknown()),
		r("cd -@ a && rm x", seg("cd", "cd", "-@", "a").opts("-@").in("and").cd(), seg("rm", "rm", "x").in("and").cdUnknown()),
		r("cd $d; rm x", seg("cd", "cd", "$d").dyn(1).cd(), seg("rm", "rm", "x").cdUnknown()),
		r("cd - ; rm x", seg("cd", "cd", "-").cd(), seg("rm", "rm", "x").cdUnknown()),
		// pushd rotates a stack: pushd alone swaps, pushd -n does not move
		r("pushd /a && rm x", seg("pushd", "pushd", "/a").in("and").cd(), seg("rm", "rm", "x").in("and").cdUnknown()),
		r("popd; rm x", seg("popd", "popd").cd(), seg("rm", "rm", "x").cdUnknown()),
		r("(cd /a); rm x", seg("cd", "cd", "/a").in("subshell").cd(), seg("rm", "rm", "x").cd()),
		r("(cd /a && rm x)", seg("cd", "cd", "/a").in("subshell/and").cd(), seg("rm", "rm", "x").in("subshell/and").cd("/a")),
		r("cd /a | rm x", seg("cd", "cd", "/a").in("pipe").cd(), seg("rm", "rm", "x").in("pipe").cd()),
		r("cd /a || rm x", seg("cd", "cd", "/a").in("or").cd(), seg("rm", "rm", "x").in("or").cdUnknown()),
		r("if x; then cd /a; fi; rm x", seg("x", "x").in("if").cd(), seg("cd", "cd", "/a").in("if").cd(), seg("rm", "rm", "x").cdUnknown()),
		r("f() { cd /a; }; f; rm x", seg("cd", "cd", "/a").in("function/block").cdUnknown(), seg("f", "f").fn().cdUnknown(), seg("rm", "rm", "x").cdUnknown()),
		r("cd /a & rm x", seg("cd", "cd", "/a").bg().cd(), seg("rm", "rm", "x").cd()),
		r("echo $(cd /a); rm x", seg("echo", "echo", "$(cd /a)").dyn(1).cd(), seg("cd", "cd", "/a").in("cmdsubst").cd(), seg("rm", "rm", "x").cd()),
		r("bash -c 'cd /a'; rm x", seg("bash", "bash", "-c", "cd /a").twraps().cd(), seg("cd", "cd", "/a").in("wrapper").by(0, "bash -c").cd(), seg("rm", "rm", "x").cd()),
		r("eval 'cd /a' && rm x", seg("eval", "eval", "cd /a").in("and").twraps().cd(), seg("cd", "cd", "/a").in("and/wrapper").by(0, "eval").cd(), seg("rm", "rm", "x").in("and").cd("/a")),
		// In X && Y && Z each part runs only when those before succeeded.
		r("cd /a && make && rm x; rm y", seg("cd", "cd", "/a").in("and/and").cd(), seg("make", "make").in("and/and").cd("/a"),
			seg("rm", "rm", "x").in("and").cd("/a"), seg("rm", "rm", "y").cdUnknown()),
		r("cd /a && make || rm x", seg("cd", "cd", "/a").in("or/and").cd(), seg("make", "make").in("or/and").cd("/a"), seg("rm", "rm", "x").in("or").cdUnknown()),
		r("! cd /a && rm x", seg("cd", "cd", "/a").in("and/negated").cd(), seg("rm", "rm", "x").in("and").cdUnknown()),
		r("cd /a || true && rm x", seg("cd", "cd", "/a").in("and/or").cd(), seg("true", "true").in("and/or").cdUnknown(), seg("rm", "rm", "x").in("and").cdUnknown()),
		// cd through builtin and command moves the shell itself.
		r("builtin cd /a && rm x", seg("builtin", "builtin", "cd", "/a").in("and").twraps().cd(), seg("cd", "cd", "/a").in("and/wrapper").by(0, "builtin").cd(), seg("rm", "rm", "x").in("and").cd("/a")),
		r("command cd /a && rm x", seg("command", "command", "cd", "/a").in("and").twraps().cd(), seg("cd", "cd", "/a").in("and/wrapper").by(0, "command").cd(), seg("rm", "rm", "x").in("and").cd("/a")),
		// wrappers that run their command elsewhere
		r("pnpm -C d exec touch x", seg("pnpm", "pnpm", "-C", "d", "exec", "touch", "x").opts("-C").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "pnpm exec").cdUnknown()),
		r("pnpm exec touch x", seg("pnpm", "pnpm", "exec", "touch", "x").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "pnpm exec").cdUnknown()),
		// (the catalogue's runs_elsewhere: a login shell starts at home,
		// npm -w in the workspace, ssh on another machine)
		r("su - joe -c 'touch x'", seg("su", "su", "-", "joe", "-c", "touch x").opts("-c").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "su -c").cdUnknown()),
		r("su joe -c 'touch x'", seg("su", "su", "joe", "-c", "touch x").opts("-c").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "su -c").cd()),
		r("runuser --login joe -c 'touch x'", seg("runuser", "runuser", "--login", "joe", "-c", "touch x").opts("--login", "-c").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "runuser -c").cdUnknown()),
		r("npm exec -w a -- touch x", seg("npm", "npm", "exec", "-w", "a", "--", "touch", "x").opts("-w").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "npm exec").cdUnknown()),
		r("npm exec -- touch x", seg("npm", "npm", "exec", "--", "touch", "x").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "npm exec").cd()),
		r("ssh h touch x", seg("ssh", "ssh", "h", "touch", "x").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "ssh").cdUnknown()),
		r("yarn --cwd d exec touch x", seg("yarn", "yarn", "--cwd", "d", "exec", "touch", "x").opts("--cwd").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "yarn exec").cd("d")),
		r("parallel --wd d touch ::: x", seg("parallel", "parallel", "--wd", "d", "touch", ":::", "x").opts("--wd").twraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "parallel").cd("d")),
		r("find . -execdir touch x \\;", seg("find", "find", ".", "-execdir", "touch", "x", ";").opts("-execdir").wraps().cd(), seg("touch", "touch", "x").in("wrapper").by(0, "find -execdir").cdUnknown()),
	})
}

// A command that cannot be parsed gives an error with its position and no
// segments; the command must then be refused.
func TestParseErrorPositions(t *testing.T) {
	p := testParser(t)
	for _, tc := range []struct {
		command   string
		line, col int
		message   string
	}{
		{"echo 'unterminated", 1, 6, "reached EOF without closing quote"},
		{"echo \"unterminated", 1, 6, "reached EOF without closing quote"},
		{"echo `", 1, 6, "reached EOF without closing quote"},
		{"ls &&", 1, 4, "must be followed by a statement"},
		{"a |", 1, 3, "must be followed by a statement"},
		{"if true; then", 1, 10, "must be followed by a statement list"},
		{"f() {", 1, 5, "must be followed by a statement list"},
		{"echo $(", 1, 6, "without matching"},
		{"echo ${", 1, 8, "invalid parameter name"},
		{"((", 1, 1, "must be followed by an expression"},
		{"}", 1, 1, "can only be used to close a block"},
		{"fi", 1, 1, "can only be used to end"},
		{"ls )", 1, 4, "a command can only contain words and redirects"},
		{"case x in", 1, 1, "must end with `esac`"},
		{"for", 1, 1, "must be followed by a literal"},
		{"ls\nrm 'x", 2, 4, "reached EOF without closing quote"},
		// bash reads backslash-CR as a quoted CR and ends the command at
		// the LF; mvdan joins the lines: refused wherever it appears.
		{"ls \\\r\nrm x", 1, 4, "backslash before CR LF"},
		{"rm x; ls \\\r\n", 1, 10, "backslash before CR LF"},
		{"echo \"a\\\r\nb\"", 1, 8, "backslash before CR LF"},
		{"ls\necho \\\r\nrm x", 2, 6, "backslash before CR LF"},
		// bash joins "$" and "(" across the continuation and runs rm; the
		// parser refuses the command rather than misreading it.
		{"echo $\\\n(rm x)", 2, 1, "a command can only contain words and redirects"},
	} {
		prog := p.Parse(tc.command)
		switch {
		case prog.Error == nil:
			t.Errorf("%q: no parse error, %d segments", tc.command, len(prog.Segments))
		case prog.Segments == nil || len(prog.Segments) != 0:
			t.Errorf("%q: parse error with segments %v", tc.command, prog.Segments)
		case prog.Command != tc.command:
			t.Errorf("%q: Command is %q", tc.command, prog.Command)
		case prog.Error.Line != tc.line || prog.Error.Col != tc.col || !strings.Contains(prog.Error.Message, tc.message):
			t.Errorf("%q: error %d:%d %q, want %d:%d containing %q", tc.command,
				prog.Error.Line, prog.Error.Col, prog.Error.Message, tc.line, tc.col, tc.message)
		case !strings.HasPrefix(prog.Error.Error(), fmt.Sprintf("%d:%d: ", tc.line, tc.col)):
			t.Errorf("%q: Error() is %q", tc.command, prog.Error.Error())
		}
	}
}

// A script that cannot be parsed inside a wrapper is a finding on the
// wrapper, not a parse error of the command line.
func TestParseErrorInsideScript(t *testing.T) {
	runRows(t, []row{
		r("bash -c 'rm \"x'", seg("bash", "bash", "-c", "rm \"x").twraps().find("unsupported_syntax")),
		r("eval 'if'", seg("eval", "eval", "if").twraps().find("unsupported_syntax")),
		r("git -c alias.x='!rm \"' x", seg("git", "git", "-c", "alias.x=!rm \"", "x").twraps().find("unsupported_syntax")),
		r("GIT_SSH_COMMAND='(' git fetch", seg("git", "git", "fetch").wraps().as(av("GIT_SSH_COMMAND", "(")).find("unsupported_syntax")),
	})
}

// The JSON policies see: every list is an array, never null, and the field
// names are stable.
func TestSegmentJSON(t *testing.T) {
	p := testParser(t)
	for _, command := range []string{"ls", "x=1", "", "echo 'oops"} {
		bs, err := json.Marshal(p.Parse(command))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(bs, &doc); err != nil {
			t.Fatal(err)
		}
		if segs, ok := doc["segments"].([]any); !ok {
			t.Errorf("%q: segments is %v, want an array", command, doc["segments"])
		} else {
			for _, s := range segs {
				m := s.(map[string]any)
				for _, k := range []string{"argv", "dynamic", "options", "path", "assigns", "redirects", "writes", "context", "findings"} {
					if _, ok := m[k].([]any); !ok {
						t.Errorf("%q: %s is %v, want an array", command, k, m[k])
					}
				}
				for _, k := range []string{"id", "parent", "kind", "program", "raw_program", "path_complete", "background"} {
					if _, ok := m[k]; !ok {
						t.Errorf("%q: no %s in %s", command, k, bs)
					}
				}
			}
		}
		if _, ok := doc["parse_error"]; ok != (command == "echo 'oops") {
			t.Errorf("%q: parse_error present: %v", command, ok)
		}
	}
}

// The comparison of want_test.go notices a difference in each field it
// compares: a table row that is wrong fails.
func TestWantDetectsDifferences(t *testing.T) {
	prog := testParser(t).Parse(`A=1 sudo rm -rf "$d" > out &`)
	if prog.Error != nil || len(prog.Segments) != 2 {
		t.Fatalf("%+v", prog)
	}
	sudo := seg("sudo", "sudo", "rm", "-rf", "\"$d\"").dyn(3).bg().wraps().rd(wr(">", "out")).as(av("A", "1")).
		raw("sudo").ppath("").opts().path("sudo", "rm", "-rf").partial().writes()
	rm := seg("rm", "rm", "-rf", "\"$d\"").in("wrapper").by(0, "sudo").dyn(2).bg().opts("-f", "-r").path("rm").partial()
	for i, w := range []want{sudo, rm} {
		if got, expected, ok := compare(prog.Segments[i], w); !ok {
			t.Fatalf("segment %d:\n\t got: %s\n\twant: %s", i, got, expected)
		}
	}
	for name, w := range map[string]want{
		"kind":        asg(av("A", "1")),
		"program":     seg("rm", "sudo", "rm", "-rf", "\"$d\"").dyn(3).bg().wraps().rd(wr(">", "out")).as(av("A", "1")),
		"argv":        seg("sudo", "sudo", "rm", "-rf", "$d").dyn(3).bg().wraps().rd(wr(">", "out")).as(av("A", "1")),
		"context":     sudo.in("pipe"),
		"parent":      sudo.by(0, ""),
		"via":         sudo.by(-1, "env"),
		"dynamic":     sudo.dyn(2),
		"background":  seg("sudo", "sudo", "rm", "-rf", "\"$d\"").dyn(3).wraps().rd(wr(">", "out")).as(av("A", "1")),
		"wrapper":     seg("sudo", "sudo", "rm", "-rf", "\"$d\"").dyn(3).bg().rd(wr(">", "out")).as(av("A", "1")),
		"transparent": sudo.twraps(),
		"function":    sudo.fn(),
		"redirects":   sudo.rd(wr(">>", "out")),
		"redirect fd": sudo.rd(onFD("1", wr(">", "out"))),
		"assigns":     sudo.as(avDyn("A", "1")),
		"findings":    sudo.find("dynamic_program"),
		"raw":         sudo.raw("/usr/bin/sudo"),
		"ppath":       sudo.ppath("sudo"),
		"options":     sudo.opts("-r"),
		"path":        sudo.path("sudo", "rm"),
		"alt":         sudo.alt([]string{"sudo"}),
		"complete":    seg("sudo", "sudo", "rm", "-rf", "\"$d\"").dyn(3).bg().wraps().rd(wr(">", "out")).as(av("A", "1")).path("sudo", "rm", "-rf"),
		"writes":      sudo.writes(wd("out")),
		"chdir":       sudo.cd("/tmp"),
		"chdir unk":   sudo.cdUnknown(),
	} {
		if _, _, ok := compare(prog.Segments[0], w); ok {
			t.Errorf("%s: a wrong expectation matched: %s", name, w)
		}
	}
}
