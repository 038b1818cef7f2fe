package shellparse

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hasFinding reports whether any segment of command has a finding code.
func hasFinding(p *Parser, command, code string) bool {
	for _, s := range p.Parse(command).Segments {
		for _, f := range s.Findings {
			if f.Code == code {
				return true
			}
		}
	}
	return false
}

// runsMarker runs argv in a fresh directory with stdin from /dev/null and
// reports whether it created the file "ran" there (the programs below try
// to with touch ran).
func runsMarker(t *testing.T, argv ...string) bool {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin = nil
	_ = cmd.Run() // a program that fails to parse runs nothing either way
	_, err := os.Stat(filepath.Join(dir, "ran"))
	return err == nil
}

// Awk programs under the real awk: every one that runs a command is
// reported as inline code, and the ones that only read lines (getline,
// getline < FILE) are not.
func TestAwkProgramsRealAwk(t *testing.T) {
	awk, err := exec.LookPath("awk")
	if err != nil {
		t.Skip("no awk on PATH")
	}
	p := testParser(t)
	attacks := []string{
		`BEGIN { system("touch ran") }`,
		`BEGIN { "touch ran" | getline }`,
		`BEGIN { "touch ran" | getline x }`,
		"BEGIN { \"touch ran\" |\\\ngetline x }",
		`BEGIN { c = "touch ran"; c | getline; close(c) }`,
		`BEGIN { print "x" | "touch ran" }`,
		`BEGIN { printf "x" | "touch ran" }`,
		`BEGIN { print "touch ran" | "sh" }`,
		`BEGIN { printf "a|" | "touch ran" }`,
		`BEGIN { x = "touch ran"; print "a\"|" | x }`,
		`BEGIN { system("touch \"ran\"") }`,
		`BEGIN { s = "|"; "touch ran" | getline }`,
		"BEGIN { printf \"a\" | \"touch ran\" } # \"",
		"BEGIN { x = \"a/b\"; print \"|\" | \"touch ran\" }",
	}
	for _, prog := range attacks {
		ran := runsMarker(t, awk, prog)
		flagged := hasFinding(p, "awk '"+strings.ReplaceAll(prog, "'", `'\''`)+"' f", FindInlineCode)
		if ran && !flagged {
			t.Errorf("awk %q ran a command but is not reported as inline code", prog)
		}
		if !flagged {
			t.Errorf("awk %q is not reported as inline code", prog)
		}
		if !ran {
			t.Errorf("awk %q did not run its command under the real awk: the case tests nothing", prog)
		}
	}
	benign := []string{
		`/PID/ { print; getline; print }`,
		`{ getline line < "/dev/null"; print line }`,
		`NR == 1 { while ((getline l) > 0) n++ } END { print n }`,
		`{ print $1 }`,
		`{ printf "%s|", $0 } END { printf "\n" }`,
		`{ print L"|"FILENAME":"NR }`,
	}
	for _, prog := range benign {
		if runsMarker(t, awk, prog, "/dev/null") {
			t.Fatalf("benign awk %q ran a command", prog)
		}
		if hasFinding(p, "awk '"+prog+"' f", FindInlineCode) {
			t.Errorf("awk %q only reads lines but is reported as inline code", prog)
		}
	}
}

// Alias definitions under a real bash that expands aliases (as an agent's
// shell may): a definition something reads after is reported, and one that
// is the last thing the command runs changes nothing.
func TestAliasRealBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	p := testParser(t)
	for _, tc := range []struct {
		script  string
		flagged bool
	}{
		{"alias x='touch ran'\nx", true},
		{"alias ls='touch ran'\nls", true},
		{"trap 'x' EXIT\nalias x='touch ran'", true},
		{"for i in 1 2; do eval x; alias x='touch ran'; done", true},
		{"alias x='touch ran'", false},
		{"echo hi; alias x='touch ran'", false},
		{"alias x", false},
	} {
		ran := runsMarker(t, bash, "-O", "expand_aliases", "-c", tc.script)
		flagged := hasFinding(p, tc.script, FindRebindsCommands)
		if flagged != tc.flagged {
			t.Errorf("%q: reported %v, want %v", tc.script, flagged, tc.flagged)
		}
		if ran != tc.flagged {
			t.Errorf("%q: ran the alias under bash: %v, want %v", tc.script, ran, tc.flagged)
		}
	}
}
