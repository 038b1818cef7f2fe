package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRelinkedWrites: after a segment that makes or moves names (ln, ln -s,
// link, mv, cp -s/-l) may have run, a write whose path may lead through one
// of those names is only known at run time (dynamic, path_unknown); writes
// elsewhere, and writes that surely run before, stay known.
func TestRelinkedWrites(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	if err := os.MkdirAll(filepath.Join(e.resolver.Root(), "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		command string
		dynamic []string // raw paths written dynamically
		known   []string // raw paths written and known
	}{
		{"ln -s /etc a && echo x > a/passwd", []string{"a/passwd"}, nil},
		{"ln -s /etc a; cd a; echo x > passwd", []string{"passwd"}, nil},
		{"ln /etc/passwd p; echo x >> p", []string{"p"}, nil},
		{"link /etc/passwd p; echo x >> p", []string{"p"}, nil},
		{"ln -s /etc && echo x > etc/passwd", []string{"etc/passwd"}, nil},             // target implied by the source
		{"ln -s /etc dir && echo x > dir/etc/passwd", []string{"dir/etc/passwd"}, nil}, // inside a directory target
		{"ln -s /etc -t dir && echo x > dir/etc/passwd", []string{"dir/etc/passwd"}, nil},
		{`ln -s /etc "$d" && echo x > f`, []string{"f"}, nil}, // a dynamic target
		{"mv a b && echo x > b/f", []string{"b/f"}, nil},
		{"cp -s /etc/passwd p && echo x >> p", []string{"p"}, nil},
		{"cp -l /etc/passwd p && tee p < /dev/null", []string{"p"}, nil},
		{"for i in 1 2; do echo x > a/f; ln -s /etc a; done", []string{"a/f"}, nil},
		{"echo x > a/f | ln -s /etc a", []string{"a/f"}, nil},
		{"echo x > a/f & ln -s /etc a", []string{"a/f"}, nil},
		{"f() { echo x > a/f; }; ln -s /etc a; f", []string{"a/f"}, nil},
		// Not through a moved name, or before any move.
		{"mv a b && echo x > c", nil, []string{"c"}},
		{"mv a b && mv c a && echo x > d", nil, []string{"d"}}, // each move's own target is its own business
		{"echo x > a/f; ln -s /etc a", nil, []string{"a/f"}},
		{"cp a b && echo x > b", nil, []string{"b", "b"}}, // cp without -s/-l moves nothing
		{"mkdir -p out; echo x > out/f", nil, []string{"out/f"}},
	} {
		t.Run(tc.command, func(t *testing.T) {
			in, err := e.Input(shellCall(tc.command))
			if err != nil {
				t.Fatal(err)
			}
			var dyn, known []string
			for _, p := range in.Paths {
				if p.Access != "write" || p.Segment != nil && in.Shell.Segments[*p.Segment].Relinks {
					continue // the names the link or move itself writes
				}
				if p.Dynamic {
					dyn = append(dyn, p.Raw)
				} else {
					known = append(known, p.Raw)
				}
			}
			if !slices.Equal(dyn, tc.dynamic) || !slices.Equal(known, tc.known) {
				t.Errorf("dynamic %q known %q, want %q and %q", dyn, known, tc.dynamic, tc.known)
			}
			d := e.Evaluate(context.Background(), in)
			if len(tc.dynamic) > 0 && (d.Decision == Allow || !hasCode(d, CodePathUnknown)) {
				t.Errorf("decision %+v, want path_unknown", d)
			}
		})
	}
}

// TestRelinkedProgram: a program named by a path that may lead through a
// name the command links or moves is unprovable under a restriction.
func TestRelinkedProgram(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm)"))
	if err := os.MkdirAll(filepath.Join(e.resolver.Root(), "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.resolver.Root(), "bin", "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"mv bin old && ln -s /usr/bin bin && bin/tool", "ln -sfn /usr/bin bin; bin/tool x"} {
		d, err := e.Decide(context.Background(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		if d.Decision != Deny || !hasCode(d, CodeCommandUnprovable) {
			t.Errorf("%q: %+v, want command_unprovable", c, d)
		}
	}
	// A move's target below another move's target is unknown too.
	d, err := e.Decide(context.Background(), shellCall("mv a b && mv c b/x"))
	if err != nil || d.Decision == Allow || !hasCode(d, CodePathUnknown) {
		t.Errorf("mv into a moved name: %+v %v", d, err)
	}
	d, err = e.Decide(context.Background(), shellCall("bin/tool x && mv a b"))
	if err != nil || d.Decision != Allow {
		t.Errorf("bin/tool before the move: %+v %v", d, err)
	}
}
