package fstools

import (
	"os/exec"
	"testing"
)

// rgPath returns the ripgrep binary, skipping the test where there is none
// (.ci/run installs it).
func rgPath(t testing.TB) string {
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not installed")
	}
	return p
}

var grepTree = map[string]string{
	"fileA.txt":             "hello world\nsecond line with world\n",
	"sub/fileC.txt":         "another WORLD in sub dir\r\n",
	"sub/x.log":             "world log\n",
	".gitignore":            "*.log\nignored/\n",
	"ignored/i.txt":         "world\n",
	".hidden/h.txt":         "hidden world\n",
	".git/config":           "world\n",
	"node_modules/m.js":     "world\n",
	"bin.dat":               "world\x00binary\n",
	"code/a.go":             "package a // world\n",
	"code/b.js":             "// world\n",
	"code/deep/c.go":        "var world = 1\n",
	".qwenignore":           "code/deep/\n",
	"sub/nested/.gitignore": "*.md\n",
	"sub/nested/n.md":       "world\n",
	"sub/nested/n.txt":      "world\n",
}

func TestGrep(t *testing.T) {
	cases := []toolCase{
		{"basic", args("pattern", "world"), "Found 7 matches for pattern \"world\" in the workspace directory:\n---\n" +
			".hidden/h.txt:1:hidden world\ncode/a.go:1:package a // world\ncode/b.js:1:// world\nfileA.txt:1:hello world\n" +
			"fileA.txt:2:second line with world\nsub/fileC.txt:1:another WORLD in sub dir\nsub/nested/n.txt:1:world", "Found 7 matches", ""},
		{"in path", args("pattern", "world", "path", "sub"), "Found 2 matches for pattern \"world\" in path \"sub\":\n---\nfileC.txt:1:another WORLD in sub dir\nnested/n.txt:1:world", "Found 2 matches", ""},
		{"one file", args("pattern", "second", "path", "fileA.txt"), "Found 1 match for pattern \"second\" in path \"fileA.txt\":\n---\nfileA.txt:2:second line with world", "Found 1 match", ""},
		{"glob", args("pattern", "world", "glob", "*.go"), "Found 1 match for pattern \"world\" in the workspace directory (filter: \"*.go\"):\n---\ncode/a.go:1:package a // world", "", ""},
		{"path glob", args("pattern", "world", "glob", "code/*.js"), "~code/b.js:1:// world", "Found 1 match", ""},
		{"regex", args("pattern", `^h\w+ w`), "~.hidden/h.txt:1:hidden world\nfileA.txt:1:hello world", "Found 2 matches", ""},
		{"limit", args("pattern", "world", "limit", 2.0), "~---\n[5 lines truncated] ...", "Found 7 matches (truncated)", ""},
		{"git-ignore off", args("pattern", "world log", "respect_git_ignore", false), "~sub/x.log:1:world log", "Found 1 match", ""},
		{"no match", args("pattern", "absent"), "No matches found for pattern \"absent\" in the workspace directory.", "No matches found", ""},
		{"no match filtered", args("pattern", "absent", "glob", "*.go"), "No matches found for pattern \"absent\" in the workspace directory (filter: \"*.go\").", "", ""},
		{"bad regex", args("pattern", "a("), "~Invalid regular expression pattern: a(. Error:", "", "arg:pattern"},
		{"zero limit", args("pattern", "a", "limit", 0.0), "limit must be a positive integer", "", "arg:limit"},
		{"outside", args("pattern", "a", "path", "../"), "", "", "arg:path"},
		{"missing path", args("pattern", "a", "path", "nope"), "~Path does not exist", "", "arg:path"},
	}
	t.Run("go", func(t *testing.T) { runToolCases(t, newFS(t, files(t, grepTree), WithRipgrep("")), ToolGrep, cases) })
	t.Run("rg", func(t *testing.T) {
		runToolCases(t, newFS(t, files(t, grepTree), WithRipgrep(rgPath(t))), ToolGrep, cases)
	})
}

// TestGrepSameWithAndWithoutRipgrep runs many searches over one tree with
// both searches and compares their whole output.
func TestGrepSameWithAndWithoutRipgrep(t *testing.T) {
	root := files(t, grepTree)
	rg := newFS(t, root, WithRipgrep(rgPath(t)))
	goSearch := newFS(t, root, WithRipgrep(""))
	for _, a := range []map[string]any{
		args("pattern", "world"), args("pattern", "WORLD", "path", "sub"), args("pattern", "o"), args("pattern", "[a-z]+ [a-z]+"),
		args("pattern", "world", "glob", "*.txt"), args("pattern", "world", "glob", "**/*.go"), args("pattern", "^$"),
		args("pattern", "world", "respect_git_ignore", false), args("pattern", `\d`), args("pattern", "line", "path", "fileA.txt"),
	} {
		r1, err1 := rg.Grep(a)
		r2, err2 := goSearch.Grep(a)
		if (err1 == nil) != (err2 == nil) || (err1 == nil && (r1.Content != r2.Content || r1.Display != r2.Display)) {
			t.Errorf("%v:\nrg: %v\n%+v\ngo: %v\n%+v", a, err1, r1, err2, r2)
		}
	}
}
