package fstools

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// escapeTree is base/proj (the root) with ways out of it, and base/outside.
func escapeTree(t *testing.T) (root, outside string) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root = filepath.Join(base, "proj")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root + "/in", outside, base + "/proj-evil"} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(root, "in", "ok.txt"), []byte("ok\n"), 0o644)
	os.Symlink(outside, filepath.Join(root, "outdir"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt"))
	os.Symlink(filepath.Join(outside, "not-yet.txt"), filepath.Join(root, "dangling.txt"))
	os.Symlink("../../outside", filepath.Join(root, "in", "up"))
	return root, outside
}

func TestConfinement(t *testing.T) {
	root, outside := escapeTree(t)
	f := newFS(t, root, WithRipgrep(""))
	evil := filepath.Join(filepath.Dir(root), "proj-evil", "x.txt")
	for _, p := range []string{"../outside/secret.txt", "outdir/secret.txt", "link.txt", "dangling.txt", "in/up/../../outside/secret.txt",
		"in/../../outside/secret.txt", evil, filepath.Join(outside, "secret.txt"), "in/up/secret.txt"} {
		// The directory part as written: filepath.Dir would clean it
		// lexically, which is not how the kernel reads "up/..".
		dir := p[:strings.LastIndex(p, "/")+1]
		if dir == "" {
			dir = "."
		}
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{ToolReadFile, args("file_path", p)},
			{ToolWriteFile, args("file_path", p, "content", "pwned\n")},
			{ToolEdit, args("file_path", p, "old_string", "secret", "new_string", "pwned")},
			{ToolEdit, args("file_path", p, "old_string", "", "new_string", "pwned")},
			{ToolListDirectory, args("path", dir)},
			{ToolGlob, args("pattern", "*", "path", dir)},
			{ToolGrep, args("pattern", "secret", "path", p)},
		} {
			res, err := f.Run(call.tool, call.args)
			if dir == "in/" || dir == "." {
				// Listing the root or in/ is fine; only the target escapes.
				if call.tool == ToolListDirectory || call.tool == ToolGlob {
					continue
				}
			}
			if _, ok := err.(*ArgError); !ok {
				t.Errorf("%s %s: got %v, %+v; want a refusal", call.tool, p, err, res)
			}
		}
	}
	if bs, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(bs) != "secret\n" {
		t.Fatalf("outside file changed: %q", bs)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Fatalf("files appeared outside: %v", entries)
	}
	if _, err := os.Stat(evil); err == nil {
		t.Fatal("wrote to the sibling directory")
	}
}

// TestSwapAfterDecision prepares a write while d is a directory of the
// root, swaps d for a symlink to the outside, then applies the write: the
// time-of-check-to-time-of-use gap a policy decision opens.
func TestSwapAfterDecision(t *testing.T) {
	root, outside := escapeTree(t)
	f := newFS(t, root)
	d := filepath.Join(root, "d")
	os.Mkdir(d, 0o755)
	os.WriteFile(filepath.Join(d, "e.txt"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "e.txt"), []byte("secret\n"), 0o644)
	var changes []*Change
	for _, a := range []map[string]any{
		args("file_path", "d/new.txt", "content", "pwned\n"),
		args("file_path", "d/e.txt", "content", "pwned\n"),
	} {
		c, err := f.Prepare(ToolWriteFile, a)
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, c)
	}
	os.Rename(d, filepath.Join(root, "d-stash"))
	os.Symlink(outside, d)
	for _, c := range changes {
		if res := f.Apply(c); res.Error == nil {
			t.Errorf("%s: applied through the swapped symlink: %+v", c.Rel, res)
		}
	}
	assertOutsideUntouched(t, outside, "secret.txt", "e.txt")
}

func assertOutsideUntouched(t *testing.T, outside string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(outside)
	if len(entries) != len(names) {
		t.Errorf("outside holds %d files, want %d", len(entries), len(names))
	}
	for _, e := range entries {
		bs, _ := os.ReadFile(filepath.Join(outside, e.Name()))
		if string(bs) != "secret\n" {
			t.Errorf("outside: %s holds %q", e.Name(), bs)
		}
	}
}

// TestSymlinkSwapRace swaps a directory of the root for a symlink to the
// outside, over and over, while writes and edits to files under it run:
// every write must stay inside the root.
func TestSymlinkSwapRace(t *testing.T) {
	root, outside := escapeTree(t)
	f := newFS(t, root)
	d, stash := filepath.Join(root, "d"), filepath.Join(root, "d-stash")
	os.Mkdir(d, 0o755)
	os.WriteFile(filepath.Join(d, "e.txt"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "e.txt"), []byte("secret\n"), 0o644)

	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			// A write may have recreated d while it was away.
			if _, err := os.Lstat(stash); err == nil {
				os.RemoveAll(d)
				os.Rename(stash, d)
			}
			if os.Rename(d, stash) != nil {
				continue
			}
			if os.Symlink(outside, d) == nil {
				swaps.Add(1)
				os.Remove(d)
			}
			os.Rename(stash, d)
			// Leave d in place for a moment, so that some writes get
			// through whole: a swap during every write would prove nothing.
			time.Sleep(20 * time.Microsecond)
		}
	}()
	writes := 0
	for i := 0; i < 3000; i++ {
		if res, err := f.Run(ToolWriteFile, args("file_path", "d/w.txt", "content", "pwned\n")); err == nil && res.Error == nil {
			writes++
		}
		f.Run(ToolEdit, args("file_path", "d/e.txt", "old_string", "secret", "new_string", "pwned"))
		f.Run(ToolWriteFile, args("file_path", "d/e.txt", "content", "pwned\n"))
	}
	stop.Store(true)
	wg.Wait()
	if writes == 0 || swaps.Load() == 0 {
		t.Fatalf("writes %d, swaps %d: the race was not exercised", writes, swaps.Load())
	}
	assertOutsideUntouched(t, outside, "secret.txt", "e.txt")
}
