package fstools

import (
	"bytes"
	"regexp/syntax"
)

// requiredLiteral returns an ASCII string that every match of pattern
// contains (compared case-insensitively), lowercased, or "" when there is
// none worth searching for. The in-process search looks for it first, as rg
// does, instead of running the regular expression over every byte.
func requiredLiteral(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	lit := literalOf(re.Simplify())
	// One byte is worth looking for only if it is not a common one.
	if len(lit) == 0 || (len(lit) == 1 && rank(lit[0]) > rank('_')) {
		return ""
	}
	return string(bytes.ToLower([]byte(lit)))
}

func literalOf(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= 0x80 {
				return ""
			}
		}
		return string(re.Rune)
	case syntax.OpCapture:
		return literalOf(re.Sub[0])
	case syntax.OpPlus:
		return literalOf(re.Sub[0])
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if l := literalOf(sub); len(l) > len(best) {
				best = l
			}
		}
		return best
	}
	return ""
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// foldFinder finds a lowercase ASCII literal in data, ignoring case.
type foldFinder struct {
	lit []byte
	// anchor is the index in lit of its least common byte (by commonRank),
	// which is searched for first with bytes.IndexByte.
	anchor int
}

// common lists bytes from the most to the least common in source code and
// text; bytes not listed are rarer still.
const common = " etaoinsrlhdcu\nmpfg.ywb,v()k_=x;\"-:/'j{}qz0123456789*[]<>"

func rank(c byte) int {
	if i := bytes.IndexByte([]byte(common), c|0x20); isLetter(c) && i >= 0 {
		return len(common) - i
	}
	if i := bytes.IndexByte([]byte(common), c); i >= 0 {
		return len(common) - i
	}
	return 0
}

func newFoldFinder(lit string) *foldFinder {
	f := &foldFinder{lit: []byte(lit)}
	for i := range f.lit {
		if rank(f.lit[i]) < rank(f.lit[f.anchor]) {
			f.anchor = i
		}
	}
	return f
}

// index returns the first position at or after from where lit occurs.
func (f *foldFinder) index(data []byte, from int) int {
	n := len(f.lit)
	c := f.lit[f.anchor]
	lo, up := c, c
	if isLetter(c) {
		lo, up = c|0x20, c&^0x20
	}
	nextLo, nextUp := -1, -1
	for pos := from + f.anchor; pos < len(data); {
		// The next occurrence of either case of the anchor byte.
		if nextLo < pos && nextLo != -2 {
			if i := bytes.IndexByte(data[pos:], lo); i >= 0 {
				nextLo = pos + i
			} else {
				nextLo = -2
			}
		}
		if lo == up {
			nextUp = nextLo
		} else if nextUp < pos && nextUp != -2 {
			if i := bytes.IndexByte(data[pos:], up); i >= 0 {
				nextUp = pos + i
			} else {
				nextUp = -2
			}
		}
		at := nextLo
		if at == -2 || (nextUp != -2 && nextUp < at) {
			at = nextUp
		}
		if at == -2 {
			return -1
		}
		start := at - f.anchor
		if start >= 0 && start+n <= len(data) && bytes.EqualFold(data[start:start+n], f.lit) {
			return start
		}
		pos = at + 1
	}
	return -1
}
