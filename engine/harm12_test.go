package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The twelfth round: refusals of ordinary commands (the precision side of
// the same classes), checked in real bash: the command is allowed, and
// its real run writes only what the case names, inside the root.

// benignCase is an ordinary command gate allows: wants are the files
// (relative to the root) its real run creates.
type benignCase struct {
	command string
	setup   string
	wants   []string
}

// runBenign checks that each case is allowed and that its real run
// creates its wants and leaves the root's parent as it was.
func runBenign(t *testing.T, cases []benignCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			r := newRealBash(t, "echo v > victim.txt; git init -q .; "+tc.setup)
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("decision %+v, want allow", d)
			}
			home := t.TempDir()
			parent := filepath.Dir(r.root)
			before, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			out := r.run(tc.command, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
			for _, w := range tc.wants {
				if !r.exists(w) {
					t.Errorf("run by bash, the command did not create %s (%s)", w, out)
				}
			}
			after, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(before, after, func(a, b os.DirEntry) bool { return a.Name() == b.Name() }) {
				t.Errorf("run by bash, the command changed %s: %v -> %v", parent, before, after)
			}
			if !r.exists("victim.txt") {
				t.Errorf("run by bash, the command deleted victim.txt (%s)", out)
			}
		})
	}
}

// TestProcessSubstitutionPipesRealBash: a redirection to a process
// substitution, or one given to a program as a file to write (> >(tee
// log), tee >(grep x > out)), writes to a pipe: the command behind it is
// a segment of its own and decides where data lands, so the pipe is no
// write to a file only known at run time. What that command does is still
// decided.
func TestProcessSubstitutionPipesRealBash(t *testing.T) {
	runBenign(t, []benignCase{
		{command: "echo built > >(tee build.log)", wants: []string{"build.log"}},
		{command: "ls -la 2> >(tee err.log >&2) > >(cat > out.txt)", wants: []string{"err.log", "out.txt"}},
		{command: "exec > >(tee -a run.log) 2>&1; echo hi", wants: []string{"run.log"}},
		{command: "printf 'a\\nx\\n' | tee >(grep x > xs.txt) >(wc -l > count.txt) > /dev/null", wants: []string{"xs.txt", "count.txt"}},
		{command: "cp victim.txt >(cat > copy.txt)", wants: []string{"copy.txt"}},
	})
	runHarm(t, []harmCase{
		{command: "echo 'rm -f victim.txt' > >(bash)"},
		{command: "echo 'rm -f victim.txt' | tee >(sh) > /dev/null"},
		{command: "printf '#!/bin/sh\\nexit 0\\n' | tee >(cat > .git/hooks/pre-commit) > /dev/null", setup: "git init -q", harm: ".git/hooks/pre-commit"},
		{command: "echo x > >(tee ../out.txt)", harm: "../out.txt"},
		{command: "echo 'rm -f victim.txt' > >(cat > s.sh); sleep 0.2; bash s.sh"},
	})
	// a quoted >( is text: a file of that name in the root
	allowedStill(t, `echo x > ">(x)"`)
	refusedStill(t, `x='>(a)'; echo x > $x`)
}
