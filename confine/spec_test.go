package confine

import (
	"os"
	"path/filepath"
	"slices"
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
		{"protected paths in the root", Spec{Root: root, ReadOnly: []string{".git/hooks/", ".git/config"}}, true,
			[]string{root + "/.git/config", root + "/.git/hooks"}, []string{root, root + "/.git"}, ""},
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
