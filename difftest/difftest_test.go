package difftest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/gate-dev/gate/supervise/helper" // the test binary is the supervisor's helper
)

// accepted are the committed differentials: command → program base name →
// reason.
func accepted(t testing.TB) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/differentials.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var v struct{ Command, Program, Reason string }
		if err := json.Unmarshal([]byte(line), &v); err != nil || v.Reason == "" {
			t.Fatalf("differentials.jsonl: bad line (a reason is required): %s", line)
		}
		if out[v.Command] == nil {
			out[v.Command] = map[string]string{}
		}
		out[v.Command][v.Program] = v.Reason
	}
	return out
}

func newRunner(t testing.TB) *Runner {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(context.Background(), t.TempDir(), self)
	if errors.Is(err, ErrUnsafe) {
		t.Skip("SKIP: the differential test needs exec supervision and Landlock to run commands safely: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// corpus is the differentials found by attack (testdata/found.jsonl), the
// committed sample and its mutations, and with GATE_DIFF_FULL
// every command of the shared corpora.
func corpus(t *testing.T) []string {
	cmds, err := ReadCommands("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	found, err := ReadCommands("testdata/found.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := found
	for i, c := range cmds {
		out = append(out, c)
		if testing.Short() {
			continue
		}
		// A bounded slice of the mutations: two per seed, in turn.
		m := Mutations(c)
		out = append(out, m[(2*i)%len(m)], m[(2*i+1)%len(m)])
	}
	if dir := os.Getenv("GATE_DIFF_FULL"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "conformance", "*.jsonl"))
		more, _ := filepath.Glob(filepath.Join(dir, "realworld", "*.jsonl"))
		for _, f := range append(files, more...) {
			cs, err := ReadCommands(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				out = append(out, c)
				out = append(out, Mutations(c)...)
			}
		}
	}
	return out
}

// TestDifferential runs the corpus in real bash under the supervisor: an
// exec in a command gate allowed that no segment names fails the test,
// unless testdata/differentials.jsonl accepts it with a reason.
func TestDifferential(t *testing.T) {
	r := newRunner(t)
	ok := accepted(t)
	var found []Differential
	ran, allowed := 0, 0
	for _, c := range corpus(t) {
		res, err := r.Run(context.Background(), c)
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		if res.Decision == "allow" {
			allowed++
		}
		if res.Execs != nil || (res.Decision == "allow" && res.Skipped == "") {
			ran++
		}
		for _, d := range res.Differentials {
			if _, yes := ok[d.Command][filepath.Base(d.Program)]; !yes {
				found = append(found, d)
			}
		}
	}
	t.Logf("%d allowed, %d run in bash under the supervisor", allowed, ran)
	if ran == 0 {
		t.Fatal("no command ran: the differential test tested nothing")
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Command < found[j].Command })
	for _, d := range found {
		b, _ := json.Marshal(map[string]any{"command": d.Command, "program": filepath.Base(d.Program), "argv": d.Argv, "reason": "TODO"})
		t.Errorf("parser differential (fix the parser, or accept it in testdata/differentials.jsonl): %s", b)
	}
}

// TestDetectsDifferential checks that the comparison finds an exec no
// segment names, and that denied programs are recorded but not run.
func TestDetectsDifferential(t *testing.T) {
	r := newRunner(t)
	// gate predicts rm here, and rm is killed before it runs.
	res, err := r.Run(context.Background(), "touch keep && ls && echo done")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != "allow" || len(res.Differentials) != 0 || len(res.Execs) != 2 {
		t.Fatalf("benign command: %+v", res)
	}
	// A command whose real execs differ from its segments: compare directly.
	names := map[string]bool{"echo": true}
	res2, err := r.Run(context.Background(), "echo hi | cat")
	if err != nil {
		t.Fatal(err)
	}
	var missed int
	for _, x := range res2.Execs {
		if !predicted(x, names) {
			missed++
		}
	}
	if missed != 1 {
		t.Errorf("cat not named by {echo}: %d execs missed, want 1 (%+v)", missed, res2.Execs)
	}
}

// TestUnsafeNotRun: a program off the safe list is recorded and killed
// before it runs; the jail keeps writes in the root.
func TestUnsafeNotRun(t *testing.T) {
	r := newRunner(t)
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	execs, err := r.trace(context.Background(), "sleep 30; python3 -c 'open(\""+outside+"\",\"w\")'; echo pwned > "+outside+"; cat "+outside)
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	for _, x := range execs {
		progs = append(progs, filepath.Base(x.Argv[0]))
	}
	if strings.Join(progs, " ") != "sleep python3 cat" {
		t.Errorf("execs %q, want sleep python3 cat", progs)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
		t.Errorf("the file outside the root holds %q", b)
	}
}

// FuzzDifferential: for generated commands, every program a traced bash
// really runs is among the segments, or gate does not allow the command.
func FuzzDifferential(f *testing.F) {
	cmds, err := ReadCommands("testdata/corpus.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	found, err := ReadCommands("testdata/found.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range append(cmds, found...) {
		f.Add(c)
	}
	r := newRunner(f)
	ok := accepted(f)
	f.Fuzz(func(t *testing.T, c string) {
		res, err := r.Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Differentials {
			if _, yes := ok[d.Command][filepath.Base(d.Program)]; !yes {
				t.Errorf("gate allowed %q, and bash ran %s (%q), which no segment names (segments: %v)", c, d.Program, d.Argv, res.Segments)
			}
		}
	})
}

// TestKillDisabled: bash's kill builtin is off in the jail, in nested bash
// too: kill becomes a program, recorded and killed.
func TestKillDisabled(t *testing.T) {
	r := newRunner(t)
	execs, err := r.trace(context.Background(), "kill -0 $$; bash -c 'kill -0 $$'; bash --posix -c 'kill -0 $$'")
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	for _, x := range execs {
		progs = append(progs, filepath.Base(x.Exe))
	}
	if strings.Join(progs, " ") != "kill bash kill bash" {
		t.Errorf("execs %q, want kill bash kill bash (the builtin off, POSIX bash killed)", progs)
	}
}
