package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A git configuration file is read as git reads it for the paths that
// name hooks or more configuration.
func TestParseGitConfigPaths(t *testing.T) {
	for _, tc := range []struct {
		text            string
		hooks, includes []string
	}{
		{"[core]\n\thooksPath = .githooks\n", []string{".githooks"}, nil},
		{"[CORE]\n\tHooksPath=\"hooks dir\" ; comment\n", []string{"hooks dir"}, nil},
		{"[core] hookspath = a\n", []string{"a"}, nil},
		{"[include]\n\tpath = ../x.cfg\n[includeIf \"gitdir:/w/\"]\n\tpath = y.cfg\n", nil, []string{"../x.cfg", "y.cfg"}},
		{"[include.sub]\n\tpath = not-an-include\n[remote \"o\"]\n\tpath = no\n", nil, nil},
		{"[core]\n\tfsmonitor = x # hooksPath = no\n", nil, nil},
		{"[alias]\n\thooksPath = no\n", nil, nil},
		{"\ufeff[core]\n\thooksPath = bom\n", []string{"bom"}, nil},
		{"[core]\n\thooksPath = hoo\\\nks\n", []string{"hooks"}, nil},
	} {
		f := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(f, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		hooks, includes := parseGitConfigPaths(f)
		if !slices.Equal(hooks, tc.hooks) || !slices.Equal(includes, tc.includes) {
			t.Errorf("%q: hooks %q includes %q, want %q %q", tc.text, hooks, includes, tc.hooks, tc.includes)
		}
	}
}
