package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGlobBase: the directory a glob pattern can reach above its search
// directory, including through ".." after a pattern character ("**" may
// match no directory, another pattern segment one).
func TestGlobBase(t *testing.T) {
	for pat, want := range map[string]string{
		"**/*.go":                   "",
		"src/**/*.ts":               "src",
		"../*":                      "..",
		"/etc/*":                    "/etc",
		"**/../../outside/*":        "../..",
		"**/..":                     "..",
		"src/*/../../../outside/*":  "..",
		"{a,b}/../../x":             "..",
		"docs/*/../*.md":            "docs",
		"**/node_modules/../*.json": "",
	} {
		if got := globBase(pat); got != filepath.FromSlash(want) {
			t.Errorf("globBase(%q) = %q, want %q", pat, got, want)
		}
	}
}

// TestGlobBases: braces and bracket expressions of dots (rt36: node's
// glob listed files outside the root for each of these).
func TestGlobBases(t *testing.T) {
	for pat, want := range map[string][]string{
		"{../../outside,src}/*":                  {"../..", "src"},
		"{/etc,src}/pass*":                       {"/etc", "src"},
		"..{,}/..{,}/outside/*":                  {"../.."},
		"[.][.]/[.][.]/outside/*":                {"../.."},
		"src/{a,b}/*.go":                         {"src/a", "src/b"},
		"**/*.{ts,tsx}":                          nil,
		"{" + strings.Repeat("a,", 300) + "b}/*": {"/"},
	} {
		got := globBases(pat)
		for i := range want {
			want[i] = filepath.FromSlash(want[i])
		}
		if !slices.Equal(got, want) {
			t.Errorf("globBases(%q) = %q, want %q", pat, got, want)
		}
	}
}

// TestGlobOutsideRootDenied: the glob calls rt36 made an agent's own glob
// list files outside the root with are decided deny, and neighbours that
// stay inside are allowed.
func TestGlobOutsideRootDenied(t *testing.T) {
	e := newTestEngine(t, Settings{})
	for pat, allow := range map[string]bool{
		"{../../outside,src}/*":   false,
		"{/etc,src}/pass*":        false,
		"..{,}/..{,}/outside/*":   false,
		"[.][.]/[.][.]/outside/*": false,
		"src/**/*.{ts,tsx}":       true,
		"[a-z]*.md":               true,
	} {
		d, err := e.Decide(t.Context(), Call{Tool: ToolGlob, Args: map[string]any{"pattern": pat}})
		if err != nil || (d.Decision == Allow) != allow {
			t.Errorf("glob %q: %+v %v, want allowed %v", pat, d, err, allow)
		}
	}
}
