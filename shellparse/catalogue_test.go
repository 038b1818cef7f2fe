package shellparse

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMaybeRunsAsSafeAsNoEntry: a program whose partial entry sets
// maybe_runs (cargo, ld) reads its operands as commands it may
// run, and flags code the command wrote, exactly as a program with no entry.
func TestMaybeRunsAsSafeAsNoEntry(t *testing.T) {
	p := testParser(t)
	c, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	const unknown = "nosuchprogram"
	if c.Programs[unknown] != nil {
		t.Fatalf("%s has an entry", unknown)
	}
	for _, prog := range []string{"cargo", "ld"} { // tmux and screen are read as what they are

		if spec := c.Programs[prog]; spec == nil || !spec.MaybeRuns {
			t.Fatalf("%s: no entry with maybe_runs", prog)
		}
		for _, args := range []string{"new -d 'rm v'", "-dm rm v", "run -- rm -f v", "x.o rm", "new 'cd d && rm v'"} {
			got, want := p.Parse(prog+" "+args), p.Parse(unknown+" "+args)
			if len(got.Segments) == 0 || len(want.Segments) == 0 {
				t.Fatalf("%s %s: no segments", prog, args)
			}
			if g, w := got.Segments[0].MaybeRuns, want.Segments[0].MaybeRuns; !reflect.DeepEqual(g, w) {
				t.Errorf("%s %s: maybe_runs %q, without an entry %q", prog, args, g, w)
			}
		}
		command := "printf x > p.py && " + prog + " p.py"
		seg := p.Parse(command).Segments[1]
		if !slices.ContainsFunc(seg.Findings, func(f Finding) bool { return f.Code == FindScriptFile }) {
			t.Errorf("%s: findings %+v, want %s", command, seg.Findings, FindScriptFile)
		}
		if !strings.Contains(seg.Program, prog) {
			t.Errorf("%s: segment %+v", command, seg)
		}
	}
}
