package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingProgram: a program file that does not exist when the command
// is decided is unprovable when a part of the command that may run first
// may create it under a name gate does not see (tar, cp -r, a program file),
// and not otherwise. Each case also runs in real bash in a fresh root
// holding a tar archive (x, a copy of rm; s, a script running rm) and a
// directory d with copies of rm (x) and cp (c): the denied commands do
// delete victim.txt, the allowed ones cannot.
func TestMissingProgram(t *testing.T) {
	rm, err := exec.LookPath("rm")
	if err != nil {
		t.Skip("no rm on PATH")
	}
	for _, tc := range []struct {
		command string
		deny    bool
	}{
		{"tar xf t.tar && ./x victim.txt", true},
		{"cp -r d e && ./e/x victim.txt", true},
		{"tar xf t.tar; bash s victim.txt", true},
		{"./x victim.txt $(tar xf t.tar)", true},
		{"f() { ./x victim.txt; }; tar xf t.tar; f", true},
		{"for i in 1 2; do ./x victim.txt; tar xf t.tar; done", true},
		{"tar xf t.tar & sleep 1; ./x victim.txt", true},
		{"d/c -r d e; ./e/x victim.txt", true}, // a program file (here cp) may create anything
		// Nothing that may run first creates files gate does not see: the
		// program fails to start.
		{"./x victim.txt", false},
		{"mkdir -p out && echo start && ./x victim.txt", false},
		{"./x victim.txt && tar xf t.tar", false},
		{"./x; ./x victim.txt", false}, // the first one never starts either
		{"./y || ./x victim.txt", false},
		{"./y; tar xf t.tar; ./x victim.txt", true},
		{"./y; d/c d/x .; ./x victim.txt", true}, // d/c exists (a copy of cp): it may create anything
		{"cd out 2>/dev/null && bash s victim.txt", false},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, `mkdir src d; cp "$1" src/x; cp "$1" d/x; cp "$(command -v cp)" d/c; printf 'rm "$1"\n' > src/s; tar cf t.tar -C src x s; rm -r src; echo v > victim.txt`, rm)
			d := r.decide(tc.command)
			if tc.deny && (d.Decision != Deny || !hasCode(d, CodeCommandUnprovable)) {
				t.Errorf("decision %+v, want command_unprovable", d)
			}
			if !tc.deny && d.Decision != Allow {
				t.Errorf("decision %+v, want allow", d)
			}
			r.run(tc.command)
			if deleted := !r.exists("victim.txt"); deleted != tc.deny {
				t.Errorf("victim.txt deleted: %v, want %v", deleted, tc.deny)
			}
		})
	}
}

// TestInlineImports: a python3 one-liner proven inert that imports modules
// is unprovable when a part of the command that may run first writes or
// may create a file, which python3 -c would import from the current
// directory instead. Each case runs in real bash: the denied ones delete
// victim.txt through a planted json.py.
func TestInlineImports(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH")
	}
	plant := `import os; os.remove("victim.txt"); dumps = str`
	for _, tc := range []struct {
		command string
		deny    bool
		pre     string // shell run in the root before the decision; $1 is plant
	}{
		// A module or package already in the directory is imported before
		// the standard library's.
		{"python3 -c 'import json; print(json.dumps(1))'", true, `printf '%s\n' "$1" > json.py`},
		{"python3 -c 'import json; print(json.dumps(1))'", true, `mkdir json; printf '%s\n' "$1" > json/__init__.py`},
		{"python3 -c 'import json; print(json.dumps(1))'", true, `mkdir lib; printf '%s\n' "$1" > lib/json.py; ln -s lib/json.py json.py`},
		{"python3 - <<'EOF'\nimport json\nprint(json.dumps(1))\nEOF", true, `printf '%s\n' "$1" > json.py`},
		{"python3 -c 'import json; print(json.dumps(1))'", false, `mkdir docs src; echo x > notes.txt; echo 'x' > src/json.py; printf '%s\n' "$1" > setup.py`},
		{"python3 -c 'import json; print(json.dumps(1))'", true, `mkdir lib; printf '%s\n' "$1" > lib/__init__.py; cp -r lib json`},
		{"echo '" + plant + "' > json.py; python3 -c 'import json; print(json.dumps(1))'", true, ""},
		{"printf '%s' '" + plant + "' | tee json.py >/dev/null && python3 -c 'import json; print(json.dumps(1))'", true, ""},
		{"tar xf t.tar && python3 -c 'import json; print(json.dumps(1))'", true, ""},
		{"echo '" + plant + "' > JSON.PY; mv JSON.PY json.py; python3 -c 'import json; print(json.dumps(1))'", true, ""},
		{"printf '%s' '" + plant + "' | tee json.pyc json.py >/dev/null; python3 -c 'import json'", true, ""},
		{"echo '{\"a\": 1}' > data.json && python3 -c 'import json; print(json.load(open(\"data.json\"))[\"a\"])'", false, ""},
		{"python3 - <<'EOF'\nimport os; os.remove('victim.txt')\nEOF", true, ""},
		{"python3 -c 'import json; print(json.dumps(1))' > out.txt", false, ""},
		{"python3 -c 'import json; print(json.dumps(1))' && echo '" + plant + "' > json.py", false, ""},
		{"python3 -c 'print(len(\"abc\"))'", false, ""},
		{"python3 - <<'EOF'\nimport sys\nprint(sys.version)\nEOF", false, ""},
		{"echo '{\"a\": 1}' | python3 -c 'import json, sys; print(json.load(sys.stdin)[\"a\"])'", false, ""},
		// Built-in modules are found before any file: a sys.py or time.py
		// the command writes is never imported for them.
		{"echo '" + plant + "' > sys.py; python3 -c 'import sys; print(sys.version)'", false, ""},
		{"echo '" + plant + "' > time.py; python3 -c 'from time import time; print(time())'", false, ""},
		{"tar xf t.tar && python3 -c 'import sys as s, time; print(s.version, time.time())'", false, ""},
		{"echo '" + plant + "' > json.py; python3 -c 'import sys, json; print(json.dumps(1))'", true, ""},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, `mkdir src; printf '%s\n' "$1" > src/json.py; tar cf t.tar -C src json.py; rm -r src; echo v > victim.txt; `+tc.pre, plant)
			d := r.decide(tc.command)
			if tc.deny && (d.Decision != Deny || !hasCode(d, CodeCommandUnprovable)) {
				t.Errorf("decision %+v, want command_unprovable", d)
			}
			if !tc.deny && d.Decision != Allow {
				t.Errorf("decision %+v, want allow", d)
			}
			r.run(tc.command)
			if deleted := !r.exists("victim.txt"); deleted != tc.deny {
				t.Errorf("victim.txt deleted: %v, want %v", deleted, tc.deny)
			}
		})
	}
}

// TestWrittenScript: a script the command writes from a literal
// here-document and then runs (bash x.sh, source x.sh, ./x.sh, python3
// x.py) is judged by that content, unless the file may be written again or
// rewritten by a part of the command that may run first, or its first line
// names an interpreter gate does not read. Each case runs in real bash in a
// root holding t.tar (x.sh, a script running rm): harm says whether the
// command deletes victim.txt.
func TestWrittenScript(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH")
	}
	const rmScript = "cat <<'EOF' > x.sh\nrm victim.txt\nEOF\n"
	const echoScript = "cat <<'EOF' > x.sh\necho hi\nEOF\n"
	for _, tc := range []struct {
		command string
		want    string
		code    Code
		harm    bool
	}{
		{rmScript + "bash x.sh", Deny, CodeCommandExcluded, true},
		{rmScript + "chmod +x x.sh && ./x.sh", Deny, CodeCommandExcluded, true},
		{"cat <<'EOF' > s.sh\nrm victim.txt\nEOF\nsource s.sh", Deny, CodeCommandExcluded, true},
		{echoScript + "echo 'rm victim.txt' >> x.sh; bash x.sh", Deny, CodeCommandUnprovable, true},
		{echoScript + "tar xf t.tar; bash x.sh", Deny, CodeCommandUnprovable, true},
		{echoScript + "bash x.sh; tar xf t.tar; bash x.sh", Deny, CodeCommandUnprovable, true},
		{"cat <<'EOF' > x.py\nimport os\nos.remove('victim.txt')\nEOF\npython3 x.py", Deny, CodeCommandUnprovable, true},
		{"cat <<'EOF' > x.sh\n#!/usr/bin/env python3\nimport os\nos.remove('victim.txt')\nEOF\nchmod +x x.sh; ./x.sh", Deny, CodeCommandUnprovable, true},
		{"cat <<'EOF' > x.sh\n#!/usr/bin/perl\nunlink 'victim.txt'\nEOF\nchmod +x x.sh; ./x.sh", Deny, CodeCommandUnprovable, true},
		{"mkdir sub; " + rmScript + "cd sub; bash x.sh", Deny, CodeCommandUnprovable, false},
		{echoScript + "bash x.sh", Allow, "", false},
		{echoScript + "chmod +x x.sh && ./x.sh && ./x.sh", Allow, "", false},
		{"cat <<'EOF' > x.sh\n#!/bin/bash\nfor i in 1 2; do echo \"$i\"; done\nEOF\nchmod +x x.sh; ./x.sh", Allow, "", false},
		{"cat <<'EOF' > x.py\nprint(1)\nEOF\npython3 x.py", Allow, "", false},
		// An existing file is trusted only when the write surely lands in
		// it: a plain regular file this process may write.
		{"cat <<'EOF' > old.sh\necho hi\nEOF\nbash old.sh", Allow, "", false},
		{"cat <<'EOF' > link.sh\necho hi\nEOF\n./link.sh victim.txt", Deny, CodeCommandUnprovable, os.Geteuid() != 0},
		// A read-only file: root writes it anyway.
		{"cat <<'EOF' > ro.sh\necho hi\nEOF\n./ro.sh victim.txt", map[bool]string{true: Allow, false: Deny}[os.Geteuid() == 0], map[bool]Code{true: "", false: CodeCommandUnprovable}[os.Geteuid() == 0], os.Geteuid() != 0},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, `mkdir src d; printf 'rm victim.txt\n' > src/x.sh; tar cf t.tar -C src x.sh; rm -r src; echo v > victim.txt; echo 'echo old' > old.sh; cp "$(command -v rm)" d/x; chmod 555 d/x; ln -s d/x link.sh; cp d/x ro.sh; chmod 555 ro.sh`)
			d := r.decide(tc.command)
			if d.Decision != tc.want || tc.code != "" && !hasCode(d, tc.code) {
				t.Errorf("decision %+v, want %s %s", d, tc.want, tc.code)
			}
			r.run(tc.command)
			if deleted := !r.exists("victim.txt"); deleted != tc.harm {
				t.Errorf("victim.txt deleted: %v, want %v", deleted, tc.harm)
			}
		})
	}
}

// TestGitCleanDryRun: git clean -n only lists what it would remove and is
// allowed under an rm exclude; with -e, whose value may be the -n, it asks.
// Each case runs in a real git repository: harm says whether the untracked
// file is removed.
func TestGitCleanDryRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	for _, tc := range []struct {
		command string
		want    string
		harm    bool
	}{
		{"git clean -n", Allow, false},
		{"git clean --dry-run -d", Allow, false},
		{"git clean -nf", Allow, false},
		{"git clean -f", Ask, true},
		{"git clean -f -e -n", Ask, true},
		{"git clean -f --exclude=-n", Ask, true},
		{"git clean -f -- -n .", Ask, true},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "git init -q . && echo v > victim.txt")
			if d := r.decide(tc.command); d.Decision != tc.want {
				t.Errorf("decision %+v, want %s", d, tc.want)
			}
			r.run(tc.command)
			if removed := !r.exists("victim.txt"); removed != tc.harm {
				t.Errorf("victim.txt removed: %v, want %v", removed, tc.harm)
			}
		})
	}
}

// TestGitConfigReads: git config given an alias or command key alone reads
// it and --unset removes it, which plants nothing; with a value, or options
// that write, it still asks (writing a protected file named by -f denies). Each case runs in a real repository: harm says
// whether .git/config gains the key.
func TestGitConfigReads(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	for _, tc := range []struct {
		command string
		want    string
		harm    bool
	}{
		{"git config alias.st", Allow, false},
		{"git config --local --unset alias.st", Allow, false},
		{"git config --get core.pager", Allow, false},
		{"git config alias.st '!touch ran'", Ask, true},
		{"git config --add alias.st '!touch ran'", Ask, true},
		// -f names the file written: .git/config is protected
		{"git config -f .git/config alias.st '!touch ran'", Deny, true},
		{"git config --local core.pager 'touch ran'", Ask, true},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "git init -q .")
			config := filepath.Join(r.root, ".git", "config")
			before, err := os.ReadFile(config)
			if err != nil {
				t.Fatal(err)
			}
			if d := r.decide(tc.command); d.Decision != tc.want {
				t.Errorf("decision %+v, want %s", d, tc.want)
			}
			r.run(tc.command, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			after, err := os.ReadFile(config)
			if err != nil {
				t.Fatal(err)
			}
			if changed := string(after) != string(before); changed != tc.harm {
				t.Errorf(".git/config changed: %v, want %v", changed, tc.harm)
			}
		})
	}
}

// TestPythonStdlibNames: every module of the python3 on PATH's standard
// library is in pythonStdlib (a newer Python adds modules: regenerate
// pystdlib.go), so a file shadowing one is seen.
func TestPythonStdlibNames(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("SKIPPED: no python3 on PATH to compare pystdlib.go with")
	}
	out, err := exec.Command("python3", "-c", "import sys; print(*sorted(sys.stdlib_module_names))").Output()
	if err != nil {
		t.Fatalf("python3 has no sys.stdlib_module_names (before 3.10?): %v", err)
	}
	for _, name := range strings.Fields(string(out)) {
		if !pythonStdlib[name] {
			t.Errorf("python3's standard module %s is not in pythonStdlib: regenerate engine/pystdlib.go", name)
		}
	}
}
