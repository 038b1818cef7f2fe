package shellparse

import "testing"

// FuzzParse checks the parser's invariants on arbitrary input: it never
// panics, a parse error comes with no segments, segment ids are their
// indexes, a parent precedes its children and dynamic indexes point into
// argv. Seeds are in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("ls -la | grep x && rm y")
	p := testParser(f)
	f.Fuzz(func(t *testing.T, command string) {
		prog := p.Parse(command)
		if prog.Error != nil {
			if len(prog.Segments) != 0 {
				t.Fatalf("parse error %v with %d segments", prog.Error, len(prog.Segments))
			}
			return
		}
		for i, s := range prog.Segments {
			if s.ID != i {
				t.Fatalf("segment %d has id %d", i, s.ID)
			}
			if s.Parent >= s.ID || s.Parent < -1 {
				t.Fatalf("segment %d has parent %d", i, s.Parent)
			}
			for _, d := range s.Dynamic {
				if d < 0 || d >= len(s.Argv) {
					t.Fatalf("segment %d: dynamic index %d out of argv %q", i, d, s.Argv)
				}
			}
			// A command without words is only a redirection (> f).
			if s.Kind == KindCommand && len(s.Argv) == 0 && len(s.Redirects) == 0 {
				t.Fatalf("segment %d: a command without argv or redirections", i)
			}
		}
	})
}
