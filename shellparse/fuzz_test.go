package shellparse

import (
	"reflect"
	"slices"
	"testing"
)

// FuzzParse checks the parser's invariants on arbitrary input: it never
// panics, a parse error or a command over a limit comes with no segments,
// segment ids are their indexes, a parent precedes its children (and is
// named by their via and context), dynamic indexes point into argv, and
// parsing is deterministic.
// Seeds are in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("ls -la | grep x && rm y")
	p := testParser(f)
	f.Fuzz(func(t *testing.T, command string) {
		prog := p.Parse(command)
		if prog.Command != command {
			t.Fatalf("Command %q, want the input", prog.Command)
		}
		if prog.Segments == nil {
			t.Fatalf("nil Segments (JSON null)")
		}
		if prog.TooComplex != nil {
			if len(prog.Segments) != 0 || prog.TooComplex.Limit == "" || prog.TooComplex.Message == "" {
				t.Fatalf("over a limit (%+v) with %d segments", prog.TooComplex, len(prog.Segments))
			}
			return
		}
		if prog.Error != nil {
			if len(prog.Segments) != 0 {
				t.Fatalf("parse error %v with %d segments", prog.Error, len(prog.Segments))
			}
			return
		}
		for i, s := range prog.Segments {
			checkSegment(t, prog, i, s)
		}
		if again := p.Parse(command); !reflect.DeepEqual(again, prog) {
			t.Fatalf("two parses of the same command differ")
		}
	})
}

func checkSegment(t *testing.T, prog *Program, i int, s *Segment) {
	t.Helper()
	if s.ID != i {
		t.Fatalf("segment %d has id %d", i, s.ID)
	}
	if s.Parent >= s.ID || s.Parent < -1 {
		t.Fatalf("segment %d has parent %d", i, s.Parent)
	}
	switch s.Kind {
	case KindCommand, KindAssignment, KindTest:
	default:
		t.Fatalf("segment %d has kind %q", i, s.Kind)
	}
	if (s.Parent == -1) != (s.Via == "") {
		t.Fatalf("segment %d: parent %d but via %q", i, s.Parent, s.Via)
	}
	if s.Parent >= 0 {
		// A wrapper's children sit in its context, inside "wrapper".
		pc := prog.Segments[s.Parent].Context
		if len(s.Context) <= len(pc) || !slices.Equal(s.Context[:len(pc)], pc) || s.Context[len(pc)] != "wrapper" {
			t.Fatalf("segment %d: context %q is not within its parent's %q", i, s.Context, pc)
		}
	}
	for k, d := range s.Dynamic {
		if d < 0 || d >= len(s.Argv) {
			t.Fatalf("segment %d: dynamic index %d out of argv %q", i, d, s.Argv)
		}
		if k > 0 && d <= s.Dynamic[k-1] {
			t.Fatalf("segment %d: dynamic indexes %v not increasing", i, s.Dynamic)
		}
	}
	// A command without words is only a redirection (> f).
	if s.Kind == KindCommand && len(s.Argv) == 0 && len(s.Redirects) == 0 {
		t.Fatalf("segment %d: a command without argv or redirections", i)
	}
	if s.Program != "" && s.ProgramPath == "" && s.Kind == KindCommand && len(s.Argv) > 0 && s.Argv[0] != s.Program {
		t.Fatalf("segment %d: program %q but argv[0] %q", i, s.Program, s.Argv[0])
	}
	if len(s.Path) > 0 && s.Path[0] != s.Program {
		t.Fatalf("segment %d: path %q does not start with program %q", i, s.Path, s.Program)
	}
	for _, f := range s.Findings {
		if f.Code == "" || f.Message == "" {
			t.Fatalf("segment %d: finding %+v without code or message", i, f)
		}
	}
}
