package supervise

import (
	"slices"
	"testing"
)

func TestParseCmdline(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"ls\x00", []string{"ls"}},
		{"ls\x00-l\x00\x00x\x00", []string{"ls", "-l", "", "x"}},
		{"cut", []string{"cut"}}, // truncated read: no final NUL
	} {
		if got := parseCmdline([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseShebang(t *testing.T) {
	for _, c := range []struct {
		in, interp, arg string
		ok              bool
	}{
		{"#!/bin/sh\necho", "/bin/sh", "", true},
		{"#! /usr/bin/env  python3 -u \nx", "/usr/bin/env", "python3 -u", true},
		{"#!\t/bin/bash\t-e\n", "/bin/bash", "-e", true},
		{"#!\n", "", "", false},
		{"echo\n", "", "", false},
		{"", "", "", false},
	} {
		interp, arg, ok := parseShebang([]byte(c.in))
		if interp != c.interp || arg != c.arg || ok != c.ok {
			t.Errorf("%q: %q %q %v", c.in, interp, arg, ok)
		}
	}
}

func TestScriptOf(t *testing.T) {
	files := map[string]string{
		"./x.py":   "#!/usr/bin/python3\nimport os\n",
		"./e.sh":   "#!/bin/sh -e\n",
		"/p/y":     "#!/bin/bash\n",
		"x.sh":     "#!/p/y\n",
		"data":     "plain",
		"./env.py": "#!/usr/bin/env python3\n",
	}
	head := func(name string) []byte {
		if s, ok := files[name]; ok {
			return []byte(s)
		}
		return nil
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"/usr/bin/python3", "./x.py", "a"}, "./x.py"},
		{[]string{"/bin/sh", "-e", "./e.sh"}, "./e.sh"},
		{[]string{"/bin/sh", "./e.sh"}, ""}, // the #! line has an argument
		{[]string{"python3", "./x.py"}, ""}, // python3 run by name on a file: not the kernel's shape
		{[]string{"/bin/bash", "/p/y", "x.sh", "arg"}, "x.sh"},
		{[]string{"/usr/bin/env", "python3", "./env.py"}, "./env.py"},
		{[]string{"/bin/cat", "data"}, ""},
		{[]string{"/bin/ls"}, ""},
		{[]string{}, ""},
	} {
		if got := scriptOf(c.argv, head); got != c.want {
			t.Errorf("%q: %q, want %q", c.argv, got, c.want)
		}
	}
}

func TestLoader(t *testing.T) {
	for _, exe := range []string{"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1", "/lib/ld-musl-x86_64.so.1", "/lib/ld.so"} {
		if !isLoader(exe) {
			t.Errorf("%s is the loader", exe)
		}
	}
	for _, exe := range []string{"/usr/bin/ld", "/usr/bin/ld.gold", "/usr/bin/bash"} {
		if isLoader(exe) {
			t.Errorf("%s is not the loader", exe)
		}
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"ld.so", "/bin/rm", "x"}, "/bin/rm"},
		{[]string{"ld.so", "--library-path", "/lib", "--inhibit-cache", "--argv0", "ls", "./rm"}, "./rm"},
		{[]string{"ld.so", "--preload", "x.so", "--audit", "a.so", "rm"}, "rm"},
		{[]string{"ld.so", "--help"}, ""},
		{[]string{"ld.so", "--weird", "x"}, "--weird"},
	} {
		if got := loadedProgram(c.argv); got != c.want {
			t.Errorf("%q: %q, want %q", c.argv, got, c.want)
		}
	}
}

func TestProgram(t *testing.T) {
	if program("/usr/bin/python3", "/w/x.py", "") != "/w/x.py" || program("/lib/ld.so", "", "/bin/rm") != "/bin/rm" || program("/bin/ls", "", "") != "/bin/ls" {
		t.Error("program identity")
	}
	if resolve("/w", "./a/../b") != "/w/b" || resolve("/w", "/x//y") != "/x/y" || resolve("", "a") != "a" {
		t.Error("resolve")
	}
}
