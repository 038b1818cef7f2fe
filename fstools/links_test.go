package fstools

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHardLinks links names inside the root to a file outside it and to
// .git/config: the resolver reports the link count, and writes and edits
// through them are refused at apply time, also when the link is made after
// the change was computed; both files stay as they were.
func TestHardLinks(t *testing.T) {
	root, outside := escapeTree(t)
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitConfig := filepath.Join(root, ".git", "config")
	if err := os.WriteFile(gitConfig, []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"out.txt": filepath.Join(outside, "secret.txt"),
		"cfg.txt": gitConfig,
	} {
		if err := os.Link(target, filepath.Join(root, name)); err != nil {
			t.Skipf("SKIP: cannot make a hard link in the temp dir: %v", err)
		}
	}
	f := newFS(t, root, WithRipgrep(""))
	r, err := NewResolver(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		links uint64
	}{
		{"out.txt", 2}, {"cfg.txt", 2}, {"in/ok.txt", 1}, {"in", 0}, {"new.txt", 0},
	} {
		if got := r.Resolve("", tc.path).Links; got != tc.links {
			t.Errorf("Resolve(%s).Links = %d, want %d", tc.path, got, tc.links)
		}
	}

	unchanged := func() {
		t.Helper()
		assertOutsideUntouched(t, outside, "secret.txt")
		if bs, _ := os.ReadFile(gitConfig); string(bs) != "[core]\n" {
			t.Errorf(".git/config holds %q", bs)
		}
		for _, name := range []string{"out.txt", "cfg.txt"} {
			if fi, err := os.Stat(filepath.Join(root, name)); err != nil || linkCount(fi) != 2 {
				t.Errorf("%s is no longer the hard link: %v", name, err)
			}
		}
	}
	calls := func(p, old string) []map[string]any {
		return []map[string]any{
			args("file_path", p, "content", "pwned\n"),
			args("file_path", p, "old_string", old, "new_string", "pwned"),
		}
	}
	for _, tc := range []struct{ path, old string }{{"out.txt", "secret"}, {"cfg.txt", "[core]"}} {
		for i, a := range calls(tc.path, tc.old) {
			tool := []string{ToolWriteFile, ToolEdit}[i]
			res, err := f.Run(tool, a)
			if err != nil || res.Error == nil {
				t.Errorf("%s %s: not refused: %+v %v", tool, tc.path, res, err)
			}
		}
	}
	unchanged()

	// The race: one link when the change is computed, two when applied.
	c, err := f.Prepare(ToolEdit, args("file_path", "in/ok.txt", "old_string", "ok", "new_string", "pwned"))
	if err != nil {
		t.Fatal(err)
	}
	late := filepath.Join(outside, "late.txt")
	if err := os.Link(filepath.Join(root, "in", "ok.txt"), late); err != nil {
		t.Fatal(err)
	}
	if res := f.Apply(c); res.Error == nil {
		t.Errorf("applied to a file linked after the decision: %+v", res)
	}
	if bs, _ := os.ReadFile(late); string(bs) != "ok\n" {
		t.Errorf("late link holds %q", bs)
	}
	os.Remove(late)
	unchanged()

	// Benign: a file with one link and a new file are written.
	for _, a := range []map[string]any{
		args("file_path", "in/ok.txt", "old_string", "ok", "new_string", "fine"),
		args("file_path", "in/new.txt", "content", "new\n"),
	} {
		tool := ToolEdit
		if _, ok := a["content"]; ok {
			tool = ToolWriteFile
		}
		if res, err := f.Run(tool, a); err != nil || res.Error != nil {
			t.Errorf("%s %v: %+v %v", tool, a["file_path"], res, err)
		}
	}
}
