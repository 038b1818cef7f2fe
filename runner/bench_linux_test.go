//go:build linux

package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/supervise"
)

// BenchmarkRun compares runner calls bare, supervised (every exec asked
// about, allowed at once), decided (every exec decided by the exec-time
// policy, data.gate.exec.decision, as gate does), prefiltered (only rm
// asked about), confined (supervised and confined) and gate (decided and
// confined, as gate runs commands), on "true", make -j2
// of 60 C files (about 190 execs) and go build of a module of 200
// packages (about 200 execs of compile, and some 650 threads). The modes
// alternate in each iteration, so that the machine's load falls on all of
// them alike; each reports its median wall time (ms) and its ratio to the
// bare run of the same iterations:
//
//	go test ./runner -run '^$' -bench Run -benchtime 8x
func BenchmarkRun(b *testing.B) {
	needSupervise(b)
	type mode struct {
		name string
		sup  func(command string) *Supervision
	}
	modes := []mode{
		{"bare", func(string) *Supervision { return nil }},
		{"supervised", func(string) *Supervision { return &Supervision{Self: self(b), Default: allowAll} }},
		{"decided", func(command string) *Supervision {
			return &Supervision{Self: self(b), Default: policyDecider(b, command)}
		}},
		// Only programs a policy could deny (exclude rm) are asked about.
		{"prefiltered", func(string) *Supervision {
			return &Supervision{Self: self(b), Default: allowAll, Options: supervise.Options{Prefilter: &supervise.Prefilter{Names: []string{"rm"}}}}
		}},
	}
	if confine.Probe().Active() {
		modes = append(modes, mode{"confined", func(string) *Supervision {
			return &Supervision{Self: self(b), Default: allowAll,
				Confine: &confine.Spec{ReadOnly: []string{".git/hooks/"}, Writable: DefaultWritable(os.Getenv)}}
		}})
		// What gate does: every exec decided by the policy, writes confined.
		modes = append(modes, mode{"gate", func(command string) *Supervision {
			return &Supervision{Self: self(b), Default: policyDecider(b, command),
				Confine: &confine.Spec{ReadOnly: []string{".git/hooks/"}, Writable: DefaultWritable(os.Getenv)}}
		}})
	}
	for _, c := range []struct {
		name  string
		setup func(b *testing.B, root string) (command string, before func())
	}{
		{"true", func(*testing.B, string) (string, func()) { return "true", nil }},
		{"make-j2", benchMake},
		{"go-build", benchGoBuild},
	} {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			command, before := c.setup(b, root)
			runners := make([]*Runner, len(modes))
			for i, m := range modes {
				r, err := New(Options{Root: root, Supervise: m.sup(command)})
				if err != nil {
					b.Fatal(err)
				}
				runners[i] = r
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
					res, err := runners[m].Run(context.Background(), Request{Command: command, Timeout: MaxTimeout})
					if err != nil || res.ExitCode == nil || *res.ExitCode != 0 {
						b.Fatalf("%s: %v %s", modes[m].name, err, res.Text())
					}
					times[m] = append(times[m], time.Since(start))
				}
				i++
			}
			bare := medianDuration(times[0])
			for m, mode := range modes {
				med := medianDuration(times[m])
				b.ReportMetric(float64(med)/1e6, mode.name+"-ms")
				if m > 0 && bare > 0 {
					b.ReportMetric(float64(med)/float64(bare), mode.name+"/bare")
				}
			}
		})
	}
}

// policyDecider decides execs with the default policies, as gate's exec
// decider does (without its log and metrics): an engine that excludes rm
// and mkfs, the call's input built once.
func policyDecider(b *testing.B, command string) supervise.Decider {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.Options{Root: b.TempDir(), Layers: []string{"static", "exec"},
		Settings: engine.Settings{ApprovalMode: engine.ApprovalYolo,
			Exclude: []string{"run_shell_command(rm)", "run_shell_command(mkfs)"}}})
	if err != nil {
		b.Fatal(err)
	}
	in, err := e.Input(engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command}})
	if err != nil {
		b.Fatal(err)
	}
	ec, err := e.ExecCall(in)
	if err != nil {
		b.Fatal(err)
	}
	return func(ctx context.Context, x supervise.Exec) supervise.Verdict {
		d := e.DecideExec(ctx, ec, x)
		if d.Decision != engine.Allow {
			return supervise.Verdict{Reason: fmt.Sprint(d.Reasons)}
		}
		return supervise.Verdict{Allow: true}
	}
}

func benchMake(b *testing.B, root string) (string, func()) {
	for _, tool := range []string{"cc", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("SKIP: %s is not installed", tool)
		}
	}
	var objs []string
	for i := range 60 {
		name := fmt.Sprintf("f%d", i)
		benchWrite(b, root, name+".c", fmt.Sprintf("int %s(int x) { return x * %d; }\n", name, i))
		objs = append(objs, name+".o")
	}
	benchWrite(b, root, "Makefile", "all: "+strings.Join(objs, " ")+"\n%.o: %.c\n\tcc -c -O0 -o $@ $<\n")
	return "make -s -B -j2", nil
}

// benchGoBuild writes a module of 200 small packages; before each run,
// every package changes, so that each is compiled again (the standard
// library comes from the build cache, filled by a first build).
func benchGoBuild(b *testing.B, root string) (string, func()) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("SKIP: go is not installed")
	}
	const n = 200
	benchWrite(b, root, "go.mod", "module example.com/bench\n\ngo 1.22\n")
	var imports, calls strings.Builder
	for i := range n {
		benchWrite(b, root, fmt.Sprintf("p%d/p.go", i), fmt.Sprintf("package p%d\n\nfunc F(x int) int { return x*%d + stamp }\n", i, i+1))
		fmt.Fprintf(&imports, "\t\"example.com/bench/p%d\"\n", i)
		fmt.Fprintf(&calls, "\ts += p%d.F(s)\n", i)
	}
	benchWrite(b, root, "main.go", "package main\n\nimport (\n"+imports.String()+")\n\nfunc main() {\n\ts := 1\n"+calls.String()+"\tprintln(s)\n}\n")
	run := 0
	stamp := func() {
		run++
		for i := range n {
			benchWrite(b, root, fmt.Sprintf("p%d/stamp.go", i), fmt.Sprintf("package p%d\n\nconst stamp = %d\n", i, run))
		}
	}
	command := "GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPROXY=off GOWORK=off " + goBin + " build -o prog ."
	stamp()
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	return command, stamp
}

func benchWrite(b *testing.B, root, name, s string) {
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		b.Fatal(err)
	}
}

func medianDuration(ds []time.Duration) time.Duration {
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
