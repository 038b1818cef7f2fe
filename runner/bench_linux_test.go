//go:build linux

package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/supervise"
)

// BenchmarkRun compares runner calls bare, supervised (every exec asked
// about), prefiltered (only rm asked about), and supervised and confined, on "true" and on make -j2 of 60 C
// files (about 190 execs):
//
//	go test ./runner -run '^$' -bench Run -benchtime 8x
func BenchmarkRun(b *testing.B) {
	if _, err := exec.LookPath("cc"); err != nil {
		b.Skip("SKIP: cc is not installed")
	}
	if _, err := exec.LookPath("make"); err != nil {
		b.Skip("SKIP: make is not installed")
	}
	needSupervise(b)
	root := b.TempDir()
	var objs []string
	for i := range 60 {
		name := fmt.Sprintf("f%d", i)
		if err := os.WriteFile(filepath.Join(root, name+".c"), []byte(fmt.Sprintf("int %s(int x) { return x * %d; }\n", name, i)), 0o644); err != nil {
			b.Fatal(err)
		}
		objs = append(objs, name+".o")
	}
	mk := "all: " + strings.Join(objs, " ") + "\n%.o: %.c\n\tcc -c -O0 -o $@ $<\nclean:\n\t@find . -name '*.o' -delete\n"
	if err := os.WriteFile(filepath.Join(root, "Makefile"), []byte(mk), 0o644); err != nil {
		b.Fatal(err)
	}
	modes := []struct {
		name string
		sup  *Supervision
	}{
		{"bare", nil},
		{"supervised", &Supervision{Self: self(b), Default: allowAll}},
		// Only programs a policy could deny (exclude rm) are asked about.
		{"prefiltered", &Supervision{Self: self(b), Default: allowAll, Options: supervise.Options{Prefilter: &supervise.Prefilter{Names: []string{"rm"}}}}},
	}
	if confine.Probe().Active() {
		modes = append(modes, struct {
			name string
			sup  *Supervision
		}{"confined", &Supervision{Self: self(b), Default: allowAll, Confine: &confine.Spec{ReadOnly: []string{".git/hooks/"}}}})
	}
	for _, cmd := range []struct{ name, command string }{
		{"true", "true"},
		{"make-j2", "make -s clean && make -s -j2"},
	} {
		for _, m := range modes {
			b.Run(cmd.name+"/"+m.name, func(b *testing.B) {
				r, err := New(Options{Root: root, Supervise: m.sup})
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					res, err := r.Run(context.Background(), Request{Command: cmd.command})
					if err != nil || res.ExitCode == nil || *res.ExitCode != 0 {
						b.Fatalf("%v %s", err, res.Text())
					}
				}
			})
		}
	}
}
