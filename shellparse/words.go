package shellparse

import (
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds brace expansion ({1..100000}); beyond it the word is
// reported instead of expanded.
const maxBraceWords = 1024

// wordInfo is one field a shell word expands to.
type wordInfo struct {
	Word
	// glob is set when the unquoted word has pattern characters, so bash
	// may replace it with file names.
	glob bool
	// quoted is set when the word is entirely inside quotes: a dynamic
	// quoted word is one field, never zero or several.
	quoted bool
	// raw is the word as written in the source.
	raw string
	// none is set when the word expands to no field at all (an unquoted
	// empty alternative of a brace expansion: {,rm} is "rm").
	none bool
	// local is set when the word starts with an expansion whose value the
	// command itself chose and which may start with "-": a variable it sets
	// so (dashVars), or a positional parameter in a function ("$@": what its
	// calls pass) or after set --.
	local bool
}

// fields expands word into the fields bash would produce, as far as this can
// be known statically: brace expansion and quote removal are done; any
// parameter, command or arithmetic expansion makes the field dynamic.
func (w *walker) fields(word *syntax.Word) ([]wordInfo, bool) {
	if word == nil {
		return nil, true
	}
	raw := w.raw(word)
	if !syntax.SplitBraces(word) {
		f := w.field(word)
		f.raw = raw
		return []wordInfo{f}, true
	}
	var out []wordInfo
	for x, err := range expand.BracesSeq(nil, word) {
		if err != nil || len(out) >= maxBraceWords {
			return []wordInfo{{Word: Word{Value: raw, Dynamic: true}, raw: raw}}, false
		}
		f := w.field(x)
		if f.none {
			continue // bash removes the empty word: {,rm} x runs rm
		}
		f.raw = raw
		if f.Dynamic {
			f.Value = raw
		}
		out = append(out, f)
	}
	return out, true
}

// mayBeDash reports whether a value may start with "-": it does, or it
// starts with an expansion (a pattern, known only on disk, does not: the
// engine checks the names a pattern may give).
func mayBeDash(f wordInfo) bool {
	if !f.Dynamic {
		return strings.HasPrefix(f.Value, "-")
	}
	if f.glob && !strings.ContainsAny(f.Value, "$`") {
		return false
	}
	return optionPrefix(f.Value) == "" || strings.HasPrefix(optionPrefix(f.Value), "-")
}

// localStart reports whether the word starts with an expansion whose
// value the command itself chose (see wordInfo.local).
func (w *walker) localStart(word *syntax.Word) bool {
	if len(word.Parts) == 0 {
		return false
	}
	part := word.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) == 0 {
			return false
		}
		part = dq.Parts[0]
	}
	switch p := part.(type) {
	case *syntax.ParamExp:
		if p.Param == nil {
			return false
		}
		name := p.Param.Value
		if name == "@" || name == "*" || name != "" && name[0] >= '0' && name[0] <= '9' {
			return w.inFunction > 0 || w.setPositional
		}
		return w.dashVars[name]
	}
	return false
}

// field evaluates a word without brace expansion.
func (w *walker) field(word *syntax.Word) wordInfo {
	info := wordInfo{quoted: len(word.Parts) > 0, local: w.localStart(word)}
	static := true
	// a word shaped like an assignment (of=~/x, a=b:~+/y) has its tildes
	// after the first "=" and after each ":" expanded, as an argument too
	assignLike, tilde := false, ""
	if len(word.Parts) > 0 {
		if lit, ok := word.Parts[0].(*syntax.Lit); ok {
			assignLike = assignPrefix.MatchString(lit.Value)
		}
	}
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			info.quoted = false
			if pattern.HasMeta(p.Value, 0) {
				info.glob = true
			}
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				name, _, _ := strings.Cut(p.Value[1:], "/")
				if name != "" || w.p.home == "" {
					static = false // ~user, ~+, ~- or no known home
				}
			}
			if assignLike && strings.Contains(p.Value, "[") && strings.Contains(p.Value, "~") {
				static = false // a[i]=~/x: where the subscript ends is bash's to say
			} else if assignLike && assignTilde(p.Value, i == 0) {
				// bash expands it: ~ to the home directory when the word is
				// this text alone; ~+, ~-, ~user, or in a quoted word, only
				// known at run time
				v, ok := "", false
				if len(word.Parts) == 1 && w.p.home != "" && !strings.Contains(p.Value, `\`) {
					v, ok = expandAssignTilde(p.Value, w.p.home)
				}
				if !ok {
					static = false
				}
				tilde = v
			}
		case *syntax.SglQuoted:
			if p.Dollar && undecodedEscape(p.Value) {
				static = false
			}
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				if _, ok := dp.(*syntax.Lit); !ok {
					static = false
				}
			}
		case *syntax.ExtGlob:
			info.quoted = false
			info.glob = true
		default:
			info.quoted = false
			static = false
		}
	}
	if !static {
		info.Value = w.raw(word)
		info.Dynamic = true
		if len(word.Parts) == 1 {
			_, info.Pipe = word.Parts[0].(*syntax.ProcSubst)
		}
		return info
	}
	if info.glob {
		// Keep the pattern as written; its expansion depends on the file
		// system at run time.
		info.Value = w.raw(word)
		info.Dynamic = true
		return info
	}
	// Fields does bash's quote removal; a static word gives one field (or
	// none for an unquoted empty word).
	fs, err := expand.Fields(w.state.expand, word)
	if err != nil || len(fs) > 1 {
		info.Value = w.raw(word)
		info.Dynamic = true
		return info
	}
	if len(fs) == 1 {
		info.Value = fs[0]
	}
	if tilde != "" {
		info.Value = tilde
	}
	// An unquoted word with no text at all (what {,rm} gives for its empty
	// alternative) is removed by bash; expand.Fields keeps it as "".
	info.none = len(fs) == 0 || (fs[0] == "" && unquotedEmpty(word))
	return info
}

// unquotedEmpty reports whether word is made of literal text only, all of
// it empty.
func unquotedEmpty(word *syntax.Word) bool {
	for _, part := range word.Parts {
		if lit, ok := part.(*syntax.Lit); !ok || lit.Value != "" {
			return false
		}
	}
	return true
}

// undecodedEscape reports whether the text of $'...' holds an escape that
// mvdan's decoder leaves as written and bash decodes: \cX (a control
// character; \c@ is NUL, which ends the string) and \x{HH...}.
func undecodedEscape(v string) bool {
	for i := 0; i+1 < len(v); i++ {
		if v[i] != '\\' {
			continue
		}
		switch v[i+1] {
		case 'c':
			return true
		case 'x':
			if i+2 < len(v) && v[i+2] == '{' {
				return true
			}
		}
		i++ // skip the escaped character
	}
	return false
}

// literal returns the value of a word that is never split or brace-expanded:
// assignment values, redirection targets, here-document bodies.
func (w *walker) literal(word *syntax.Word) Word {
	if word == nil {
		return Word{}
	}
	return w.field(word).Word
}

// document returns the text of a here-document body, which undergoes
// expansions but neither quote removal nor globbing.
func (w *walker) document(word *syntax.Word) Word {
	for _, part := range word.Parts {
		if _, ok := part.(*syntax.Lit); !ok {
			return Word{Value: w.raw(word), Dynamic: true}
		}
	}
	v, err := expand.Document(w.state.expand, word)
	if err != nil {
		return Word{Value: w.raw(word), Dynamic: true}
	}
	return Word{Value: v}
}

// raw returns the source text of a node.
func (w *walker) raw(n syntax.Node) string {
	if n == nil {
		return ""
	}
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// assignPrefix is the start of a word shaped like an assignment: NAME=,
// NAME+=, NAME[SUBSCRIPT]= or NAME[SUBSCRIPT]+=.
var assignPrefix = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=`)

// assignTilde reports a tilde bash expands in a literal part of a word
// shaped like an assignment: right after the first "=" (in the word's
// first part), or after a ":" (or at the start of a later part, which may
// follow one).
func assignTilde(lit string, first bool) bool {
	if first {
		_, rest, _ := strings.Cut(lit, "=")
		return strings.HasPrefix(rest, "~") || strings.Contains(rest, ":~")
	}
	return strings.HasPrefix(lit, "~") || strings.Contains(lit, ":~")
}

// expandAssignTilde expands the tildes of an assignment-shaped word as
// bash does (a=~/x:~/y), or returns false for a tilde prefix other than
// ~ alone (~+, ~-, ~user): those are only known at run time.
func expandAssignTilde(lit, home string) (string, bool) {
	name, rest, _ := strings.Cut(lit, "=")
	if strings.ContainsAny(name, "[+") {
		return "", false // a[i]=~ and a+=~: read as known at run time
	}
	parts := strings.Split(rest, ":")
	for i, part := range parts {
		if !strings.HasPrefix(part, "~") {
			continue
		}
		prefix, after, slash := strings.Cut(part, "/")
		if prefix != "~" {
			return "", false
		}
		parts[i] = home
		if slash {
			parts[i] = home + "/" + after
		}
	}
	return name + "=" + strings.Join(parts, ":"), true
}

// isInteger reports whether s is an integer literal as arithmetic accepts it.
func isInteger(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	_, err := strconv.ParseInt(s, 0, 64)
	return err == nil
}

// isName reports whether s is a valid shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

func itoa(i int) string { return strconv.Itoa(i) }
