package shellparse

import "strings"

// sedInert reports whether script, a sed program, neither runs a command
// (the e command, the s///e flag) nor writes a file (w, W, s///w). It reads
// every command of GNU sed's syntax it knows and answers false for
// anything else: an unknown command or flag, an unterminated regular
// expression, s command or bracket expression.
func sedInert(script string) bool {
	writes, ok := sedRead(script)
	return ok && len(writes) == 0
}

// sedRead reads script as sedInert does, allowing the w and W commands
// and the s///w flag: it returns the files they write (to the end of the
// line, as GNU sed reads a file name), and whether the script neither runs
// a command nor holds anything gate does not know.
func sedRead(script string) ([]string, bool) {
	var writes []string
	s, i, n := script, 0, len(script)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	space := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	digits := func() {
		for i < n && isDigit(s[i]) {
			i++
		}
	}
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	// file reads the file name of w, W or s///w: the rest of the line
	file := func() bool {
		space()
		start := i
		toEOL()
		if i == start {
			return false
		}
		writes = append(writes, s[start:i])
		return true
	}
	// regex reads a regular expression up to its closing delimiter d,
	// which must be on the same line.
	regex := func(d byte) bool {
		for i < n {
			switch c := s[i]; {
			case c == '\\':
				i += 2
			case c == '\n':
				return false
			case c == d:
				i++
				return true
			case c == '[':
				// A bracket expression, where the delimiter is an
				// ordinary character (GNU sed: s/[/]/x/): a first ] is
				// a member, [:class:], [=c=] and [.c.] hold brackets.
				j := i + 1
				if j < n && s[j] == '^' {
					j++
				}
				if j < n && s[j] == ']' {
					j++
				}
				for j < n && s[j] != ']' {
					if s[j] == '\n' {
						return false
					}
					if s[j] == '[' && j+1 < n && (s[j+1] == ':' || s[j+1] == '=' || s[j+1] == '.') {
						end := "]"
						end = string(s[j+1]) + end
						k := strings.Index(s[j+2:], end)
						if k < 0 {
							return false
						}
						j += 2 + k + 2
						continue
					}
					j++
				}
				if j >= n {
					return false
				}
				i = j + 1
			default:
				i++
			}
		}
		return false
	}
	// text reads the replacement of s or the target of y up to d.
	text := func(d byte) bool {
		for i < n {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case '\n':
				return false
			case d:
				i++
				return true
			}
			i++
		}
		return false
	}
	// delimiter reads the delimiter of an s or y command.
	delimiter := func() (byte, bool) {
		if i >= n || s[i] == '\\' || s[i] == '\n' {
			return 0, false
		}
		i++
		return s[i-1], true
	}
	address := func() bool {
		switch {
		case i >= n:
		case isDigit(s[i]):
			digits()
			if i < n && s[i] == '~' {
				i++
				digits()
			}
		case s[i] == '$':
			i++
		case s[i] == '/' || s[i] == '\\':
			if s[i] == '\\' {
				i++
				if i >= n || s[i] == '\n' || s[i] == '\\' {
					return false
				}
			}
			d := s[i]
			i++
			if !regex(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for {
		space()
		if i >= n {
			return writes, true
		}
		switch s[i] {
		case ';', '\n', '}', '{':
			i++
			continue
		case '#':
			toEOL()
			continue
		}
		if !address() {
			return nil, false
		}
		space()
		if i < n && s[i] == ',' {
			i++
			space()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
				digits()
			} else if !address() {
				return nil, false
			}
			space()
		}
		for i < n && s[i] == '!' {
			i++
			space()
		}
		if i >= n {
			return writes, true // an address without a command: sed refuses it
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'q', 'Q', 'l', 'L':
			space()
			digits()
		case 'b', 't', 'T', ':', 'v':
			// GNU sed ends a label (and v's version) at white space
			// too: in ':a e CMD' the e command follows the label
			space()
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != ' ' && s[i] != '\t' {
				i++
			}
		case 'a', 'i', 'c', 'r', 'R':
			// text or a file to read, to the end of the line (a
			// backslash-newline goes on)
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 's':
			d, ok := delimiter()
			if !ok || !regex(d) || !text(d) {
				return nil, false
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch c := s[i]; {
				case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || isDigit(c) || c == ' ' || c == '\t':
					i++
				case c == 'w':
					// s///w FILE: the rest of the line names the file
					i++
					if !file() {
						return nil, false
					}
				default:
					return nil, false // e and anything else
				}
			}
		case 'y':
			d, ok := delimiter()
			if !ok || !text(d) || !text(d) {
				return nil, false
			}
		case 'w', 'W':
			if !file() {
				return nil, false
			}
		default:
			return nil, false // e and anything gate does not know
		}
	}
}
