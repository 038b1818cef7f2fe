package fstools

import (
	"os"
	"path/filepath"
	"testing"
)

// tree builds base/ws/proj (the root), base/ws/proj-evil and base/outside
// with the links the cases use, and returns base and the resolver.
func tree(t *testing.T) (string, *Resolver) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws", "proj")
	for _, d := range []string{"ws/proj/src", "ws/proj-evil", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"ws/proj/src/a.go": "package a", "outside/secret": "x"} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"ws/proj/out":      filepath.Join(base, "outside"),
		"ws/proj/rel-out":  "../../outside/secret",
		"ws/proj/in":       "src",
		"ws/proj/dangling": filepath.Join(base, "outside", "not-yet"),
		"ws/proj/loop":     "loop",
		"ws/proj/up":       "src/..",
		"ws/proj/src/back": "../..",
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := NewResolver(root)
	if err != nil {
		t.Fatal(err)
	}
	return base, r
}

func TestResolve(t *testing.T) {
	base, r := tree(t)
	root := r.Root()
	for _, tc := range []struct {
		path     string
		resolved string // relative to base
		inside   bool
		exists   bool
		symlink  bool
	}{
		{"src/a.go", "ws/proj/src/a.go", true, true, false},
		{".", "ws/proj", true, true, false},
		{"new/file", "ws/proj/new/file", true, false, false},
		{"..", "ws", false, true, false},
		{"../proj-evil/x", "ws/proj-evil/x", false, false, false},
		{filepath.Join(base, "ws/proj-evil"), "ws/proj-evil", false, true, false},
		{"src/../../proj-evil", "ws/proj-evil", false, true, false},
		{"out/secret", "outside/secret", false, true, true},
		{"rel-out", "outside/secret", false, true, true},
		{"in/a.go", "ws/proj/src/a.go", true, true, true},
		{"dangling", "outside/not-yet", false, false, true},
		{"up/src/a.go", "ws/proj/src/a.go", true, true, true},
		{"src/back/../outside/secret", "outside/secret", false, true, true},
		{"src/back/proj/src/a.go", "ws/proj/src/a.go", true, true, true},
		{filepath.Join(root, "src"), "ws/proj/src", true, true, false},
		{"/etc/passwd", "", false, true, false},
	} {
		info := r.Resolve("", tc.path)
		want := filepath.Join(base, tc.resolved)
		if tc.resolved == "" {
			want = tc.path
		}
		if info.Resolved != want || info.InsideRoot != tc.inside || info.Exists != tc.exists || info.Symlink != tc.symlink {
			t.Errorf("%s: got %+v, want resolved %s inside %v exists %v symlink %v", tc.path, info, want, tc.inside, tc.exists, tc.symlink)
		}
	}
	if info := r.Resolve("", "loop"); info.InsideRoot && info.Exists {
		t.Errorf("a symlink loop resolved to an existing path: %+v", info)
	}
	if info := r.Resolve("src", "a.go"); info.Rel != filepath.Join("src", "a.go") {
		t.Errorf("relative to a base: %+v", info)
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		dir, path, rel string
		ok             bool
	}{
		{"/ws/proj", "/ws/proj", ".", true},
		{"/ws/proj", "/ws/proj/a/b", "a/b", true},
		{"/ws/proj", "/ws/proj-evil", "", false},
		{"/ws/proj", "/ws", "", false},
		{"/", "/etc", "etc", true},
	} {
		rel, ok := Within(tc.dir, tc.path)
		if rel != tc.rel || ok != tc.ok {
			t.Errorf("Within(%s, %s) = %q, %v", tc.dir, tc.path, rel, ok)
		}
	}
}
