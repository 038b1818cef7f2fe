package shellparse

import (
	"fmt"
	"strings"
)

// checkModes validates a program's modes: each has a description, its own
// getopt and writes are usable, and it holds nothing Validate keys by the
// program's name (an inline code pattern) or more modes.
func (p *ProgramSpec) checkModes() error {
	for key, m := range p.Modes {
		if m == nil || len(strings.Fields(key)) == 0 {
			return fmt.Errorf("mode %q has no description", key)
		}
		if len(m.Modes) > 0 || (m.InlineCode != nil && m.InlineCode.Pattern != "") {
			return fmt.Errorf("mode %q: modes and inline_code.pattern are not read inside a mode", key)
		}
		if m.Getopt != nil && !m.Getopt.checked {
			if err := m.Getopt.compile(); err != nil {
				return fmt.Errorf("mode %q: getopt: %w", key, err)
			}
		}
		if m.Writes != nil {
			if err := m.Writes.check(); err != nil {
				return fmt.Errorf("mode %q: %w", key, err)
			}
		}
	}
	return nil
}

// mode reads the mode argv's leading words select (cmake -E env): it
// returns argv as the mode reads it (the program's name, then the words
// after the mode's) and the mode's description. Argv that starts like a
// mode without being one known statically is reported, and read as
// before.
func (w *walker) mode(seg *Segment, words []wordInfo, spec *ProgramSpec) ([]wordInfo, *ProgramSpec) {
	best, bestLen := (*ProgramSpec)(nil), 0
	started, dynamic := false, false
	for key, m := range spec.Modes {
		kw := strings.Fields(key)
		n := 0
		for n < len(kw) && 1+n < len(words) && !words[1+n].Dynamic && words[1+n].Value == kw[n] {
			n++
		}
		if n == len(kw) {
			if n > bestLen {
				best, bestLen = m, n
			}
			continue
		}
		if n > 0 || (len(words) > 1 && words[1].Dynamic) {
			started = true
			dynamic = dynamic || (1+n < len(words) && words[1+n].Dynamic)
		}
	}
	if best != nil {
		return append([]wordInfo{words[0]}, words[1+bestLen:]...), best
	}
	switch {
	case dynamic:
		seg.addFinding(FindUnknownOption, seg.Program+" is given a mode not known statically: what it does cannot be checked")
	case started:
		seg.addFinding(FindUnknownOption, seg.Program+" is given a mode gate does not know: what it does cannot be checked")
	}
	return words, spec
}
