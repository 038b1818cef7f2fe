package engine

import (
	"path/filepath"
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
