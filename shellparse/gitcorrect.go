package shellparse

import (
	"slices"
	"strings"
)

// gitAutocorrect adds, for a git subcommand that is none of git's
// commands, a reading of the path as the command git's help.autocorrect
// runs instead (help.c): none when the word starts a common command (git
// counts those matches, and runs a correction only when it has one
// candidate in all); else the one command closest by levenshtein(word,
// command, 0, 2, 1, 3) + 1, when that is below 7 and no other command is as
// close. An alias or a command of another git version may tie: every
// closest one is read.
func gitAutocorrect(seg *Segment, g *GitSpec) {
	if len(g.Commands) == 0 {
		return
	}
	for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
		if len(p) < 2 || p[1] == "" || g.isCommand(p[1]) ||
			slices.ContainsFunc(g.CommonCommands, func(c string) bool { return strings.HasPrefix(c, p[1]) }) {
			continue
		}
		best, score := []string(nil), 7
		for _, c := range g.Commands {
			sc := levenshtein(p[1], c, 0, 2, 1, 3) + 1
			switch {
			case sc < score:
				best, score = []string{c}, sc
			case sc == score:
				best = append(best, c)
			}
		}
		for _, c := range best {
			alt := append([]string{}, p...)
			alt[1] = c
			seg.AltPaths = append(seg.AltPaths, alt)
		}
	}
}

// isCommand reports whether name is one of git's commands or a git-NAME
// program of another package.
func (g *GitSpec) isCommand(name string) bool {
	if g.known != nil {
		return g.known[name]
	}
	return slices.Contains(g.Commands, name) || slices.Contains(g.Externals, name)
}

// levenshtein is git's (levenshtein.c): the cost of turning a into b with
// w a swap of two neighbours, s a substitution, i an insertion, d a
// deletion.
func levenshtein(a, b string, w, s, i, d int) int {
	row0, row1, row2 := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range row1 {
		row1[j] = j * i
	}
	for x := 0; x < len(a); x++ {
		row2[0] = (x + 1) * d
		for y := 0; y < len(b); y++ {
			sub := 0
			if a[x] != b[y] {
				sub = s
			}
			row2[y+1] = row1[y] + sub
			if x > 0 && y > 0 && a[x-1] == b[y] && a[x] == b[y-1] && row2[y+1] > row0[y-1]+w {
				row2[y+1] = row0[y-1] + w
			}
			if row2[y+1] > row1[y+1]+d {
				row2[y+1] = row1[y+1] + d
			}
			if row2[y+1] > row2[y]+i {
				row2[y+1] = row2[y] + i
			}
		}
		row0, row1, row2 = row1, row2, row0
	}
	return row1[len(b)]
}
