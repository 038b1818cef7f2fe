//go:build linux

package supervise

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The benchmarks run the same command bare, supervised (every exec asked
// about) and prefiltered (only two names asked about), alternating the
// modes in each iteration so that the machine's load falls on all of them
// alike, and report each mode's median wall time (ms) and its ratio to the
// bare run of the same iterations:
//
//	go test ./supervise -run '^$' -bench . -benchtime 8x

// allowMost is a decider of the cost of a map lookup: it denies nothing
// these benchmarks run.
func allowMost(_ context.Context, e Exec) Verdict {
	if excluded[path.Base(e.Program)] {
		return Verdict{Reason: "excluded"}
	}
	return Verdict{Allow: true}
}

var excluded = map[string]bool{"shred": true, "mkfs": true}

func benchCmd(dir, script string, env []string) *exec.Cmd {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

func runBare(b *testing.B, dir, script string, env []string) {
	if out, err := benchCmd(dir, script, env).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
}

func runSupervised(b *testing.B, dir, script string, env []string, opts *Options) {
	cmd := benchCmd(dir, script, env)
	out, err := os.CreateTemp(b.TempDir(), "out")
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	tree, err := Wrap(cmd, self(b), allowMost, opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := tree.Start(); err != nil {
		b.Fatal(err)
	}
	st, err := tree.Wait()
	<-tree.Done()
	if err != nil || st.ExitCode != 0 {
		o, _ := os.ReadFile(out.Name())
		b.Fatalf("%v %v: %s", st, err, o)
	}
}

// benchPair runs script in each mode once per iteration, in an order that
// rotates, before runs prepares each run (outside the timing).
func benchPair(b *testing.B, dir, script string, env []string, before func()) {
	// Only the excluded names are asked about, as a policy of exclude
	// rules would say; the rest is allowed in the helper.
	pf := &Options{Prefilter: &Prefilter{Names: []string{"shred", "mkfs"}}, Observe: func(Exec) {}}
	modes := []struct {
		name string
		run  func()
	}{
		{"bare", func() { runBare(b, dir, script, env) }},
		{"supervised", func() { runSupervised(b, dir, script, env, nil) }},
		{"prefiltered", func() { runSupervised(b, dir, script, env, pf) }},
	}
	times := make([][]time.Duration, len(modes))
	i := 0
	for b.Loop() {
		for j := range modes {
			m := (i + j) % len(modes)
			if before != nil {
				b.StopTimer()
				before()
				b.StartTimer()
			}
			start := time.Now()
			modes[m].run()
			times[m] = append(times[m], time.Since(start))
		}
		i++
	}
	bare := median(times[0])
	for m, mode := range modes {
		med := median(times[m])
		b.ReportMetric(float64(med)/1e6, mode.name+"-ms")
		if m > 0 && bare > 0 {
			b.ReportMetric(float64(med)/float64(bare), mode.name+"/bare")
		}
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkBashTrue: the fixed cost of supervision (the helper's start,
// the attach, the socket).
func BenchmarkBashTrue(b *testing.B) {
	needSupervise(b)
	benchPair(b, b.TempDir(), "true", nil, nil)
}

// BenchmarkExecs: 300 execs of /bin/true, one after the other.
func BenchmarkExecs(b *testing.B) {
	needSupervise(b)
	benchPair(b, b.TempDir(), "for i in $(seq 300); do /bin/true; done", nil, nil)
}

// BenchmarkMake: make -j2 of 60 small C files, rebuilt every time (about
// 190 execs).
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
	benchPair(b, dir, "make -s -B -j2", nil, nil)
}

// goBuildPackages is the size of BenchmarkGoBuild's module.
const goBuildPackages = 200

// BenchmarkGoBuild: go build of a module of 200 small packages, every one
// of them changed before each run so that each is compiled again (about
// 200 execs of compile, and a link; the standard library comes from the
// build cache).
func BenchmarkGoBuild(b *testing.B) {
	needSupervise(b)
	goBin := need(b, "go")
	dir := b.TempDir()
	write := func(name, s string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("go.mod", "module example.com/bench\n\ngo 1.22\n")
	var imports, calls strings.Builder
	for i := range goBuildPackages {
		write(fmt.Sprintf("p%d/p.go", i), fmt.Sprintf("package p%d\n\nfunc F(x int) int { return x*%d + stamp }\n", i, i+1))
		fmt.Fprintf(&imports, "\t\"example.com/bench/p%d\"\n", i)
		fmt.Fprintf(&calls, "\ts += p%d.F(s)\n", i)
	}
	write("main.go", "package main\n\nimport (\n"+imports.String()+")\n\nfunc main() {\n\ts := 1\n"+calls.String()+"\tprintln(s)\n}\n")
	run := 0
	stamp := func() {
		run++
		for i := range goBuildPackages {
			write(fmt.Sprintf("p%d/stamp.go", i), fmt.Sprintf("package p%d\n\nconst stamp = %d\n", i, run))
		}
	}
	stamp()
	env := []string{"GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"}
	runBare(b, dir, goBin+" build -o prog .", env) // the standard library into the cache
	benchPair(b, dir, goBin+" build -o prog .", env, stamp)
}
