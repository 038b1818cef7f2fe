//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/layers"
)

// outsideDir is a directory outside the root, the temp dir and every
// default writable path.
func outsideDir(t *testing.T) string {
	t.Helper()
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	for _, base := range []string{"/var/tmp", "/var/cache"} {
		if b, err := filepath.EvalSymlinks(base); err != nil || strings.HasPrefix(b+"/", tmp+"/") {
			continue
		}
		d, err := os.MkdirTemp(base, "gate-outside-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	t.Skip("SKIP: no writable directory outside the temp dir to test confinement with")
	return ""
}

// TestConfinedWrites: through the runner, a Python script may write in
// the root, not outside it (EACCES) nor in .git/hooks (EROFS/EACCES).
func TestConfinedWrites(t *testing.T) {
	needConfine(t, true)
	py := needTool(t, "python3")
	root := t.TempDir()
	outside := outsideDir(t)
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	writeFile(t, hook, "#!/bin/sh\nexit 0\n")
	writeFile(t, filepath.Join(outside, "f"), "keep")
	r := supervisedRunner(t, root, allowAll, &confine.Spec{ReadOnly: []string{".git/hooks/", ".git/config"}})
	script := `
import errno, sys
def w(p):
    try:
        with open(p, "w") as f:
            f.write("harm")
        print(p, "written")
    except OSError as e:
        print(p, errno.errorcode[e.errno])
w(sys.argv[1]); w(sys.argv[2]); w(sys.argv[3]); w(sys.argv[4])
`
	writeFile(t, filepath.Join(root, "w.py"), script)
	cmd := py + " w.py " + filepath.Join(outside, "f") + " " + filepath.Join(outside, "new") + " " + hook + " inside"
	res, err := r.Run(context.Background(), Request{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	out := res.Stdout
	for _, want := range []string{
		filepath.Join(outside, "f") + " EACCES",
		filepath.Join(outside, "new") + " EACCES",
		"inside written",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, res.Text())
		}
	}
	if !strings.Contains(out, hook+" EROFS") && !strings.Contains(out, hook+" EACCES") {
		t.Errorf("the hook was not refused:\n%s", res.Text())
	}
	mustExist(t, filepath.Join(outside, "f"), "keep")
	mustExist(t, hook, "#!/bin/sh\nexit 0\n")
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a file was created outside the root")
	}
	mustExist(t, filepath.Join(root, "inside"), "harm")
	if !slicesContain(res.Layers, layers.FS) || !strings.Contains(res.Text(), "Layers: static, exec, fs") {
		t.Errorf("layers = %v:\n%s", res.Layers, res.Text())
	}
}

// TestConfineFailureRunsNothing: a spec the helper cannot apply (a root
// that is not a directory) stops the command before it runs.
func TestConfineFailureRunsNothing(t *testing.T) {
	needConfine(t, false)
	root := t.TempDir()
	r := supervisedRunner(t, root, allowAll, &confine.Spec{Root: filepath.Join(root, "missing")})
	res, err := r.Run(context.Background(), Request{Command: "touch ran"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == "" || !strings.Contains(res.Error, "confine") {
		t.Errorf("error = %q", res.Error)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Fatal("the command ran")
	}
}
