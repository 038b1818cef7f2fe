package shellparse

import (
	"slices"
	"testing"
)

// TestRelinks: the segments that make or move names (Segment.Relinks), from
// the catalogue's writes.relinks and writes.relinks_when.
func TestRelinks(t *testing.T) {
	p := testParser(t)
	for _, tc := range []struct {
		command string
		want    []bool // Relinks of each segment
	}{
		{"ln -s /etc a && echo x > a/f", []bool{true, false}},
		{"ln /etc/passwd p", []bool{true}},
		{"link /etc/passwd p", []bool{true}},
		{"mv a b", []bool{true}},
		{"sudo mv -t d a", []bool{false, true}},
		{"cp -s a b; cp -al a b; cp --link a b", []bool{true, true, true}},
		// a recursive copy copies links as links; archives, patches and git's
		// work-tree subcommands may make them
		{"cp -r a b; cp a b; mkdir -p d; touch f", []bool{true, false, false, false}},
		{"cp -a a b; rsync -a a/ b/; rsync a b", []bool{true, true, false}},
		{"tar xf a.tar; tar cf a.tar d; tar tvf a.tar; unzip a.zip; patch -p1 < d", []bool{true, false, false, true, true}},
		{"git checkout main; git checkout -b new; git stash pop; git status", []bool{true, false, true, false}},
		{"find . -name x -exec ln -s /etc {} \\;", []bool{false, true}},
	} {
		prog := p.Parse(tc.command)
		var got []bool
		for _, s := range prog.Segments {
			got = append(got, s.Relinks)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: relinks %v, want %v", tc.command, got, tc.want)
		}
	}
}
