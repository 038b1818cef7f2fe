package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Benchmark commands: one segment, and a realistic chain of ten with pipes,
// substitutions, a process substitution and a background job.
const (
	benchOneSegment = "git status --short"
	benchTenSegment = "cd src && git status --short | grep -v test > /tmp/s.txt; " +
		"echo \"now $(date +%s)\" && diff <(ls a) <(ls b) || make build & wc -l out.txt"
)

// benchSettings returns settings with n entries in both tools.core and
// tools.exclude; the entries that match the benchmark commands come last.
func benchSettings(n int) Settings {
	s := Settings{ApprovalMode: ApprovalYolo}
	for i := 0; i < n-1; i++ {
		s.Core = append(s.Core, fmt.Sprintf("run_shell_command(tool%d sub%d)", i, i))
		s.Exclude = append(s.Exclude, fmt.Sprintf("run_shell_command(prog%d --flag%d)", i, i))
	}
	s.Core = append(s.Core, "run_shell_command(git status)", "run_shell_command(cd)", "run_shell_command(grep)",
		"run_shell_command(echo)", "run_shell_command(date)", "run_shell_command(diff)", "run_shell_command(ls)",
		"run_shell_command(make)", "run_shell_command(wc)")
	s.Exclude = append(s.Exclude, "run_shell_command(git push)")
	return s
}

// floorNs is the cost of a trivial prepared OPA query with a small parsed
// input, measured anew beside each benchmark: decisions are reported as
// multiples of it (x-floor), which holds across machines and load better
// than nanoseconds. It is timed by hand: testing.Benchmark cannot run inside
// a benchmark (both hold the package's benchmark lock).
func floorNs(b *testing.B) float64 {
	ctx := context.Background()
	q, err := floorQuery(ctx)
	if err != nil {
		b.Fatal(err)
	}
	in := floorInput()
	n, start := 0, time.Now()
	for n < 1000 || time.Since(start) < 300*time.Millisecond {
		if _, err := q.Eval(ctx, rego.EvalParsedInput(in)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// floorQuery is a one-rule policy that reads its input.
func floorQuery(ctx context.Context) (rego.PreparedEvalQuery, error) {
	return rego.New(rego.Query("data.floor.decision"), rego.SetRegoVersion(ast.RegoV1),
		rego.Module("floor.rego", "package floor\n\ndecision := {\"decision\": \"allow\"} if input.tool == \"run_shell_command\"\n")).PrepareForEval(ctx)
}

func floorInput() ast.Value {
	return ast.NewObject(ast.Item(ast.StringTerm("tool"), ast.StringTerm(ToolShell)))
}

// benchFloor evaluates the floor query.
func benchFloor(b *testing.B) {
	ctx := context.Background()
	q, err := floorQuery(ctx)
	if err != nil {
		b.Fatal(err)
	}
	in := floorInput()
	b.ReportAllocs()
	for b.Loop() {
		rs, err := q.Eval(ctx, rego.EvalParsedInput(in))
		if err != nil || len(rs) != 1 {
			b.Fatal(rs, err)
		}
	}
}

// BenchmarkDecideFloor is the floor itself.
func BenchmarkDecideFloor(b *testing.B) { benchFloor(b) }

func benchDecide(b *testing.B, n int, command string) { benchDecideCache(b, n, command, -1) }

// benchDecideCache measures decisions of one command with the decision
// cache off (cache < 0: every decision is cold) or on (every decision but
// the first is a hit), and reports them as multiples of the floor.
func benchDecideCache(b *testing.B, n int, command string, cache int) {
	ctx := context.Background()
	before := floorNs(b)
	e, err := New(ctx, Options{Settings: benchSettings(n), Root: b.TempDir(), CacheEntries: cache})
	if err != nil {
		b.Fatal(err)
	}
	call := Call{Tool: ToolShell, Args: map[string]any{"command": command}}
	d, err := e.Decide(ctx, call)
	if err != nil {
		b.Fatal(err)
	}
	if d.Decision == Deny {
		b.Fatalf("benchmark command denied: %+v", d)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Decide(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := b.Elapsed()
	// The floor is the mean of one measured before and one after.
	b.StopTimer()
	f := (before + floorNs(b)) / 2
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N)/f, "x-floor")
}

// BenchmarkDecide measures one decision (parse, input, evaluation) in
// process, cold (the decision cache off) and warm (a cache hit: the input is
// still built, evaluation is skipped), each also as a multiple of the floor
// (x-floor): go test ./engine -run '^$' -bench Decide -benchmem
func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, c := range []struct {
			name, command string
		}{{"1seg", benchOneSegment}, {"10seg", benchTenSegment}} {
			b.Run(fmt.Sprintf("%s/entries=%d", c.name, n), func(b *testing.B) { benchDecide(b, n, c.command) })
			b.Run(fmt.Sprintf("warm/%s/entries=%d", c.name, n), func(b *testing.B) { benchDecideCache(b, n, c.command, 0) })
		}
	}
}

// benchExecEngine returns an engine with n entries in each list and the
// exec-time input of its call "make -j2", prepared once as the gateway does.
func benchExecEngine(b *testing.B, n int) (*Engine, *ExecCall) {
	b.Helper()
	e, err := New(context.Background(), Options{Settings: benchSettings(n), Root: b.TempDir(), Layers: []string{"static", "exec"}})
	if err != nil {
		b.Fatal(err)
	}
	in, err := e.Input(Call{Tool: ToolShell, Args: map[string]any{"command": "make -j2"}})
	if err != nil {
		b.Fatal(err)
	}
	ec, err := e.ExecCall(in)
	if err != nil {
		b.Fatal(err)
	}
	return e, ec
}

// BenchmarkDecideExecColdCache times the exec-time decision of as (what cc
// runs) with the CPU caches emptied before each one, as they are when the
// decision runs between the compilers of a build: 64 MiB written between
// two decisions, which are timed alone (us/decision).
//
//	go test ./engine -run '^$' -bench DecideExecColdCache -benchtime 200x
func BenchmarkDecideExecColdCache(b *testing.B) {
	ctx := context.Background()
	e, ec := benchExecEngine(b, 10)
	x := Exec{Program: "/usr/bin/as", Exe: "/usr/bin/as", Argv: strings.Fields("as --64 -o x.o /tmp/ccxpsCly.s"),
		Cwd: "/", PID: 11, PPID: 10, Depth: 3, ParentProgram: "/usr/bin/cc"}
	if d := e.DecideExec(ctx, ec, x); d.Decision != Allow {
		b.Fatalf("decided %+v", d)
	}
	evict := make([]byte, 64<<20)
	var decided time.Duration
	for b.Loop() {
		for j := 0; j < len(evict); j += 64 {
			evict[j]++
		}
		start := time.Now()
		e.DecideExec(ctx, ec, x)
		decided += time.Since(start)
	}
	b.ReportMetric(float64(decided.Microseconds())/float64(b.N), "us/decision")
}

// BenchmarkDecideExec measures one exec-time decision (facts and
// evaluation) of a supervised command's program, with the call's input
// prepared once as the gateway does:
//
//	go test ./engine -run '^$' -bench DecideExec -benchmem
func BenchmarkDecideExec(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			e, ec := benchExecEngine(b, n)
			for _, x := range []Exec{
				{Program: "/usr/bin/cc", Exe: "/usr/bin/cc", Argv: []string{"cc", "-O2", "-c", "-o", "x.o", "x.c"},
					Cwd: "/", PID: 10, PPID: 9, Depth: 2, ParentProgram: "/usr/bin/make"},
				// What cc runs: a program the catalogue does not describe,
				// with many arguments.
				{Program: "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", Exe: "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
					Argv: strings.Fields("/usr/lib/gcc/x86_64-linux-gnu/12/cc1 -quiet -imultiarch x86_64-linux-gnu x.c -quiet -dumpbase x.c -dumpbase-ext .c -mtune=generic -march=x86-64 -O2 -fasynchronous-unwind-tables -o /tmp/ccxpsCly.s"),
					Cwd:  "/", PID: 11, PPID: 10, Depth: 3, ParentProgram: "/usr/bin/cc"},
			} {
				b.Run(filepath.Base(x.Program), func(b *testing.B) {
					if d := e.DecideExec(ctx, ec, x); d.Decision != Allow {
						b.Fatalf("decided %+v", d)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						e.DecideExec(ctx, ec, x)
					}
				})
			}
		})
	}
}
