package shellparse

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestReadOptions reads command lines with the catalogue's getopt
// specifications, as the program would: values attached or in the next
// word, optional ones only attached, long options abbreviated, and no
// reading past the first operand or --.
func TestReadOptions(t *testing.T) {
	c, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv  string
		opts  []ArgOption
		first int
		ok    bool
	}{
		{"xargs -0 chmod 600", []ArgOption{{Name: "-0"}}, 2, true},
		{"xargs -0r -I{} cp {} d", []ArgOption{{Name: "-0"}, {Name: "-r"}, {Name: "-I", Value: "{}", HasValue: true}}, 3, true},
		{"xargs -I @ cp @ d", []ArgOption{{Name: "-I", Value: "@", HasValue: true}}, 3, true},
		{"xargs -i cp {} d", []ArgOption{{Name: "-i"}}, 2, true},
		{"xargs -iR cp R d", []ArgOption{{Name: "-i", Value: "R", HasValue: true}}, 2, true},
		{"xargs --nul --repl=R cp R d", []ArgOption{{Name: "--null"}, {Name: "--replace", Value: "R", HasValue: true}}, 3, true},
		{"xargs --max-args 2 -- rm -f", []ArgOption{{Name: "--max-args", Value: "2", HasValue: true}}, 4, true},
		{"xargs -n1 rm -f", []ArgOption{{Name: "-n", Value: "1", HasValue: true}}, 2, true},
		{"xargs rm -f", nil, 1, true},
		// getopt refuses these, so gate does not read them
		{"xargs -I", nil, 0, false},
		{"xargs --frob rm", nil, 0, false},
		{"xargs --null=x rm", nil, 0, false},
		{"xargs --max rm", nil, 0, false}, // --max-args, --max-chars, ...: ambiguous
		// programs without a specification that stops at its first
		// operand, or without one at all
		{"ls -l x", nil, 0, false},
		{"nosuchprogram -x", nil, 0, false},
	} {
		argv := strings.Fields(tc.argv)
		opts, first, ok := c.ReadOptions(argv[0], argv)
		if ok != tc.ok || ok && (first != tc.first || !slices.Equal(opts, tc.opts)) {
			t.Errorf("ReadOptions(%q) = %v, %d, %v; want %v, %d, %v", tc.argv, opts, first, ok, tc.opts, tc.first, tc.ok)
		}
	}
}

// TestGitAutocorrectMatchesGit asks the real git which command it would
// run for a misspelled one (help.autocorrect=0 prints the closest without
// running it; git runs one only when it names exactly one): gate must read
// the word as that command.
func TestGitAutocorrectMatchesGit(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("SKIPPED: git is not installed")
	}
	c, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	g := c.Programs["git"].Git
	home := t.TempDir()
	for _, word := range []string{"psuh", "pish", "stauts", "brnach", "comit", "chekout", "fetc", "pul", "rebsae", "satsh", "st", "co", "pu", "lgo", "shwo", "dif", "mrege", "tga", "frobnicate", "x"} {
		cmd := exec.Command(gitPath, "-c", "help.autocorrect=0", word)
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
		out, _ := cmd.CombinedOutput()
		var want []string
		if _, after, ok := strings.Cut(string(out), "The most similar command is\n\t"); ok {
			want = append(want, strings.TrimSpace(strings.Split(after, "\n")[0]))
		}
		seg := &Segment{Path: []string{"git", word, "origin"}}
		gitAutocorrect(seg, g)
		var got []string
		for _, p := range seg.AltPaths {
			got = append(got, p[1])
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("git %s: git suggests %v, gate reads %v", word, want, got)
			}
		}
	}
	if d := levenshtein("psuh", "push", 0, 2, 1, 3); d != 0 {
		t.Errorf("levenshtein(psuh, push) = %d, want 0 (a swap costs nothing)", d)
	}
}
