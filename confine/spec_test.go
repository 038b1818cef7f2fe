package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMakePlan checks what Apply would mount, from small specs on a real
// tree: binds only under writable paths (unless Landlock is missing), pins
// from the writable tree's top down to each protected path, never "/".
func TestMakePlan(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws")
	t.Setenv("TMPDIR", base+"/tmp") // else the temp dir would hold the root
	for _, d := range []string{base + "/tmp", root + "/.git/hooks", root + "/sub/.git/hooks", base + "/etc"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(root+"/.git/config", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		spec      Spec
		landlock  bool
		binds     []string
		pins      []string
		unprotect string
	}{
		// (.git/ entries apply to the repositories inside the root too:
		// sub/.git/hooks, not its missing config)
		{"protected paths in the root", Spec{Root: root, ReadOnly: []string{".git/hooks/", ".git/config"}}, true,
			[]string{root + "/.git/config", root + "/.git/hooks", root + "/sub/.git/hooks"}, []string{root, root + "/.git", root + "/sub", root + "/sub/.git"}, ""},
		{"nested repository", Spec{Root: root, ReadOnly: []string{"sub/.git/hooks/"}}, true,
			[]string{root + "/sub/.git/hooks"}, []string{root, root + "/sub", root + "/sub/.git"}, ""},
		{"outside every writable path: Landlock alone", Spec{Root: root, ReadOnly: []string{base + "/etc/"}}, true,
			nil, nil, ""},
		{"outside, without Landlock: mounted", Spec{Root: root, ReadOnly: []string{base + "/etc/"}}, false,
			[]string{base + "/etc"}, nil, ""},
		{"a writable parent pins from its top", Spec{Root: root, Writable: []string{base}, ReadOnly: []string{".git/config"}}, true,
			[]string{root + "/.git/config"}, []string{base, root, root + "/.git"}, ""},
		{"everything writable never pins /", Spec{Root: root, Writable: []string{"/"}, ReadOnly: []string{".git/config"}}, true,
			[]string{root + "/.git/config"}, nil, ""},
		{"missing path is reported, not created", Spec{Root: root, ReadOnly: []string{".claude/"}}, true,
			nil, nil, ".claude/: does not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := makePlan(tc.spec, tc.landlock)
			if err != nil {
				t.Fatal(err)
			}
			var binds []string
			for _, r := range p.readOnly {
				if r.bind {
					binds = append(binds, r.path)
				}
			}
			if !slices.Equal(binds, tc.binds) {
				t.Errorf("binds = %v, want %v", binds, tc.binds)
			}
			pins := p.pins
			if tc.spec.Writable != nil && tc.spec.Writable[0] == "/" {
				if slices.Contains(pins, "/") {
					t.Errorf("pins hold /: %v", pins)
				}
			} else if !slices.Equal(pins, tc.pins) {
				t.Errorf("pins = %v, want %v", pins, tc.pins)
			}
			if got := strings.Join(p.unprotected, "\n"); !strings.Contains(got, tc.unprotect) || (tc.unprotect == "") != (got == "") {
				t.Errorf("unprotected = %q, want %q", got, tc.unprotect)
			}
			if _, err := os.Stat(root + "/.claude"); err == nil {
				t.Errorf("makePlan created .claude")
			}
		})
	}
}

// TestNestedGitEntries: the entries under .git/ apply to the repositories
// inside the root (work trees with a .git directory, submodules' git
// directories under .git/modules), within the walk's bounds.
func TestNestedGitEntries(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".git/hooks", "a/.git/hooks", "b/c/.git", ".git/modules/m/hooks", ".git/modules/m/modules/n/refs", "d/e/f/g/h/i/.git", "link-target/.git"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/modules/m/HEAD", ".git/modules/m/modules/n/HEAD"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "link-target"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	got, truncated := nestedGitEntries(root, []string{".git/hooks/", ".git/config", ".qwen/settings.json"})
	want := []string{
		filepath.Join(root, "a/.git/hooks"), filepath.Join(root, "a/.git/config"),
		filepath.Join(root, "b/c/.git/hooks"), filepath.Join(root, "b/c/.git/config"),
		filepath.Join(root, "link-target/.git/hooks"), filepath.Join(root, "link-target/.git/config"),
		filepath.Join(root, ".git/modules/m/hooks"), filepath.Join(root, ".git/modules/m/config"),
		filepath.Join(root, ".git/modules/m/modules/n/hooks"), filepath.Join(root, ".git/modules/m/modules/n/config"),
	}
	slices.Sort(got)
	slices.Sort(want)
	// d/e/f/g/h/i is deeper than the walk goes; link is a symlink
	if !slices.Equal(got, want) || truncated != "" {
		t.Errorf("got %v %q, want %v", got, truncated, want)
	}
	if got, _ := nestedGitEntries(root, []string{".qwen/settings.json"}); got != nil {
		t.Errorf("no .git/ entry, got %v", got)
	}
	for i := range maxNestedRepos + 1 {
		if err := os.MkdirAll(filepath.Join(root, "many", strconv.Itoa(i), ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, truncated := nestedGitEntries(root, []string{".git/config"}); truncated == "" {
		t.Errorf("more than %d repositories, and no warning", maxNestedRepos)
	}
}
