package shellparse

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// numericUse is a command substitution whose output is taken for numbers:
// assigned to the variable name, or evaluated where owner is.
type numericUse struct {
	prog  string
	name  string
	owner ownerFn
}

// numericSubst returns the program whose output is the whole value of
// word, a command substitution (quoted or not) that prints only numbers
// and blanks; "" otherwise.
func numericSubst(word *syntax.Word) string {
	cs, ok := solePart(word).(*syntax.CmdSubst)
	if !ok {
		return ""
	}
	return numericOutput(cs)
}

// numericOutput returns the program a command substitution runs last when
// what it prints can only be numbers and blanks, so that arithmetic on it
// cannot meet a subscript: wc counting its standard input, seq of numbers,
// date with a format of digits only, grep -c of at most one file, nproc.
// The substitution is one pipeline (or command) whose last command has
// literal words, no assignments, and no redirection but input ones and
// 2>/dev/null: its error messages never join the output. Whether the name
// really runs that program (no function, alias or hash of that name) is
// checked in finish. "" when none of this holds.
func numericOutput(cs *syntax.CmdSubst) string {
	if cs == nil || len(cs.Stmts) != 1 || cs.Backquotes {
		return ""
	}
	// the last command's standard output is the substitution's output;
	// what earlier commands of the pipeline write goes into the pipe, or
	// to files the path rules check
	st := cs.Stmts[0]
	if st.Background || st.Coprocess || st.Disown || !quietRedirs(st.Redirs) {
		return ""
	}
	last := st
	for {
		b, ok := last.Cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		if b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return ""
		}
		last = b.Y
	}
	if !quietRedirs(last.Redirs) {
		return ""
	}
	call, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return ""
	}
	words := make([]string, len(call.Args))
	for i, a := range call.Args {
		if words[i] = literalWord(a); words[i] == "" {
			return ""
		}
	}
	if numericArgs(words[0], words[1:]) {
		return words[0]
	}
	return ""
}

// literalWord returns the text of a word with no expansion at all: plain
// text without pattern, tilde, brace or backslash characters, or text in
// quotes; "" otherwise.
func literalWord(word *syntax.Word) string {
	if len(word.Parts) != 1 {
		return ""
	}
	switch p := word.Parts[0].(type) {
	case *syntax.Lit:
		if !strings.ContainsAny(p.Value, `*?[\~{`) {
			return p.Value
		}
	case *syntax.SglQuoted:
		if !p.Dollar {
			return p.Value
		}
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			if lit, ok := p.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(lit.Value, `\$`+"`") {
				return lit.Value
			}
		}
	}
	return ""
}

// quietRedirs reports redirections that keep anything but the program's
// standard output out of the substitution: input from a file, errors to
// /dev/null.
func quietRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch {
		case r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0"):
		case r.Op == syntax.RdrOut && r.N != nil && r.N.Value == "2" && r.Word != nil && r.Word.Lit() == "/dev/null":
		default:
			return false
		}
	}
	return true
}

var (
	numberWord  = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?$`)
	digitFormat = regexp.MustCompile(`^\+(%[sNYmdHMSjuwyCGgVUWekI]|[0-9 :.-])*$`)
)

// numericArgs reports whether prog with args prints only numbers and
// blanks.
func numericArgs(prog string, args []string) bool {
	switch prog {
	case "wc":
		// counts of standard input: no file operand, no --files0-from
		for _, a := range args {
			switch {
			case a == "--lines" || a == "--bytes" || a == "--words" || a == "--chars" || a == "--max-line-length":
			case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "lcwmL") == "":
			default:
				return false
			}
		}
		return true
	case "seq":
		for _, a := range args {
			if !numberWord.MatchString(a) && a != "-w" && a != "--equal-width" {
				return false
			}
		}
		return len(args) > 0
	case "date":
		// only with a format of digits: without one it prints the day's
		// name (Sat, a name arithmetic reads)
		format := false
		for _, a := range args {
			switch {
			case digitFormat.MatchString(a):
				format = true
			case a != "-u" && a != "--utc":
				return false
			}
		}
		return format
	case "nproc":
		return len(args) == 0 || len(args) == 1 && args[0] == "--all"
	case "grep", "egrep", "fgrep":
		return grepCount(args)
	}
	return false
}

// grepCount reports grep -c of at most one file, no recursion and no file
// names: it prints one count.
func grepCount(args []string) bool {
	count, pattern := false, false
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "-e" && i+1 < len(args):
			pattern = true
			i++
		case a == "--count":
			count = true
		case a == "--ignore-case" || a == "--invert-match" || a == "--word-regexp" || a == "--line-regexp" ||
			a == "--fixed-strings" || a == "--extended-regexp" || a == "--basic-regexp" || a == "--perl-regexp" || a == "--no-messages":
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			if strings.Trim(a[1:], "civwxEFGPsy") != "" {
				return false
			}
			count = count || strings.Contains(a, "c")
		case strings.HasPrefix(a, "-") && a != "-":
			return false
		default:
			operands = append(operands, a)
		}
	}
	if !pattern {
		if len(operands) == 0 {
			return false
		}
		operands = operands[1:]
	}
	return count && len(operands) <= 1
}

// keyLoop is a loop variable given an array's keys.
type keyLoop struct {
	name, array string
}

// arrayKeys returns NAME when word is "${!NAME[@]}" (or ${!NAME[*]},
// quoted or not) and nothing else: the keys of the array.
func arrayKeys(word *syntax.Word) string {
	p, ok := solePart(word).(*syntax.ParamExp)
	if !ok || !p.Excl || p.Param == nil || p.Length || p.Width || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Names != 0 || p.Index == nil {
		return ""
	}
	idx, ok := p.Index.(*syntax.Word)
	if !ok {
		return ""
	}
	if l := idx.Lit(); l != "@" && l != "*" {
		return ""
	}
	return p.Param.Value
}

// solePart returns the one part word is made of, inside double quotes or
// not ("$(cmd)", ${x}); nil when it has more or none.
func solePart(word *syntax.Word) syntax.WordPart {
	parts := word.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return nil
	}
	return parts[0]
}
