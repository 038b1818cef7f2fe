package shellparse

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// argvCases are argvs of programs about to run: plain words, wrappers whose
// commands are unwrapped, shells given scripts, and words with shell syntax
// in them, which are literal text in an argv.
var argvCases = [][]string{
	{"cc", "-O2", "-c", "-o", "x.o", "x.c"},
	{"/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-imultiarch", "x86_64-linux-gnu", "x.c", "-o", "/tmp/cc.s"},
	{"env", "FOO=1", "rm", "-rf", "build"},
	{"sudo", "-u", "root", "rm", "x"},
	{"sh", "-c", "echo $(rm x) && git push origin main"},
	{"bash", "-c", "cd d; make clean", "argv0"},
	{"git", "-c", "alias.x=!rm v", "x"},
	{"git", "-C", "src", "push", "--force"},
	{"find", ".", "-name", "*.o", "-exec", "rm", "{}", ";"},
	{"xargs", "-0", "rm"},
	{"python3", "-c", "import os; os.remove('v')"},
	{"mytool", "--cmd=rm -rf x", "rm", "v"},
	{"ls", "*.c", "~", "~/x", "$HOME", "", "--", "a b", "it's", "new\nline", "`id`", "{a,b}", "!x"},
	{"timeout", "5", "nice", "-n", "5", "rm", "x"},
	{"rm"},
}

// ParseArgv reads an argv as Parse reads its words quoted and joined.
func TestParseArgvMatchesParse(t *testing.T) {
	for _, p := range []*Parser{testParser(t), func() *Parser {
		c, err := defaultCatalogue()
		if err != nil {
			t.Fatal(err)
		}
		return NewParser(c, WithHome("/home/u"), ForExec())
	}()} {
		for _, argv := range argvCases {
			checkArgv(t, p, argv)
		}
	}
}

func checkArgv(t *testing.T, p *Parser, argv []string) {
	t.Helper()
	quoted := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			if got := p.ParseArgv(context.Background(), argv); got.Error == nil {
				t.Fatalf("%q: word %d cannot be quoted (%v), ParseArgv gave no error", argv, i, err)
			}
			return
		}
		quoted[i] = q
	}
	want := p.Parse(strings.Join(quoted, " "))
	got := p.ParseArgv(context.Background(), argv)
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Fatalf("%q:\nParseArgv %s\nParse     %s", argv, gj, wj)
	}
}

// FuzzParseArgv checks that ParseArgv and Parse of the quoted words agree
// on arbitrary argvs (words split at NUL bytes of the input).
// Seeds are in testdata/fuzz/FuzzParseArgv.
func FuzzParseArgv(f *testing.F) {
	for _, argv := range argvCases {
		f.Add(strings.Join(argv, "\x00"))
	}
	p := testParser(f)
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		checkArgv(t, p, strings.Split(s, "\x00"))
	})
}
