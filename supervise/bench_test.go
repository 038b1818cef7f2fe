//go:build linux

package supervise

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"testing"
)

// allowMost is a decider of the cost of a map lookup: it denies nothing
// these benchmarks run.
func allowMost(_ context.Context, e Exec) Verdict {
	if excluded[path.Base(e.Program)] {
		return Verdict{Reason: "excluded"}
	}
	return Verdict{Allow: true}
}

var excluded = map[string]bool{"shred": true, "mkfs": true}

func runBare(b *testing.B, dir, script string) {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
}

func runSupervised(b *testing.B, dir, script string, opts *Options) {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	tree, err := Wrap(cmd, self(b), allowMost, opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := tree.Start(); err != nil {
		b.Fatal(err)
	}
	if st, err := tree.Wait(); err != nil || st.ExitCode != 0 {
		b.Fatal(st, err)
	}
	<-tree.Done()
}

func benchPair(b *testing.B, dir, script string) {
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			runBare(b, dir, script)
		}
	})
	b.Run("supervised", func(b *testing.B) {
		for b.Loop() {
			runSupervised(b, dir, script, nil)
		}
	})
	// Only the excluded names are asked about, as a policy of exclude
	// rules would say; the rest is allowed in the helper.
	opts := &Options{Prefilter: &Prefilter{Names: []string{"shred", "mkfs"}}, Observe: func(Exec) {}}
	b.Run("prefiltered", func(b *testing.B) {
		for b.Loop() {
			runSupervised(b, dir, script, opts)
		}
	})
}

// BenchmarkBashTrue: the fixed cost of supervision (the helper's start,
// the attach, the socket).
func BenchmarkBashTrue(b *testing.B) {
	needSupervise(b)
	benchPair(b, b.TempDir(), "true")
}

// BenchmarkExecs: 300 execs of /bin/true, one after the other.
func BenchmarkExecs(b *testing.B) {
	needSupervise(b)
	benchPair(b, b.TempDir(), "for i in $(seq 300); do /bin/true; done")
}

// BenchmarkMake: make -j2 of 60 small C files, rebuilt every time.
func BenchmarkMake(b *testing.B) {
	needSupervise(b)
	need(b, "make")
	need(b, "cc")
	dir := b.TempDir()
	objs := ""
	for i := range 60 {
		src := fmt.Sprintf("#include <stdio.h>\nint f%d(int x) { return x * %d + printf(\"%%d\", x); }\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.c", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		objs += fmt.Sprintf(" f%d.o", i)
	}
	mk := "all:" + objs + "\n%.o: %.c\n\tcc -O0 -c $< -o $@\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		b.Fatal(err)
	}
	benchPair(b, dir, "make -s -B -j2")
}
