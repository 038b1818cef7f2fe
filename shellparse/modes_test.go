package shellparse

import "testing"

// Programs with modes (cmake -E MODE): the words after the mode are read
// with the mode's description; a mode gate does not know is unprovable.
func TestSegmentsModes(t *testing.T) {
	runRows(t, []row{
		r("cmake -E env X=1 -- rm x", seg("cmake", "cmake", "-E", "env", "X=1", "--", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake").as(av("X", "1"))),
		r("cmake -E time rm x", seg("cmake", "cmake", "-E", "time", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake")),
		r("cmake -E chdir sub rm x", seg("cmake", "cmake", "-E", "chdir", "sub", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake").cd("sub")),
		r("env -C sub rm x", seg("env", "env", "-C", "sub", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env").cd("sub")),
		r("cmake -E env --frob rm x", seg("cmake", "cmake", "-E", "env", "--frob", "rm", "x").twraps().find("unknown_option")),
		r("cmake -E rm -f x", seg("cmake", "cmake", "-E", "rm", "-f", "x").writes(wd("x"))),
		r("cmake -E copy a ../b", seg("cmake", "cmake", "-E", "copy", "a", "../b").writes(wd("../b"))),
		r("cmake -E cmake_link_script x", seg("cmake", "cmake", "-E", "cmake_link_script", "x").find("unknown_option")),
		r("cmake -E $m rm x", seg("cmake", "cmake", "-E", "$m", "rm", "x").dyn(2).find("unknown_option")),
		r("cmake -E echo rm x", seg("cmake", "cmake", "-E", "echo", "rm", "x")),
		r("cmake -S . -B build", seg("cmake", "cmake", "-S", ".", "-B", "build")),
	})
}

// git reads a subcommand's abbreviated long options as the options they
// abbreviate, and the working tree or prefix it is told to write.
func TestSegmentsGitAbbreviations(t *testing.T) {
	runRows(t, []row{
		r("git config --fil f core.fsmonitor x", seg("git", "git", "config", "--fil", "f", "core.fsmonitor", "x").opts("--fil", "--file").writes(wd("f")).find("git_config_plants")),
		r("git config --fil=../o a.b c", seg("git", "git", "config", "--fil=../o", "a.b", "c").opts("--fil", "--file").writes(wd("../o"))),
		// ambiguous (--file, --fixed-value): git refuses it
		r("git config --fi f a.b c", seg("git", "git", "config", "--fi", "f", "a.b", "c").opts("--fi")),
		r("git switch --orph x", seg("git", "git", "switch", "--orph", "x").opts("--orph", "--orphan")),
		r("git rm --no-dry x", seg("git", "git", "rm", "--no-dry", "x").opts("--no-dry", "--no-dry-run")),
		r("git checkout-index --prefix=../o/ -a", seg("git", "git", "checkout-index", "--prefix=../o/", "-a").writes(wd("../o/"))),
		r("git --work-tree=.. reset --hard", seg("git", "git", "--work-tree=..", "reset", "--hard").writes(wd(".."))),
		r("git --work-tree=.. status", seg("git", "git", "--work-tree=..", "status")),
	})
}

// npm's subcommands read as npm resolves them; config set of a key that
// names a program is unprovable.
func TestSegmentsNpmNames(t *testing.T) {
	runRows(t, []row{
		r("npm exe rm x", seg("npm", "npm", "exe", "rm", "x").wraps().path("npm", "exe", "rm", "x").alt([]string{"npm", "exec", "rm", "x"}), seg("rm", "rm", "x").in("wrapper").by(0, "npm exec")),
		r("npm innit -y --init-mod=./i", seg("npm", "npm", "innit", "-y", "--init-mod=./i").find("inline_code")),
		r("npm config set script-shell ./s", seg("npm", "npm", "config", "set", "script-shell", "./s").find("inline_code")),
		r("npm c set editor=vi", seg("npm", "npm", "c", "set", "editor=vi").find("inline_code")),
		r("npm config set registry https://r.example", seg("npm", "npm", "config", "set", "registry", "https://r.example")),
		r("npm config edit --editor='rm x'", seg("npm", "npm", "config", "edit", "--editor=rm x").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "npm --editor")),
	})
}

// gdb's options are all long, with one or two dashes, abbreviated as
// getopt_long_only accepts them; one it does not know is unprovable.
func TestSegmentsGdbLongOnly(t *testing.T) {
	runRows(t, []row{
		r("gdb -batch -eval 'shell rm x'", seg("gdb", "gdb", "-batch", "-eval", "shell rm x").opts("--batch", "--eval-command").find("inline_code", "inline_code")),
		r("gdb -comm f", seg("gdb", "gdb", "-comm", "f").opts("--command").find("inline_code", "inline_code")),
		r("gdb -e prog", seg("gdb", "gdb", "-e", "prog").opts("--e")),
		r("gdb -frob x", seg("gdb", "gdb", "-frob", "x").find("unknown_option")),
		r("gdb -ea x", seg("gdb", "gdb", "-ea", "x").find("unknown_option")),
		r("gdb -q ./a.out", seg("gdb", "gdb", "-q", "./a.out").opts("--q")),
	})
}

// Option spellings: ssh -o=KEY=VALUE, find -exec$IFS, tar's dashless
// cluster, zip -TTCMD, watch -d, make MAKEFILES=.
func TestSegmentsOptionSpellings(t *testing.T) {
	runRows(t, []row{
		r("ssh -o=ProxyCommand='rm x' h", seg("ssh", "ssh", "-o=ProxyCommand=rm x", "h").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "ssh -o ProxyCommand")),
		r("find . -exec$IFS rm {} +", seg("find", "find", ".", "-exec$IFS", "rm", "{}", "+").dyn(2).find("dynamic_script", "unknown_option")),
		r("find . -name x $a", seg("find", "find", ".", "-name", "x", "$a").dyn(4).find("dynamic_script")),
		r("find $d -mtime -$n -print", seg("find", "find", "$d", "-mtime", "-$n", "-print").dyn(1, 3)),
		r("tar cIf 'rm x' t.tar .", seg("tar", "tar", "cIf", "rm x", "t.tar", ".").wraps().writes(wd("t.tar")), seg("rm", "rm", "x").in("wrapper").by(0, "tar -I")),
		r("zip -TT'rm x' z.zip f", seg("zip", "zip", "-TTrm x", "z.zip", "f").wraps(), seg("rm", "rm", "x").in("wrapper").by(0, "zip -TT")),
		r("watch -d rm x", seg("watch", "watch", "-d", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "watch")),
		r("printf x > mk; make MAKEFILES=mk", seg("printf", "printf", "x").rd(wr(">", "mk")), seg("make", "make", "MAKEFILES=mk").find("inline_code")),
	})
}

// Files the command writes and then runs: perl FILE, gawk -i NAME
// (NAME.awk), decompressors' outputs, git mv, bash --rcfile -ic, run-parts,
// sqlite3 -init.
func TestSegmentsWrittenThenRun(t *testing.T) {
	runRows(t, []row{
		r("printf x > x.pl; perl x.pl", seg("printf", "printf", "x").rd(wr(">", "x.pl")), seg("perl", "perl", "x.pl").find("inline_code")),
		r("perl /dev/stdin", seg("perl", "perl", "/dev/stdin").find("inline_code")),
		r("perl x.pl", seg("perl", "perl", "x.pl")),
		r("printf x > x.awk; gawk -i x 1", seg("printf", "printf", "x").rd(wr(">", "x.awk")), seg("gawk", "gawk", "-i", "x", "1").find("inline_code", "script_file")),
		r("gawk --exe f", seg("gawk", "gawk", "--exe", "f").find("inline_code")),
		r("gunzip Makefile.gz; make", seg("gunzip", "gunzip", "Makefile.gz").writes(wd("Makefile")), seg("make", "make").find("script_file")),
		r("xz -d -S .x m.x", seg("xz", "xz", "-d", "-S", ".x", "m.x").writes(wd("m"))),
		r("gzip big.log", seg("gzip", "gzip", "big.log")),
		r("gunzip *.gz", seg("gunzip", "gunzip", "*.gz").dyn(1)),
		r("git mv x Makefile; make", seg("git", "git", "mv", "x", "Makefile").writes(wd("Makefile")), seg("make", "make").find("script_file")),
		r("printf x > rc; bash --rcfile rc -ic true", seg("printf", "printf", "x").rd(wr(">", "rc")), seg("bash", "bash", "--rcfile", "rc", "-ic", "true").twraps().find("inline_code"), seg("true", "true").in("wrapper").by(1, "bash -c")),
		r("cp s d/x; run-parts d", seg("cp", "cp", "s", "d/x").writes(wd("d/x")), seg("run-parts", "run-parts", "d").find("script_file")),
		r("run-parts d", seg("run-parts", "run-parts", "d")),
		r("printf x > y; sqlite3 -init y", seg("printf", "printf", "x").rd(wr(">", "y")), seg("sqlite3", "sqlite3", "-init", "y").find("inline_code")),
	})
}

// Writes named by options and operands the catalogue describes.
func TestSegmentsWritesOptions(t *testing.T) {
	runRows(t, []row{
		r("/usr/bin/time -o ../t true", seg("time", "/usr/bin/time", "-o", "../t", "true").ppath("/usr/bin/time").twraps().writes(wd("../t")), seg("true", "true").in("wrapper").by(0, "time")),
		r("curl --libcurl ../x u", seg("curl", "curl", "--libcurl", "../x", "u").writes(wd("../x"))),
		r("cd .git/hooks && curl -O u", seg("cd", "cd", ".git/hooks").in("and"), seg("curl", "curl", "-O", "u").in("and").cd(".git/hooks").writes(wdDyn("the files it names at run time, in a directory inside .git or known only at run time"))),
		r("gawk -o../x 1", seg("gawk", "gawk", "-o../x", "1").writes(wd("../x"))),
		r("tar -C .. -x", seg("tar", "tar", "-C", "..", "-x").writes(wd(".."))),
		r("tar cf ../x.tar .", seg("tar", "tar", "cf", "../x.tar", ".").writes(wd("../x.tar"))),
		r("tar cf $x .", seg("tar", "tar", "cf", "$x", ".").dyn(2)),
		r("ssh-keygen -f ../k", seg("ssh-keygen", "ssh-keygen", "-f", "../k").writes(wd("../k"))),
		r("ssh-keygen -l -f ../k", seg("ssh-keygen", "ssh-keygen", "-l", "-f", "../k")),
		r("sqlite3 ../db 'select 1'", seg("sqlite3", "sqlite3", "../db", "select 1").writes(wd("../db"))),
		r("sqlite3 :memory: \"select writefile('x','y')\"", seg("sqlite3", "sqlite3", ":memory:", "select writefile('x','y')").writes(wd(":memory:")).find("inline_code")),
		r("split f ../p", seg("split", "split", "f", "../p").writes(wd("../p"))),
	})
}

// tmux's operands read as tmux commands.
func TestSegmentsTmux(t *testing.T) {
	runRows(t, []row{
		r("tmux new -d \\; run 'r\\m x'", seg("tmux", "tmux", "new", "-d", ";", "run", "r\\m x").wraps(), seg("rm", "rm", "x").raw("r\\m").in("wrapper").by(0, "tmux run-shell")),
		r("tmux send-keys -t w 'r\\m x' Enter", seg("tmux", "tmux", "send-keys", "-t", "w", "r\\m x", "Enter").wraps(), seg("rm", "rm", "x").raw("r\\m").in("wrapper").by(0, "tmux send-keys")),
		r("tmux set-hook -g after-new-window 'run x'", seg("tmux", "tmux", "set-hook", "-g", "after-new-window", "run x").find("inline_code")),
		r("tmux display -p '#(rm x)'", seg("tmux", "tmux", "display", "-p", "#(rm x)").find("dynamic_script")),
		r("tmux saveb ../o", seg("tmux", "tmux", "saveb", "../o").writes(wd("../o"))),
		r("tmux frobnicate", seg("tmux", "tmux", "frobnicate").find("unknown_option")),
		r("tmux set -g mouse on", seg("tmux", "tmux", "set", "-g", "mouse", "on")),
		r("tmux ls", seg("tmux", "tmux", "ls")),
	})
}

// More interpreters' program files, shells' start-up files, decompressors
// and extraction directories.
func TestSegmentsMoreProgramFiles(t *testing.T) {
	runRows(t, []row{
		r("printf x > x.sql; psql -f x.sql", seg("printf", "printf", "x").rd(wr(">", "x.sql")), seg("psql", "psql", "-f", "x.sql").find("inline_code")),
		r("printf x > x.exs; elixir x.exs", seg("printf", "printf", "x").rd(wr(">", "x.exs")), seg("elixir", "elixir", "x.exs").find("inline_code")),
		r("fish -C 'rm x' -c true", seg("fish", "fish", "-C", "rm x", "-c", "true").twraps().find("inline_code", "unsupported_syntax"), seg("true", "true").in("wrapper").by(0, "fish -c")),
		r("printf x > .zshenv; zsh -c true", seg("printf", "printf", "x").rd(wr(">", ".zshenv")), seg("zsh", "zsh", "-c", "true").twraps().find("inline_code", "unsupported_syntax"), seg("true", "true").in("wrapper").by(1, "zsh -c")),
		r("lz4 -d m.lz4", seg("lz4", "lz4", "-d", "m.lz4").writes(wd("m"))),
		r("7z x a.7z -o../x", seg("7z", "7z", "x", "a.7z", "-o../x").writes(wd("../x"))),
	})
}
