package shellparse

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command.
func (w *walker) call(call *syntax.CallExpr, redirs []Redirect, stdinLit *string, c *ctx) {
	seg := w.newSegment(c, KindCommand)
	seg.Redirects = redirs
	if w.callSegs == nil {
		w.callSegs = map[*syntax.CallExpr]int{}
	}
	w.callSegs[call] = seg.ID
	w.prefixOfRead = callsRead(call, c)
	for _, a := range call.Assigns {
		w.assign(a, seg, c, fixed(seg))
	}
	w.prefixOfRead = false
	var words []wordInfo
	for _, arg := range call.Args {
		fs, ok := w.fields(arg)
		if !ok {
			// fields gives the word as written: arg's positions are no
			// longer usable once its braces are split.
			seg.addFinding(FindBraceTooLarge, "brace expansion "+fs[0].raw+" is too large to check")
		}
		words = append(words, fs...)
		if w.countWords(len(fs)) {
			return
		}
		w.wordParts(arg.Parts, c, fixed(seg))
	}
	if len(words) == 0 {
		seg.Kind = KindAssignment
		return
	}
	w.analyze(seg, words, c, stdinLit)
}

// wordParts walks the expansions inside a word for the commands they run and
// the findings they raise.
func (w *walker) wordParts(parts []syntax.WordPart, c *ctx, owner ownerFn) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.DblQuoted:
			prev := w.inDouble
			w.inDouble = true
			w.wordParts(p.Parts, c, owner)
			w.inDouble = prev
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok {
					w.quotesInDouble(pe, c, owner)
				}
			}
		case *syntax.CmdSubst:
			if p.Backquotes {
				w.backquoted(p, c, owner)
				continue
			}
			w.stmts(p.Stmts, c.fork("cmdsubst"))
		case *syntax.ProcSubst:
			pc := c.fork("procsubst")
			pc.stdin = p.Op == syntax.CmdOut
			w.stmts(p.Stmts, pc)
		case *syntax.ArithmExp:
			w.arithm(p.X, c.with("arith"), owner)
		case *syntax.ParamExp:
			w.paramExp(p, c, owner)
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				w.wordParts(e.Parts, c, owner)
			}
		}
	}
}

// backquoted walks the command of an old-style substitution (`...`) from
// its text, as bash reads it: between the backquotes, a backslash followed
// by $, ` or \ (and " inside double quotes) stands for that character, and
// any other backslash is kept; the result is parsed as a script of its own.
// The parser's own reading of nested backquotes is not used: from the
// third level of nesting (three backslashes before a backquote) it reads
// as text the command bash runs.
func (w *walker) backquoted(p *syntax.CmdSubst, c *ctx, owner ownerFn) {
	start, end := int(p.Left.Offset())+1, int(p.Right.Offset())
	if start > end || end > len(w.src) || w.src[start-1] != '`' || w.src[end] != '`' {
		owner().addFinding(FindUnsupportedShell, "a backquoted substitution whose text cannot be located: "+clip(w.raw(p)))
		return
	}
	if k := unescapedBackquote(w.src[start:end]); k >= 0 {
		// echo `: '` `rm x` `'`: bash ends the substitution at the first
		// backquote not escaped, quotes or not; the parser read on
		owner().addFinding(FindUnsupportedShell, "a backquoted substitution holds a backquote that is not escaped, where bash ends it: "+clip(w.raw(p)))
		return
	}
	text := unescapeBackquoted(w.src[start:end], w.inDouble)
	file, src, err := parseBash(text)
	if err != nil {
		owner().addFinding(FindUnsupportedShell, "a backquoted substitution cannot be parsed: "+toParseError(err).Error())
		return
	}
	w.child(src).stmts(file.Stmts, c.fork("cmdsubst"))
}

// unescapedBackquote returns the offset of the first backquote in s that no
// backslash escapes, or -1.
func unescapedBackquote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			return i
		}
	}
	return -1
}

// unescapeBackquoted removes the backslashes bash removes from the text
// between backquotes.
func unescapeBackquoted(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '\\':
				i++
			case '"':
				if inDouble {
					i++
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// quotesInDouble walks single-quoted text in the words of a parameter
// expansion inside double quotes ("${x:-'$(cmd)'}") or an unquoted
// here-document: there bash keeps the quotes as characters and expands what
// they enclose.
func (w *walker) quotesInDouble(pe *syntax.ParamExp, c *ctx, owner ownerFn) {
	var words []*syntax.Word
	if pe.Exp != nil {
		words = append(words, pe.Exp.Word)
	}
	if pe.Repl != nil {
		words = append(words, pe.Repl.Orig, pe.Repl.With)
	}
	for _, word := range words {
		if word == nil {
			continue
		}
		for _, part := range word.Parts {
			switch q := part.(type) {
			case *syntax.SglQuoted:
				v := Word{Value: q.Value}
				if q.Dollar {
					// $'...' is decoded (extquote), then expanded:
					// "${x:-$'\x24(cmd)'}" runs cmd
					v = w.literal(&syntax.Word{Parts: []syntax.WordPart{q}})
				}
				w.expandText(v, owner(), "a quoted default in double quotes", c)
			case *syntax.ParamExp:
				w.quotesInDouble(q, c, owner)
			}
		}
	}
}

func (w *walker) paramExp(p *syntax.ParamExp, c *ctx, owner ownerFn) {
	name := ""
	if p.Param != nil {
		name = p.Param.Value
	}
	if p.Exp != nil {
		if p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && p.Exp.Word.Lit() == "P" {
			owner().addFinding(FindPromptExpansion, "${"+name+"@P} expands the value of "+name+" as a prompt, which can run commands")
		}
		if p.Exp.Word != nil {
			w.wordParts(p.Exp.Word.Parts, c, owner)
			if (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && name != "" {
				// ${z:=word} assigns word to z.
				v := w.literal(p.Exp.Word)
				if v.Dynamic || strings.ContainsAny(v.Value, "[$`") {
					w.tainted[name] = true
				}
				if w.isInteger(name) {
					// declare -i q; : ${q:=x} evaluates x
					w.arithValue(p.Exp.Word, owner)
				}
				if w.specialName(name) && !w.alwaysSet(name) {
					// as z=word would: : ${BASH_CMDS[ls]:=/bin/rm}
					// rebinds ls, ${PATH:=.} after unset PATH sets it
					w.specialVar(name, v, owner(), c)
				}
			}
		}
	}
	if p.Excl && p.Names == 0 && (p.Index == nil || !isAllIndex(p.Index)) {
		// ${!x}, ${!a[0]}: the value of x (of the element) names a
		// variable; a subscript in it is evaluated as arithmetic, which
		// can run commands.
		w.arith = append(w.arith, arithUse{name: name, owner: owner, code: FindIndirectExpand})
	}
	if p.Repl != nil {
		if p.Repl.Orig != nil {
			w.wordParts(p.Repl.Orig.Parts, c, owner)
		}
		if p.Repl.With != nil {
			w.wordParts(p.Repl.With.Parts, c, owner)
		}
	}
	if p.Index != nil {
		start := len(w.arith)
		w.arithm(p.Index, c.with("arith"), owner)
		if p.Param != nil && !c.within("arith") {
			w.subscriptOf(start, p.Param.Value)
		}
	}
	if p.Slice != nil {
		w.arithm(p.Slice.Offset, c.with("arith"), owner)
		w.arithm(p.Slice.Length, c.with("arith"), owner)
	}
}

// alwaysSet reports whether name is a variable the shell always has set
// (HOME, PATH) and nothing in the command may unset, redeclare or clear
// (env -i, exec -c), so that ${HOME:=x} assigns nothing. The whole command
// line is searched: a function defined before an unset may expand
// ${HOME:=x} after it.
func (w *walker) alwaysSet(name string) bool {
	if name != "HOME" && name != "PATH" {
		return false
	}
	for _, word := range []string{"unset", "local", "declare", "typeset", "env", "exec"} {
		if strings.Contains(w.prog.Command, word) {
			return false
		}
	}
	return true
}

// arithm walks an arithmetic expression. Variables it reads are recorded:
// bash evaluates their values as arithmetic too, and a subscript there
// (a[$(cmd)]) runs commands.
func (w *walker) arithm(e syntax.ArithmExpr, c *ctx, owner ownerFn) {
	switch x := e.(type) {
	case nil:
	case *syntax.BinaryArithm:
		if slices.Contains(arithAssignOps, x.Op) {
			w.arithAssigns(x.X, owner)
		}
		w.arithm(x.X, c, owner)
		w.arithm(x.Y, c, owner)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			w.arithAssigns(x.X, owner)
		}
		w.arithm(x.X, c, owner)
	case *syntax.ParenArithm:
		w.arithm(x.X, c, owner)
	case *syntax.FlagsArithm:
		w.arithm(x.X, c, owner)
	case *syntax.Word:
		v := w.literal(x)
		if !v.Dynamic && strings.ContainsAny(v.Value, "$`") {
			owner().addFinding(FindArithInjection, "arithmetic evaluates the text "+clip(v.Value)+", whose expansions run as code")
		}
		if !v.Dynamic {
			w.arithTextAssigns(v.Value, owner) // [[ PATH=0 -eq 0 ]]
		}
		w.arithParts(x.Parts, owner)
		w.wordParts(x.Parts, c, owner)
	}
}

// arithTextAssign is an assignment in arithmetic text: NAME=, NAME+=,
// NAME[i]<<=, NAME++, ++NAME.
var arithTextAssign = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^]]*\])?\s*(?:(?:\*\*|<<|>>|[-+*/%&|^])?=(?:[^=]|$)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)`)

// arithTextAssigns reports arithmetic text that assigns a variable whose
// value changes what runs ([[ PATH=0 -eq 0 ]], declare -i n='PATH=0').
func (w *walker) arithTextAssigns(text string, owner ownerFn) {
	for _, m := range arithTextAssign.FindAllStringSubmatch(text, -1) {
		for _, name := range m[1:] {
			if name != "" && (w.meaningful(name)) {
				owner().addFinding(FindEnvCode, "arithmetic assigns "+name+", which changes what runs in a way that cannot be checked")
				return
			}
		}
	}
}

// arithAssignOps are the arithmetic operators that assign their left side.
var arithAssignOps = []syntax.BinAritOperator{syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn,
	syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
	syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn}

// arithAssigns reports arithmetic that assigns a variable whose value
// changes what runs (((PATH=0)), let PATH++): a number is a directory too.
func (w *walker) arithAssigns(e syntax.ArithmExpr, owner ownerFn) {
	word, ok := e.(*syntax.Word)
	if !ok {
		return
	}
	name := w.literal(word)
	base, _, _ := strings.Cut(name.Value, "[")
	if w.meaningful(base) {
		owner().addFinding(FindEnvCode, "arithmetic assigns "+clip(name.Value)+", which changes what runs in a way that cannot be checked")
	}
}

// arithParts records the variables an arithmetic word reads (also inside
// double quotes: $(("$1"))). The output of a command substitution, and a
// default value that is not a plain literal (${x:-a[$(cmd)]}), are
// evaluated as arithmetic text, whose subscripts run commands.
func (w *walker) arithParts(parts []syntax.WordPart, owner ownerFn) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if isName(p.Value) {
				w.arith = append(w.arith, arithUse{name: p.Value, owner: owner, code: FindArithInjection})
			}
		case *syntax.DblQuoted:
			w.arithParts(p.Parts, owner)
		case *syntax.CmdSubst:
			if prog := numericOutput(p); prog != "" {
				w.numericUses = append(w.numericUses, numericUse{prog: prog, owner: owner})
				continue
			}
			owner().addFinding(FindArithInjection, "arithmetic evaluates the output of a command substitution, which may hold a subscript that runs commands")
		case *syntax.ProcSubst:
			owner().addFinding(FindArithInjection, "arithmetic evaluates the output of a command substitution, which may hold a subscript that runs commands")
		case *syntax.ParamExp:
			if p.Excl && p.Index != nil && isAllIndex(p.Index) {
				// $(( ${!m[@]} )): the keys of an array, any text when it
				// is associative
				owner().addFinding(FindArithInjection, "arithmetic evaluates the keys of "+p.Param.Value+", which may be any text")
			}
			if p.Param != nil && !(p.Length && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl) {
				// ${#x}, ${#a[@]}: a length, whatever x holds (a
				// subscript of it is walked as arithmetic where the
				// expansion is)
				w.arith = append(w.arith, arithUse{name: p.Param.Value, owner: owner, code: FindArithInjection})
			}
			if p.Exp != nil && p.Exp.Word != nil {
				if v := w.literal(p.Exp.Word); v.Dynamic || strings.ContainsAny(v.Value, "[$`") {
					owner().addFinding(FindArithInjection, "arithmetic evaluates the default "+clip(v.Value)+", which may hold a subscript that runs commands")
				}
			}
		}
	}
}

// test walks a [[ ]] expression; operands of arithmetic comparisons are
// arithmetic.
func (w *walker) test(e syntax.TestExpr, c *ctx, seg *Segment) {
	switch x := e.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, side := range []syntax.TestExpr{x.X, x.Y} {
				if word, ok := side.(*syntax.Word); ok {
					w.arithm(word, c.with("arith"), fixed(seg))
				} else {
					w.test(side, c, seg)
				}
			}
		default:
			w.test(x.X, c, seg)
			w.test(x.Y, c, seg)
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet {
			if word, ok := x.X.(*syntax.Word); ok {
				// [[ ]] expands no pattern: a[1] is the element
				v := w.field(word)
				if globOnly(v) {
					v.Dynamic = false
				}
				w.varNameUse(v.Word, seg, "[[ -v ]]", false)
			}
		}
		w.test(x.X, c, seg)
	case *syntax.ParenTest:
		w.test(x.X, c, seg)
	case *syntax.Word:
		w.wordParts(x.Parts, c, fixed(seg))
	}
}

// declState is what a declaration builtin's options say about the names
// that follow them.
type declState struct {
	integer, nameref, prints, assoc bool
}

// option reads one option word (-i, -n, -p…) of a declaration builtin.
func (st *declState) option(v string) {
	if !strings.HasPrefix(v, "-") {
		return
	}
	if strings.Contains(v, "i") {
		st.integer = true
	}
	if strings.Contains(v, "n") {
		st.nameref = true
	}
	if strings.Contains(v, "A") {
		st.assoc = true
	}
	// declare -p NAME, -f/-F NAME print what they name
	if strings.ContainsAny(v, "pfF") {
		st.prints = true
	}
}

// declBuiltins are the builtins that take NAME=VALUE words of their own:
// the parser reads them as a DeclClause when their name is a plain word,
// and as a call when it is quoted, escaped or follows builtin/command
// ('declare' -i x='a[$(cmd)]', \export BASH_ENV=f, command declare …),
// which bash runs alike.
var declBuiltins = []string{"declare", "typeset", "local", "export", "readonly"}

// decl walks declare, local, export, readonly and typeset.
func (w *walker) decl(d *syntax.DeclClause, c *ctx) {
	seg := w.newSegment(c, KindCommand)
	variant := d.Variant.Value
	seg.Program, seg.RawProgram = variant, variant
	seg.Argv = []string{variant}
	seg.Path = []string{variant}
	seg.PathComplete = true
	var st declState
	for _, a := range d.Args {
		seg.Argv = append(seg.Argv, w.raw(a))
		if a.Naked && a.Name == nil {
			v := w.literal(a.Value)
			if v.Dynamic {
				seg.Dynamic = append(seg.Dynamic, len(seg.Argv)-1)
				w.assocUnknown = true
				seg.addFinding(FindArithInjection, variant+" with a dynamic argument "+v.Value+" may evaluate a subscript that runs commands")
				w.wordParts(a.Value.Parts, c, fixed(seg))
			} else if strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+") {
				seg.Options = append(seg.Options, v.Value)
				st.option(v.Value)
			} else {
				w.declWord(seg, variant, v.Value, &st, c)
			}
			continue
		}
		if a.Name != nil {
			w.declAssoc(seg, a.Name.Value, &st)
		}
		if a.Naked {
			if a.Name != nil {
				w.varNameUse(Word{Value: a.Name.Value}, seg, variant, !st.prints || variant == "export" || variant == "readonly" || variant == "local")
				if st.integer {
					w.integer(a.Name.Value)
					w.arith = append(w.arith, arithUse{name: a.Name.Value, owner: fixed(seg), code: FindArithInjection})
				}
				if st.nameref {
					w.namerefs[a.Name.Value] = true
					w.unboundNameref(seg, variant, a.Name.Value)
				}
			}
			continue
		}
		if st.integer && a.Name != nil {
			w.integer(a.Name.Value) // before assign: the value is arithmetic
		}
		w.assign(a, seg, c, fixed(seg))
		if a.Name != nil && a.Value != nil && a.Array == nil {
			w.compoundText(w.literal(a.Value), seg, variant, c)
		}
		if st.nameref && a.Value != nil {
			// declare -n r=VALUE: VALUE names the variable r refers to,
			// and a subscript in it is evaluated whenever r is used.
			w.varName(w.literal(a.Value), seg, variant+" -n")
			if a.Name != nil {
				w.ref(a.Name.Value, w.literal(a.Value))
			}
		}
		if st.integer && a.Name != nil {
			w.arith = append(w.arith, arithUse{name: a.Name.Value, owner: fixed(seg), code: FindArithInjection})
		}
	}
}

// declWord reads one NAME or NAME=VALUE word of a declaration builtin as
// the builtin reads it: the name may hold a subscript bash evaluates, the
// value may be a compound assignment, a nameref's target or arithmetic.
func (w *walker) declWord(seg *Segment, variant, word string, st *declState, c *ctx) {
	name, value, hasValue := strings.Cut(word, "=")
	w.declAssoc(seg, strings.TrimSuffix(strings.SplitN(name, "[", 2)[0], "+"), st)
	w.varName(Word{Value: name}, seg, variant)
	if base := strings.TrimSuffix(strings.SplitN(name, "[", 2)[0], "+"); hasValue && isName(base) && strings.ContainsFunc(value, func(r rune) bool { return r == '[' || r == '$' || r == '`' || unicode.IsLetter(r) || r == '_' }) {
		// declare "r=a[$(cmd)]"; echo "${!r}": the value is text that
		// arithmetic or an indirect expansion may evaluate
		w.tainted[base] = true
	}
	if hasValue {
		w.compoundText(Word{Value: value}, seg, variant, c)
	}
	if st.nameref && hasValue {
		// VALUE names the variable NAME refers to, and a subscript in
		// it is evaluated whenever NAME is used
		w.varName(Word{Value: value}, seg, variant+" -n")
		w.ref(name, Word{Value: value})
	} else if st.nameref && isName(name) {
		w.namerefs[name] = true
		w.unboundNameref(seg, variant, name)
	}
	if hasValue && (st.integer || w.isInteger(strings.TrimSuffix(strings.SplitN(name, "[", 2)[0], "+"))) {
		// declare -i x=V, readonly RANDOM=V: V is arithmetic
		w.arithText(Word{Value: value}, fixed(seg), name)
	}
	if st.integer {
		w.integer(name)
		// every later assignment to an integer variable is
		// evaluated as arithmetic
		w.arith = append(w.arith, arithUse{name: strings.TrimSuffix(strings.SplitN(name, "[", 2)[0], "+"), owner: fixed(seg), code: FindArithInjection})
	}
}

// subscriptOf marks the variables read since the start-th arithmetic use
// as read by a subscript of array (see arithUse).
func (w *walker) subscriptOf(start int, array string) {
	if w.nested {
		return // a script of its own (bash -c, eval): maybe not the leading declarations' shell
	}
	for i := start; i < len(w.arith); i++ {
		w.arith[i].array, w.arith[i].at = array, len(w.prog.Segments)
	}
}

// surelyAssoc reports whether name is an associative array at a use made
// when there were at segments: declared -A by one of the commands the
// command line starts with (see assocDeclared), before the use, and never
// declared otherwise or unset anywhere.
func (w *walker) surelyAssoc(name string, at int, declared map[string]int) bool {
	decl, ok := declared[name]
	return ok && decl < at && !w.notAssoc[name] && !w.assocUnknown
}

// assocOption is an option word of a declaration that makes its names
// associative arrays and does nothing else that matters here (-A, -gA,
// -Ar): not -p, -f or -F (which only print), -n or -a.
var assocOption = regexp.MustCompile(`^-[AgrxluiI]*A[AgrxluiI]*$`)

// bashArrays are bash's own indexed arrays, which declare -A cannot
// convert.
var bashArrays = []string{"BASH_ARGC", "BASH_ARGV", "BASH_LINENO", "BASH_SOURCE", "BASH_VERSINFO", "BASH_REMATCH", "DIRSTACK", "FUNCNAME", "GROUPS", "PIPESTATUS", "COMP_WORDS", "COPROC"}

// assocDeclared returns the names the command line's first commands
// declare -A, by the segment of each: the leading run of segments that are
// each a plain declare (or typeset) -A at the top level of the command's
// own shell, in the foreground, with no redirection and no word known
// only at run time. Nothing before them can make a name an indexed array
// (which declare -A cannot convert), and a declaration anywhere else may
// not run (local at the top level fails, a subshell's is gone, -p prints).
func (w *walker) assocDeclared() map[string]int {
	declared := map[string]int{}
	for _, s := range w.prog.Segments {
		if s.Kind != KindCommand || (s.Program != "declare" && s.Program != "typeset") || len(s.Context) > 0 ||
			s.Background || len(s.Redirects) > 0 || len(s.Dynamic) > 0 || s.FunctionCall || s.Wrapper || len(s.Argv) < 2 {
			break
		}
		assoc := false
		var names []string
		for _, a := range s.Argv[1:] {
			if strings.ContainsAny(a, "$`<>") {
				// declare -A m x="$(m[$k]=1)": the words expand, and
				// what they run runs, before declare makes m
				return declared
			}
			if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
				if !assocOption.MatchString(a) {
					return declared
				}
				assoc = true
				continue
			}
			name, _, _ := strings.Cut(a, "=")
			name, _, _ = strings.Cut(name, "[")
			if !isName(name) || slices.Contains(bashArrays, name) {
				return declared
			}
			names = append(names, name)
		}
		if !assoc {
			break
		}
		for _, n := range names {
			if _, ok := declared[n]; !ok {
				declared[n] = s.ID
			}
		}
	}
	return declared
}

// notAssocName records a name declared without -A or unset.
func (w *walker) notAssocName(name string) {
	w.noteArrayKind(&w.notAssoc, name)
}

// noteArrayKind adds name to one of the sets of names whose array kind is
// known; past maxWritten names, no kind is known.
func (w *walker) noteArrayKind(set *map[string]bool, name string) {
	if *set == nil {
		*set = map[string]bool{}
	}
	if len(*set) >= maxWritten {
		w.assocUnknown = true
		return
	}
	(*set)[name] = true
}

// isAllIndex reports the subscript @ or * (every element, or key).
func isAllIndex(e syntax.ArithmExpr) bool {
	word, ok := e.(*syntax.Word)
	if !ok {
		return false
	}
	l := word.Lit()
	return l == "@" || l == "*"
}

// declAssoc records a name declared -A (its keys are any text), or
// declared otherwise; a nameref may make any name associative.
func (w *walker) declAssoc(seg *Segment, name string, st *declState) {
	if st.nameref {
		w.assocUnknown = true
	}
	if !st.assoc {
		w.notAssocName(name)
		return
	}
	w.noteArrayKind(&w.assoc, name)
}

// unboundNameref reports declare -n NAME without a value: NAME then
// refers to the variable its current value names (r='a[$(cmd)]'; declare
// -n r), or the next value read, printed or looped into it, and every use
// of NAME evaluates a subscript in that name, which gate does not follow.
func (w *walker) unboundNameref(seg *Segment, variant, name string) {
	w.assocUnknown = true
	seg.addFinding(FindArithInjection, variant+" -n "+name+" without a value makes "+name+" refer to the variable named by a value gate does not follow, whose subscript runs as code")
}

// declCall reads the words of a declaration builtin run as a call (its
// name quoted, escaped, or after builtin/command) as decl reads a
// DeclClause's: after expansion each word is an option, a NAME or a
// NAME=VALUE the builtin parses itself.
func (w *walker) declCall(seg *Segment, words []wordInfo, c *ctx) {
	var st declState
	for _, v := range words[1:] {
		switch {
		case v.Dynamic:
			w.assocUnknown = true
			seg.addFinding(FindArithInjection, seg.Program+" with a dynamic argument "+clip(v.Value)+" may evaluate a subscript that runs commands or set a variable that does")
		case strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+"):
			st.option(v.Value)
		default:
			w.declWord(seg, seg.Program, v.Value, &st, c)
		}
	}
}

// integer records that name is declared -i.
func (w *walker) integer(name string) {
	name = strings.TrimSuffix(strings.SplitN(name, "[", 2)[0], "+")
	if w.integers == nil {
		w.integers = map[string]bool{}
	}
	w.integers[name] = true
}

// isInteger reports whether name, or the variable it refers to, is declared
// -i.
func (w *walker) isInteger(name string) bool {
	integer := func(n string) bool { return w.integers[n] || slices.Contains(bashIntegerVars, n) }
	return integer(name) || slices.ContainsFunc(w.refs[name], integer)
}

// ref records that the nameref r names the variable v (when known).
func (w *walker) ref(r string, v Word) {
	if v.Dynamic {
		return // varName reports it
	}
	target, _, _ := strings.Cut(v.Value, "[")
	if !isName(target) {
		return
	}
	if w.refs == nil {
		w.refs = map[string][]string{}
	}
	// every name a nameref was given: which one it refers to when it is
	// used depends on the path taken (and an assignment to an unset
	// nameref binds it)
	if !slices.Contains(w.refs[r], target) {
		w.refs[r] = append(w.refs[r], target)
	}
}

// arithValue records the variables named in a value bash evaluates as
// arithmetic because it is assigned to an integer variable (or through a
// nameref to one): their values are evaluated in turn, and a subscript in
// them runs commands. Expansions in the value itself taint the variable it
// is assigned to, whose own use reports them.
func (w *walker) arithValue(word *syntax.Word, owner ownerFn) {
	v := w.literal(word)
	if !v.Dynamic {
		w.arithNames(v.Value, owner)
		return
	}
	w.arithParts(word.Parts, owner)
	for _, part := range word.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			w.arithNames(lit.Value, owner)
		}
	}
}

// arithText records the variables named in text that bash evaluates as
// arithmetic; expansions in the text itself are code.
func (w *walker) arithText(v Word, owner ownerFn, via string) {
	if strings.ContainsAny(v.Value, "$`") {
		owner().addFinding(FindArithInjection, "the value "+clip(v.Value)+" given to the integer variable "+via+" is evaluated as arithmetic, whose expansions run as code")
	}
	w.arithNames(v.Value, owner)
}

// arithNames records the variables named in arithmetic text.
func (w *walker) arithNames(text string, owner ownerFn) {
	w.arithTextAssigns(text, owner)
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if isName(f) {
			w.arith = append(w.arith, arithUse{name: f, owner: owner, code: FindArithInjection})
		}
	}
}

// compoundText walks a value given to declare, local, export, readonly or
// typeset as text that bash reads as a compound assignment when it starts
// with "(" (declare -a a='($(cmd))' runs cmd): the text is parsed as the
// assignment it becomes.
func (w *walker) compoundText(v Word, seg *Segment, variant string, c *ctx) {
	if !strings.HasPrefix(strings.TrimLeft(v.Value, " \t"), "(") {
		return
	}
	if v.Dynamic {
		seg.addFinding(FindDynamicScript, variant+" is given a compound assignment that is not known statically: "+clip(v.Value))
		return
	}
	if !strings.ContainsAny(v.Value, "$`<>") {
		return
	}
	file, src, err := parseBash("__gate_compound=" + v.Value)
	if err != nil {
		seg.addFinding(FindUnsupportedShell, variant+" is given a compound assignment that cannot be parsed: "+clip(v.Value))
		return
	}
	w.child(src).stmts(file.Stmts, c.with("compound"))
}

// assign records an assignment, follows the taint of its value and checks
// variables with special meaning.
func (w *walker) assign(a *syntax.Assign, seg *Segment, c *ctx, owner ownerFn) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	defer func() {
		if a.Array != nil || a.Value != nil && mayBeDash(wordInfo{Word: w.literal(a.Value)}) {
			w.dashVars[name] = true
		}
	}()
	var v Word
	switch {
	case a.Array != nil:
		v = Word{Value: w.raw(a.Array)}
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				w.arithm(el.Index, c.with("arith"), owner)
			}
			if el.Value != nil {
				if w.literal(el.Value).Dynamic {
					v.Dynamic = true
				}
				w.wordParts(el.Value.Parts, c, owner)
			}
		}
	case a.Value != nil:
		v = w.literal(a.Value)
		w.wordParts(a.Value.Parts, c, owner)
		if w.namerefs[name] {
			// the names r already refers to get VALUE: their special
			// meaning applies (declare -n r; for r in PS4; do r=...)
			for _, t := range w.refs[name] {
				if w.specialName(t) {
					w.specialVar(t, v, seg, c)
				}
			}
			// declare -n r; r=VALUE: VALUE names the variable r refers to,
			// and a subscript in it is evaluated whenever r is used.
			w.varName(v, seg, "the reference "+name)
			w.ref(name, v)
		}
	}
	if w.isInteger(name) {
		// declare -i y; y=x+1 (or y=(x) for an integer array): the value
		// is evaluated as arithmetic, and so are the variables it names.
		if a.Array != nil {
			for _, el := range a.Array.Elems {
				if el.Value != nil {
					w.arithValue(el.Value, owner)
				}
			}
		} else if a.Value != nil {
			w.arithValue(a.Value, owner)
		}
	}
	if a.Index != nil {
		start := len(w.arith)
		w.arithm(a.Index, c.with("arith"), owner)
		if !c.within("arith") {
			w.subscriptOf(start, name)
		}
	}
	seg.Assigns = append(seg.Assigns, Assign{Name: name, Value: v.Value, Dynamic: v.Dynamic})
	if w.countWords(1) {
		return
	}
	switch {
	case a.Append && a.Value != nil && numeric(a.Value) && len(w.names[name]) == 0:
		// n+=1 to a value with no name in it (declare -i n=3; n+=1):
		// digits added or appended to digits and operators still name
		// no variable and hold no subscript
	case a.Append:
		// x+=0 after x=a makes a0: text the command does not spell out
		w.tainted[name] = true
	case a.Value != nil && numeric(a.Value):
		// x=$((x+1)): the value is a number, whatever the expression's
		// variables hold (their own uses are checked where they are read).
	case a.Value != nil && numericSubst(a.Value) != "":
		// n=$(ls | wc -l): numbers, if wc is the program (see finish)
		w.numericUses = append(w.numericUses, numericUse{prog: numericSubst(a.Value), name: name})
	case v.Dynamic || strings.ContainsAny(v.Value, "[$`"):
		w.tainted[name] = true
	default:
		// arithmetic evaluates every name in the value (x=b, x='a-b',
		// x='1+b'), and each of those names' values in turn
		for _, m := range arithNames.FindAllStringSubmatch(v.Value, -1) {
			switch n := m[1]; {
			case slices.Contains(w.names[name], n):
			case len(w.names[name]) >= maxWritten:
				w.tainted[name] = true
			default:
				w.names[name] = append(w.names[name], n)
			}
		}
	}
	w.specialVar(name, v, seg, c)
}

// meaningful reports a variable whose value, or absence, changes what
// runs or where (specialName, or one of unsetResolves).
func (w *walker) meaningful(name string) bool {
	return w.specialName(name) || slices.Contains(unsetResolves, name)
}

// specialName reports whether specialVar may have something to say about
// an assignment to name: the names of its cases below (IFS only matters as
// a prefix of read).
func (w *walker) specialName(name string) bool {
	cat := w.p.cat
	return matchAny(cat.EnvCommands, name) || contains(cat.PromptVars, name) || name == "PATH" || name == "HISTFILE" || strings.HasPrefix(name, "GIT_TRACE") ||
		(matchAny(cat.EnvUnprovable, name) && !matchAny(cat.EnvInert, name))
}

// gitTraceVar reports git's trace variables (GIT_TRACE, GIT_TRACE_PACKET,
// GIT_TRACE2, GIT_TRACE2_PERF...): a value of digits or true traces to a
// descriptor, a path to a file.
func gitTraceVar(name string) bool {
	return name == "GIT_TRACE" || name == "GIT_TRACE2" || strings.HasPrefix(name, "GIT_TRACE_") || strings.HasPrefix(name, "GIT_TRACE2_")
}

// specialVar checks assignments to variables whose value is code. A case
// added here needs its name in specialName.
func (w *walker) specialVar(name string, v Word, seg *Segment, c *ctx) {
	cat := w.p.cat
	switch {
	case matchAny(cat.EnvCommands, name):
		if v.Dynamic {
			seg.addFinding(FindEnvCode, name+" is set to a command that is not known statically")
		} else if v.Value != "" {
			// the program that runs it may run it elsewhere (git runs
			// GIT_EDITOR at the top of the work tree)
			// with the program's input: an editor git starts reads the
			// keys typed from it (printf ':!cmd' | EDITOR=vim git commit)
			w.script(cat.withFileWord(name, v.Value), seg, "env "+name, c.elsewhere(), false)
		}
	case contains(cat.PromptVars, name):
		if v.Dynamic {
			seg.addFinding(FindEnvCode, name+" is set to a prompt string that is not known statically")
			return
		}
		word, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(v.Value))
		if err != nil {
			seg.addFinding(FindEnvCode, name+" is set to a prompt string that cannot be parsed")
			return
		}
		if word == nil {
			return // an empty prompt string runs nothing
		}
		child := w.child(v.Value)
		ic := w.innerCtx(seg, "prompt "+name, c, true)
		child.wordParts(word.Parts, ic, fixed(seg))
	case name == "PATH" && !v.Dynamic && (strings.HasPrefix(v.Value, "$PATH:") || strings.HasPrefix(v.Value, "${PATH}:")):
		// Appending to PATH keeps how existing names resolve.
	case name == "PATH" && v.Dynamic && appendsPath(v.Value):
	case name == "IFS" && w.prefixOfRead:
		// IFS= read -r line: the assignment lasts for read only, and
		// only changes how the line read is split.
	case gitTraceVar(name) && v.Dynamic:
		seg.addFinding(FindEnvCode, name+"="+clip(v.Value)+" may make git write its trace to a file not known statically")
	case gitTraceVar(name) && strings.Contains(v.Value, "/"):
		// GIT_TRACE=1 (2, true) traces to stderr; an absolute path makes
		// git write that file (GIT_TRACE2: files in that directory), or
		// connect to a socket (af_unix:PATH): the path rules decide.
		p := v.Value
		for _, prefix := range []string{"af_unix:", "stream:", "dgram:"} {
			p = strings.TrimPrefix(p, prefix)
		}
		seg.Writes = append(seg.Writes, Word{Value: p})
	case name == "HISTFILE":
		// bash writes its history list to HISTFILE: an interactive shell
		// when it exits, history -w and -a without a file name.
		seg.Writes = append(seg.Writes, v)
	case name == "GIT_DIR" && !v.Dynamic && path.Clean(v.Value) == ".git":
		// GIT_DIR=.git git log: the repository git finds by itself in
		// the directory it runs in (as --git-dir=.git is).
	case (strings.HasSuffix(name, "FLAGS") || name == "CC" || name == "CXX" || name == "CPP") && compilerRuns(v.Value):
		// CFLAGS=-B. make: make's rules give them to the compiler (a
		// value known at run time is read as written: -B$D)
		seg.addFinding(FindEnvCode, name+"="+clip(v.Value)+" holds a compiler option that runs programs gate does not see")
	case !v.Dynamic && inertValue(cat.EnvInertValues, name, v.Value):
		// NODE_OPTIONS=--max-old-space-size=4096: options known to run
		// nothing and to name no file
	case matchAny(cat.EnvUnprovable, name) && !matchAny(cat.EnvInert, name):
		seg.addFinding(FindEnvCode, "setting "+name+" changes which code runs in a way that cannot be checked")
	}
}

// setOptions checks set's options against the ones gate models: others
// (set -k, set -o posix) change how bash reads what follows.
func (w *walker) setOptions(seg *Segment, words []wordInfo) {
	inert := w.p.cat.ShellOptions
	for i := 1; i < len(words); i++ {
		wd := words[i]
		if wd.Dynamic {
			seg.addFinding(FindRebindsCommands, "set is given an option that is not known statically: "+wd.Value)
			return
		}
		v := wd.Value
		if v == "--" || v == "-" || len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			return // the rest are positional parameters
		}
		for _, l := range v[1:] {
			if l == 'o' {
				if i+1 >= len(words) {
					return // set -o lists the options
				}
				i++
				if words[i].Dynamic || !contains(inert.SetNames, words[i].Value) || v[0] == '+' && words[i].Value == "braceexpand" {
					seg.addFinding(FindRebindsCommands, "set "+v[:1]+"o "+words[i].Value+" changes how bash reads commands in a way gate does not model")
				}
				continue
			}
			// set +B: braces stay words ({a,b} is a name), where gate
			// expands them
			if !strings.ContainsRune(inert.SetLetters, l) || v[0] == '+' && l == 'B' {
				seg.addFinding(FindRebindsCommands, "set "+string(v[0])+string(l)+" changes how bash reads commands in a way gate does not model")
			}
		}
	}
}

// shoptOptions checks the options shopt turns on or off against the ones
// gate models (cdable_vars, expand_aliases, sourcepath... are not).
func (w *walker) shoptOptions(seg *Segment, words []wordInfo) {
	inert := w.p.cat.ShellOptions
	changes, setNames := false, false
	var names []wordInfo
	for _, wd := range words[1:] {
		switch {
		case wd.Dynamic:
			names = append(names, wd)
		case isOption(wd.Value):
			changes = changes || strings.ContainsAny(wd.Value, "su")
			setNames = setNames || strings.Contains(wd.Value, "o")
		default:
			names = append(names, wd)
		}
	}
	if !changes {
		return
	}
	for _, n := range names {
		ok := !n.Dynamic && ((setNames && contains(inert.SetNames, n.Value)) || (!setNames && contains(inert.Shopt, n.Value)))
		if !ok {
			seg.addFinding(FindRebindsCommands, "shopt "+n.Value+" changes how bash reads commands in a way gate does not model")
		}
	}
}

// unsetResolves are the variables whose absence, not only their value,
// changes what runs or where: bash then takes HOME from the password
// database, a default PATH, ~- stays as written, and backups take "~".
var unsetResolves = []string{"HOME", "PATH", "OLDPWD", "SIMPLE_BACKUP_SUFFIX"}

// unsetMatters reports an unset that may take away one of unsetResolves:
// its name, a name the word matches as a pattern (unset PAT[H] when a file
// PATH is there), or a name the nameref refers to.
func unsetMatters(word, name string, refs []string) bool {
	for _, r := range unsetResolves {
		if ok, _ := path.Match(word, r); ok || name == r || slices.Contains(refs, r) {
			return true
		}
	}
	return false
}

// varName checks a word bash reads as a variable name (unset NAME,
// printf -v NAME, read NAME, test -v NAME, declare -n r=NAME): a subscript
// in it is evaluated as arithmetic, which runs the command substitutions it
// holds, and a name bash gives a meaning to changes what runs.
func (w *walker) varName(v Word, seg *Segment, via string) {
	w.varNameUse(v, seg, via, true)
}

// globOnly reports a word that is only known at run time because it is a
// pattern (no expansion, no quoting in it).
func globOnly(v wordInfo) bool {
	return v.Dynamic && v.glob && !strings.ContainsAny(v.Value, "$`'\"\\")
}

// subscriptPattern is NAME[CHARS]: as a pattern it matches only NAME
// followed by one of CHARS, a plain name.
// arithNames finds the names arithmetic would read in a value: words of
// name characters that do not start with a digit (0x1F and 10#12 are
// numbers).
var arithNames = regexp.MustCompile(`(?:^|[^A-Za-z0-9_#])([A-Za-z_][A-Za-z0-9_]*)`)

var subscriptPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\[[A-Za-z0-9_]+\]$`)

// varNameUse checks a variable name a builtin is given: a subscript in it
// is evaluated as arithmetic; when the builtin sets the variable (sets),
// one that changes what runs is unprovable. declare -p NAME and test -v
// NAME only read it.
func (w *walker) varNameUse(v Word, seg *Segment, via string, sets bool) {
	if v.Dynamic {
		seg.addFinding(FindArithInjection, via+" is given a variable name that is not known statically: "+clip(v.Value))
		return
	}
	name, sub, hasSub := strings.Cut(v.Value, "[")
	if hasSub {
		sub = strings.TrimSuffix(sub, "]")
		if strings.ContainsAny(sub, "$`") {
			seg.addFinding(FindArithInjection, via+" evaluates the subscript of "+clip(v.Value)+", whose expansions run as code")
		}
		w.arithTextAssigns(sub, fixed(seg))
		for _, f := range strings.FieldsFunc(sub, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			if isName(f) {
				w.arith = append(w.arith, arithUse{name: f, owner: fixed(seg), code: FindArithInjection})
			}
		}
	}
	cat := w.p.cat
	if via == "unset" {
		if unsetMatters(v.Value, name, w.refs[name]) {
			seg.addFinding(FindEnvCode, "unset "+clip(v.Value)+" may take away HOME, PATH, OLDPWD or SIMPLE_BACKUP_SUFFIX, which changes what runs or where")
		}
		// otherwise the value goes, and with it the code or options it
		// named: the command runs as it would have without it
		return
	}
	if sets && (matchAny(cat.EnvUnprovable, name) && !matchAny(cat.EnvInert, name) || matchAny(cat.EnvCommands, name) || contains(cat.PromptVars, name)) {
		seg.addFinding(FindEnvCode, via+" sets "+name+", which changes what runs in a way that cannot be checked")
	}
}

// expandText walks text that bash expands like a double-quoted string
// (compgen -W, single quotes inside "${x:-...}") for the commands it runs.
func (w *walker) expandText(v Word, seg *Segment, via string, c *ctx) {
	if v.Dynamic {
		seg.addFinding(FindDynamicScript, via+" expands text that is not known statically: "+clip(v.Value))
		return
	}
	if !strings.ContainsAny(v.Value, "$`") {
		return
	}
	word, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(v.Value))
	if err != nil {
		seg.addFinding(FindUnsupportedShell, via+" expands text that cannot be parsed: "+clip(v.Value))
		return
	}
	if word == nil {
		return
	}
	child := w.child(v.Value)
	child.wordParts(word.Parts, w.innerCtx(seg, via, c, true), fixed(seg))
}

// inertValue reports a value of name whose every word (split at blanks
// and commas) matches one of the patterns env_inert_values gives for
// name, made of letters, digits and . _ : = + , - only (gradlew and
// catalina.sh eval JAVA_OPTS: "$", ";", quotes would be code there).
func inertValue(values map[string][]string, name, value string) bool {
	pats := values[name]
	if len(pats) == 0 || strings.TrimSpace(value) == "" {
		return false
	}
	// letters, digits and . _ : = + , - alone: no expansion, quote,
	// separator or pattern a launcher that evals the value would run
	for _, r := range value {
		if !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" \t._:=+,-", r))) {
			return false
		}
	}
	for _, f := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if !slices.ContainsFunc(pats, func(p string) bool { ok, _ := path.Match(p, f); return ok }) {
			return false
		}
	}
	return true
}

func appendsPath(raw string) bool {
	raw = strings.Trim(raw, `"`)
	for _, p := range []string{"$PATH:", "${PATH}:"} {
		if strings.HasPrefix(raw, p) && !strings.ContainsAny(raw[len(p):], "$`") {
			return true
		}
	}
	return false
}

// analyze fills in a command segment from its expanded words and unwraps the
// commands it runs.
func (w *walker) analyze(seg *Segment, words []wordInfo, c *ctx, stdinLit *string) {
	for i, wd := range words {
		seg.Argv = append(seg.Argv, wd.Value)
		if wd.Dynamic {
			seg.Dynamic = append(seg.Dynamic, i)
		}
	}
	first := words[0]
	seg.RawProgram = first.raw
	if seg.RawProgram == "" {
		seg.RawProgram = first.Value
	}
	switch {
	case first.Dynamic && first.glob:
		seg.addFinding(FindGlobProgram, "the command name "+first.Value+" is a pattern that file names replace at run time")
	case first.Dynamic:
		seg.addFinding(FindDynamicProgram, "the command name "+first.Value+" is not known statically")
	case strings.Contains(first.Value, "/"):
		seg.ProgramPath = first.Value
		seg.Program = path.Base(first.Value)
		if isFdDevice(first.Value) {
			// /dev/fd/3 x 3</bin/rm runs what the redirection opened
			seg.addFinding(FindDynamicProgram, "runs "+first.Value+", the file a descriptor holds, which is only known at run time")
		}
	default:
		seg.Program = first.Value
	}
	if seg.ProgramPath == "" && seg.Program != "" && c.funcs.names[seg.Program] {
		seg.FunctionCall = true
	}
	if !seg.FunctionCall {
		otherRoots(seg, words)
	}
	if seq, ok := w.funcRuns[seg.Program]; ok && seg.ProgramPath == "" && (w.writeSeq > seq || w.overflow) {
		// f() { npm test; }; npm pkg set scripts.test=...; f
		seg.addFinding(FindScriptFile, "the function "+seg.Program+" runs programs that may run code this command writes after defining it")
	}
	spec := w.p.cat.program(seg.Program)
	if seg.FunctionCall {
		spec = nil
	}
	if spec != nil && spec.OldStyle {
		// tar cIf PROG FILE is tar -c -I PROG -f FILE, options and values
		// as the program reads them (tar xgCf -c DIR a.tar: -c is -g's)
		if ow := oldStyle(words, spec); ow != nil {
			words = ow
		}
	}
	sc := scan(words, spec)
	w.views(seg, words, spec, sc)
	if spec != nil && len(spec.Modes) > 0 {
		// cmake -E env CMD: the rest is read as the mode reads it.
		words, spec = w.mode(seg, words, spec)
		sc = scan(words, spec)
	}
	if spec != nil && spec.SubcommandNames != nil {
		// npm exe is npm exec
		words = w.subcommandName(seg, words, spec, sc)
		sc = scan(words, spec)
	}
	for _, v := range sc.unread {
		seg.addFinding(FindUnknownOption, seg.Program+" is given "+clip(v)+", an option only known at run time: it may be one that runs a command or writes a file")
	}
	if seg.ProgramPath != "" && !seg.FunctionCall && w.wasWritten(seg.ProgramPath) && !w.runContent(seg, seg.ProgramPath, c) {
		seg.addFinding(FindScriptFile, "runs "+seg.ProgramPath+", which this command writes first")
	} else if seg.ProgramPath != "" && !seg.FunctionCall && !w.wasWritten(seg.ProgramPath) && !systemPath(seg.ProgramPath) {
		// a script of the project run by its path (./run.sh), in a
		// language only its first line says: it may source or import
		// any file the command wrote before it
		if f, ok := w.writtenEnding([]string{""}); ok {
			seg.addFinding(FindScriptFile, "runs "+seg.ProgramPath+", which may load "+f+", a file this command writes first")
		}
	}
	if seg.ProgramPath == "" && !seg.FunctionCall && slices.Contains(declBuiltins, seg.Program) {
		w.declCall(seg, words, c)
	}
	w.recordContent(seg, words, stdinLit)
	if !w.p.exec && seg.Program != "" {
		w.optionGlobs(seg, words, spec)
	}
	defer w.recordWrites(seg, spec, c.cwd.dirs)
	if !seg.FunctionCall {
		// The files written before the program starts (not those the
		// commands it runs write: npx tsc -p tsconfig.json), reported
		// after the other checks, which may name the file already.
		found, ok := w.writtenEnding(w.p.cat.ProjectRunners[seg.Program])
		defer w.projectRunner(seg, found, ok)
	}
	if !seg.FunctionCall && w.p.cat.Extractor(seg.Program) {
		w.extracts(seg, words, c, sc)
		n := len(seg.Writes)
		extractDir(seg, words, sc)
		if len(seg.Writes) == n && !makesOrLists(seg, words) && extractDirOptions[seg.Program] != nil {
			// no -C DIR: the members land where it runs (cd ../x && tar xf
			// a.tar writes outside the root)
			seg.Writes = append(seg.Writes, Word{Value: "."})
		}
		// an archive or patch may hold symbolic links: a path named after
		// it may lead through one (tar xf a.tar; cp h x/pre-commit)
		seg.Relinks = seg.Relinks || !makesOrLists(seg, words)
	}
	if !seg.FunctionCall && seg.ProgramPath == "" {
		switch seg.Program {
		case "set":
			// set -- ARGS (or set ARGS) sets the positional parameters
			w.setPositional = w.setPositional || len(words) > 1
			w.setOptions(seg, words)
		case "shopt":
			w.shoptOptions(seg, words)
		case "trap":
			w.traps = append(w.traps, trapSet{seg: seg, seq: w.writeSeq, dirChanges: w.dirChanges})
		case "getopts":
			// getopts OPTSTRING NAME stores each option letter in NAME
			if len(words) > 2 {
				w.varName(words[2].Word, seg, "getopts")
			}
		}
	}
	var stdin []string // what a command the program may run reads
	switch {
	case stdinLit != nil:
		stdin = []string{*stdinLit}
	case c.stdin:
		stdin = []string{unknownStdin}
	}
	if spec == nil {
		if !seg.FunctionCall && seg.Program != "" && !w.p.exec && !w.p.cat.DataOperand(seg.Program) {
			w.maybeRuns(seg, words, stdin...)
			w.writtenCode(seg, words)
		}
		return
	}
	// a version of a program that is not an interpreter (pip3.11, tee2)
	// is read as that program and, as a program gate does not know, as
	// one that may run its arguments: the name may be anything's;
	versionOnly := w.p.cat.Programs[seg.Program] == nil && !w.p.cat.interpreter(w.p.cat.versioned(seg.Program))
	// so is a file of the project that has a known program's name
	// (./perl, a link to bash an earlier call made)
	projectFile := seg.ProgramPath != "" && !systemPath(seg.ProgramPath)
	if (spec.MaybeRuns || versionOnly || projectFile) && !seg.FunctionCall && !w.p.exec {
		w.maybeRuns(seg, words, stdin...)
		w.writtenCode(seg, words)
	}
	if spec.ResponseFiles {
		for _, i := range sc.operands {
			if v, ok := strings.CutPrefix(words[i].Value, "@"); ok && !words[i].Dynamic {
				w.programFile(seg, Word{Value: v}, seg.Program+" @"+v, c)
			}
		}
	}
	specFindings(seg, words, spec, sc)
	if len(spec.PassArgs) > 0 {
		// cargo rustc -- ARGS: ARGS are the compiler's, read with its
		// entry for what they make it run or write
		for sub, prog := range spec.PassArgs {
			if k := slices.IndexFunc(words, func(wd wordInfo) bool { return !wd.Dynamic && wd.Value == "--" }); k > 0 && subcommandIs(words[:k], scan(words[:k], spec), spec, strings.Fields(sub)) {
				if ps := w.p.cat.program(prog); ps != nil {
					pw := append([]wordInfo{{Word: Word{Value: prog}}}, words[k+1:]...)
					specFindings(seg, pw, ps, scan(pw, ps))
				}
			}
		}
	}
	w.writes(seg, words, spec, sc)
	if spec.Getopt != nil && spec.Wrapper == nil {
		w.unknownOptions(seg, words, spec)
	}
	if spec.ConfigSets != nil {
		w.configSets(seg, words, spec, sc)
	}
	if spec.VarOperands {
		w.varOperands(seg, words, sc, c)
		w.varFiles(seg, words, spec, sc, c)
	}
	for _, form := range spec.EditorForms {
		if (stdinLit != nil || c.stdin) && subcommandIs(words, sc, spec, strings.Fields(form)) {
			seg.addFinding(FindInlineCode, seg.Program+" "+form+" starts an editor, which reads the keys typed from this command's input")
		}
	}
	for _, form := range spec.EditsConfig {
		if subcommandIs(words, sc, spec, strings.Fields(form)) {
			for _, f := range spec.ConfigFiles {
				// written for what runs after it, not read back by it
				defer w.noteWritten(f)
			}
		}
	}
	if spec.DefinesAliases {
		for _, i := range sc.operands {
			if words[i].Dynamic || strings.Contains(words[i].Value, "=") {
				w.aliases = append(w.aliases, seg)
				break
			}
		}
	}
	if spec.ChangesDir {
		w.chdir(words, sc, c)
	}
	if seg.Program == "unset" && !seg.FunctionCall {
		for _, i := range sc.operands {
			if v := words[i]; v.Dynamic {
				w.assocUnknown = true
			} else {
				w.notAssocName(strings.SplitN(v.Value, "[", 2)[0])
			}
		}
		// a function unset removes is a program again for the calls after
		// it (env() { :; }; unset env; env rm x runs env)
		for _, i := range sc.operands {
			if v := words[i]; v.Dynamic || v.glob {
				c.funcs.undefine("")
			} else {
				c.funcs.undefine(v.Value)
			}
		}
	}
	for _, t := range spec.VarNames {
		if t == "*" {
			for _, i := range sc.operands {
				v := words[i]
				if globOnly(v) && subscriptPattern.MatchString(v.Value) {
					// unset a[1]: bash may replace the pattern by a
					// file name it matches (a1), a plain name; as
					// written, the subscript is literal
					v.Dynamic = false
				}
				w.varName(v.Word, seg, seg.Program)
			}
			continue
		}
		for _, v := range sc.values[t] {
			w.varName(v, seg, seg.Program+" "+t)
		}
	}
	if spec.TestVar {
		for i := 1; i+1 < len(words); i++ {
			if !words[i].Dynamic && words[i].Value == "-v" {
				w.varNameUse(words[i+1].Word, seg, seg.Program+" -v", false)
			}
		}
	}
	for _, opt := range spec.ExpandOptions {
		for _, v := range sc.values[opt] {
			w.expandText(v, seg, seg.Program+" "+opt, c)
		}
	}
	for _, t := range spec.Taints {
		if t == "*" {
			for _, i := range sc.operands {
				w.tainted[words[i].Value] = true
			}
			continue
		}
		for _, v := range sc.values[t] {
			w.tainted[v.Value] = true
		}
	}
	for _, opt := range spec.scriptOptions() {
		for _, v := range sc.values[opt] {
			if n := spec.ScriptOptionArgs[opt]; n > 0 && !v.Dynamic {
				// words only known at run time: no assignment of the
				// command's own can give them a value
				v.Value += strings.Repeat(` "$(exit)"`, min(n, 8))
			}
			w.scriptWord(v, seg, seg.Program+" "+opt, c, false)
			// tar --checkpoint-action=exec=CMD: the command follows a
			// KEY= of the option's own syntax, which a shell would read
			// as an assignment; the text after it is read as well.
			if key, rest, ok := strings.Cut(v.Value, "="); ok && !v.Dynamic && commandKey(key) {
				w.scriptWord(Word{Value: rest}, seg, seg.Program+" "+opt, c, false)
			}
		}
	}
	for _, opt := range spec.ProgramKeyOptions {
		for _, v := range sc.values[opt] {
			key, val, ok := strings.Cut(v.Value, "=")
			key, _, _ = strings.Cut(key, ":")
			if ok && matchAny(spec.ProgramKeys, key) {
				w.scriptWord(Word{Value: val, Dynamic: v.Dynamic}, seg, seg.Program+" "+opt+" "+key, c, false)
			}
			if ok && matchAny(spec.ProgramFileKeys, key) {
				for _, f := range strings.Split(val, ";") {
					w.programFile(seg, Word{Value: f, Dynamic: v.Dynamic}, seg.Program+" "+opt+" "+key, c)
				}
			}
		}
	}
	for _, opt := range spec.ConfigOptions {
		for _, v := range sc.values[opt] {
			w.configLine(v, seg, spec, seg.Program+" "+opt, c)
		}
	}
	switch {
	case spec.Wrapper != nil:
		w.wrapper(seg, words, spec, c, stdinLit)
	case spec.Shell != nil:
		w.shell(seg, words, spec, c, stdinLit)
	case spec.Git != nil:
		w.git(seg, words, spec, sc, c)
		if stdinLit != nil || c.stdin {
			w.gitEditorInput(seg, words, spec, sc)
		}
	}
	if spec.InlineCode != nil {
		w.inlineCode(seg, words, spec, sc, c, stdinLit)
	}
	if len(spec.ExecActions) > 0 {
		w.execActions(seg, words, spec, c)
	}
	scriptOperands := spec.ScriptOperands
	if slices.Contains(scriptOperands, -1) {
		// -1: every operand is a script (pee CMD...)
		scriptOperands = make([]int, min(len(sc.operands), maxArgCommands))
		for k := range scriptOperands {
			scriptOperands[k] = k
		}
		if len(sc.operands) > maxArgCommands {
			seg.addFinding(FindNestingTooDeep, seg.Program+" is given more than "+itoa(maxArgCommands)+" commands")
		}
	}
	for _, idx := range scriptOperands {
		if idx < len(sc.operands) {
			v := words[sc.operands[idx]]
			if v.Dynamic || (v.Value != "-" && v.Value != "") {
				w.scriptWord(v.Word, seg, seg.Program, c, true)
			}
		}
	}
	if spec.ScriptArgs && len(words) > 1 {
		w.scriptWord(joinWords(words[1:]), seg, seg.Program, c, true)
		seg.Transparent = true
	}
	if spec.SourceFile && len(sc.operands) > 0 {
		w.scriptFile(seg, words[sc.operands[0]:], seg.Program, c)
	}
	for _, opt := range spec.ProgramFileOptions {
		for _, v := range sc.values[opt] {
			w.programFile(seg, v, seg.Program+" "+opt, c)
		}
	}
	for _, f := range spec.ConfigFiles {
		if w.wasWritten(f) {
			seg.addFinding(FindScriptFile, seg.Program+" runs code from "+f+", which this command writes first")
		}
	}

	if spec.StdinScript != nil {
		w.stdinScript(seg, spec, sc, c, stdinLit)
	}
	if spec.CommandLanguage == "tmux" && !w.p.exec {
		w.tmux(seg, words, spec, c)
	}
	if spec.DirRunner != nil {
		w.dirRunner(seg, words, spec, sc)
	}
}

// stdinScript unwraps at and batch: a shell script read from stdin, or
// from a file (-f) whose content is not known.
func (w *walker) stdinScript(seg *Segment, spec *ProgramSpec, sc *scanResult, c *ctx, stdinLit *string) {
	ss := spec.StdinScript
	for _, o := range ss.NoExecOptions {
		if sc.hasOption(o) {
			return
		}
	}
	seg.Wrapper = true
	fileGiven := false
	for _, o := range ss.FileOptions {
		fileGiven = fileGiven || sc.hasOption(o)
	}
	switch {
	case fileGiven:
		seg.addFinding(FindScriptFile, seg.Program+" runs a script file whose content gate cannot check")
	case stdinLit != nil:
		w.script(*stdinLit, seg, seg.Program+" reading stdin", c, false)
	case c.stdin:
		seg.addFinding(FindStdinScript, seg.Program+" reads its script from standard input, which is not known statically")
	}
}

// recordWrites notes the files a segment may write, for later segments of
// the same command that run a file as code: its write redirections, the
// files its catalogue entry says it writes, and every operand of a program
// the catalogue neither describes nor lists as a reader.
func (w *walker) recordWrites(seg *Segment, spec *ProgramSpec, cwd []string) {
	// what a program writes where it runs is under the directories the
	// command went into (cd .mvn && gunzip *.gz)
	if len(seg.Writes) > 0 || slices.ContainsFunc(seg.Redirects, func(r Redirect) bool { return r.Write && !r.Dup }) {
		for _, d := range cwd {
			if d != "" && d != "." && d != ".." && len(w.writtenDirs) < maxWritten {
				w.writtenDirs[path.Base(d)] = true
			}
		}
	}
	for _, r := range seg.Redirects {
		if !r.Write && !r.Dup && !r.Dynamic && (r.Op == "<" || r.Op == "<>") && len(w.readOpened) < maxWritten {
			w.readOpened = append(w.readOpened, r.Target)
			if w.fdWrites {
				// f() { … > /dev/fd/3; }; f 3<t.py
				w.noteWritten(r.Target)
			}
		}
	}
	fdWrite := func(p string) {
		// > /dev/fd/3 after 3<f writes f
		if isFdDevice(p) {
			w.fdWrites = true
			for _, f := range w.readOpened {
				w.noteWritten(f)
			}
		}
	}
	for _, r := range seg.Redirects {
		if r.Write && !r.Dup && !r.Dynamic {
			w.noteWritten(r.Target)
			w.noteNamed(r.Target)
			w.noteDashName(r.Target)
			fdWrite(r.Target)
		}
	}
	for _, wd := range seg.Writes {
		if !wd.Dynamic {
			w.noteDashName(wd.Value)
			fdWrite(wd.Value)
		}
	}
	if spec == nil && seg.Program != "" && len(seg.Path) > 1 {
		for _, p := range seg.Path[1:] {
			w.noteDashName(p)
		}
	}
	for _, wd := range seg.Writes {
		if !wd.Dynamic && (spec == nil || spec.Writes == nil || !spec.Writes.ModeOnly) {
			w.noteWritten(wd.Value)
			w.noteNamed(wd.Value)
		}
	}
	if spec == nil && seg.Program != "" && !w.p.cat.Reader(seg.Program) && len(seg.Path) > 1 {
		for _, p := range seg.Path[1:] {
			w.noteWritten(p)
		}
	}
	if seg.Relinks && unknownNames(seg) {
		// tar xf a.tar, cp -a d/. ., git checkout: names only known at run
		// time, any of which may start with "-" (tar xf a.tar; tar cf x *)
		w.unknownNames = true
	}
	if w.p.cat.Extractor(seg.Program) {
		// tar cf x.tar, zip x.zip: an archiver writes files its arguments name
		for _, a := range seg.Argv[1:] {
			if _, v, ok := strings.Cut(a, "="); ok && isOption(a) {
				a = v
			}
			if !isOption(a) {
				w.noteWritten(a)
			}
		}
	}
}

// unknownNames reports whether a segment that makes names (Relinks) makes
// some known only at run time in the directory it runs in: it names no
// target, or "." or one known only at run time.
func unknownNames(seg *Segment) bool {
	if len(seg.Writes) == 0 {
		return true
	}
	for _, wd := range seg.Writes {
		if wd.Dynamic || path.Clean(wd.Value) == "." {
			return true
		}
	}
	return false
}

// maxDashNames bounds the names starting with "-" remembered as created.
const maxDashNames = 256

// noteDashName remembers a created name that starts with "-".
func (w *walker) noteDashName(p string) {
	if strings.Contains(path.Base(path.Clean(p)), "=") {
		w.eqNames = true // make reads NAME=VALUE as a definition
	}
	if base := path.Base(path.Clean(p)); strings.HasPrefix(base, "-") && !slices.Contains(w.dashNames, base) {
		if len(w.dashNames) >= maxDashNames {
			w.overflow = true
			return
		}
		w.dashNames = append(w.dashNames, base)
	}
}

// optionGlobs notes the patterns among the arguments, where the program
// still reads options, that bash may replace with a name starting with
// "-", which the program then reads as an option: tar cf x.tar * in a
// directory holding a file named --checkpoint-action=exec=sh s.sh runs
// s.sh (./* and -- are the safe spellings). A name this command creates
// first is a finding here; the names already in the directory are the
// engine's to check.
func (w *walker) optionGlobs(seg *Segment, words []wordInfo, spec *ProgramSpec) {
	endOpts := false
	for _, wd := range words[1:] {
		if !wd.Dynamic {
			if !endOpts && wd.Value == "--" {
				endOpts = true
			} else if !isOption(wd.Value) {
				endOpts = endOpts || spec.posixOptions()
			}
			continue
		}
		if endOpts {
			continue
		}
		if !mayGiveDashName(wd) {
			continue
		}
		seg.OptionGlobs = append(seg.OptionGlobs, wd.Value)
		first, _, _ := strings.Cut(OptionGlobPattern(wd.Value), "/")
		for _, name := range w.dashNames {
			if GlobMayMatch(first, name) {
				seg.addFinding(FindUnknownOption, "the pattern "+clip(wd.Value)+" may match "+clip(name)+", which this command creates first and "+seg.Program+" would read as an option")
				return
			}
		}
		if w.overflow || w.unknownNames && !expansionWord(wd.Value) {
			seg.addFinding(FindUnknownOption, "the pattern "+clip(wd.Value)+" may match a name starting with - that this command creates first, which "+seg.Program+" would read as an option")
			return
		}
	}
}

// expansionWord reports whether a dynamic word is made by an expansion
// ($f, $(ls), xargs's input) rather than by a pattern alone.
func expansionWord(word string) bool {
	return strings.ContainsAny(word, "$`") || word == inputWord
}

// mayGiveDashName reports whether a dynamic word may become a name from the
// directory that starts with "-": a pattern that may start with -, or an
// expansion with nothing known before it.
func mayGiveDashName(wd wordInfo) bool {
	if expansionWord(wd.Value) {
		return wd.Value == inputWord || optionPrefix(wd.Value) == ""
	}
	return wd.glob && mayGlobDash(wd.Value)
}

// OptionGlobPattern is the pattern the names a word of Segment.OptionGlobs
// may become match: the word's own, or * for an expansion.
func OptionGlobPattern(word string) string {
	if expansionWord(word) {
		return "*"
	}
	return word
}

// mayGlobDash reports whether the pattern's expansion may start with "-":
// it starts with a pattern character or an extended pattern.
func mayGlobDash(pattern string) bool {
	if pattern == "" {
		return false
	}
	switch pattern[0] {
	case '*', '?', '[', '-', '{':
		return true
	case '@', '+', '!':
		return len(pattern) > 1 && pattern[1] == '('
	}
	return false
}

// GlobMayMatch reports whether bash's pattern (one path component) may
// match name; a pattern path.Match cannot read (extended patterns) may.
func GlobMayMatch(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	// extended patterns, character classes ([[:punct:]]) and braces
	// ({*,}) are not path.Match's: they may match
	return ok || err != nil || strings.ContainsAny(pattern, "@+!({") || strings.Contains(pattern, "[:")
}

func (w *walker) noteWritten(p string) {
	// devices (2>/dev/null, >/dev/stderr) are no files a program loads
	if p == "" || p == "-" || strings.HasPrefix(p, "/dev/") {
		return
	}
	base := path.Base(path.Clean(p))
	if !w.written[base] && len(w.written) >= maxWritten {
		w.overflow = true
		return
	}
	w.written[base] = true
	w.writeCount[base]++
	w.writeSeq++
	for dir := path.Dir(path.Clean(p)); dir != "." && dir != "/" && len(w.writtenDirs) < maxWritten; dir = path.Dir(dir) {
		w.writtenDirs[path.Base(dir)] = true
	}
}

// noteNamed records a file that noteWritten recorded and the command
// surely names as written.
func (w *walker) noteNamed(p string) {
	if base := path.Base(path.Clean(p)); w.written[base] {
		w.named[base] = true
	}
}

// fdDevicePath is a path to one of a process's descriptors.
var fdDevicePath = regexp.MustCompile(`^(?:/dev/fd|/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/fd)/([0-9]+)$`)

// FdDevice returns the descriptor a path names a process's own open file
// by (/dev/stdout, /dev/fd/3, /proc/self/fd/3, /proc/PID/fd/3): what a
// redirection opened there.
func FdDevice(p string) (string, bool) {
	switch p = ProcRoot(path.Clean(p)); p {
	case "/dev/stdin":
		return "0", true
	case "/dev/stdout":
		return "1", true
	case "/dev/stderr":
		return "2", true
	}
	if m := fdDevicePath.FindStringSubmatch(p); m != nil {
		return m[1], true
	}
	return "", false
}

// procRootPrefix is the root directory of a process seen through /proc
// (/proc/self/root, /proc/PID/root): the machine's own.
var procRootPrefix = regexp.MustCompile(`^(?:/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/root)+(/|$)`)

// ProcRoot returns a clean absolute path with the /proc/self/root
// prefixes it starts with taken away: /proc/self/root/dev/stdin is
// /dev/stdin.
func ProcRoot(p string) string {
	if !strings.HasPrefix(p, "/proc/") {
		return p
	}
	return path.Clean("/" + procRootPrefix.ReplaceAllString(p, ""))
}

func isFdDevice(p string) bool {
	_, ok := FdDevice(p)
	return ok
}

// runsFiles reports a command segment whose program may run code from
// files: a script by its path, a function, a program gate does not know,
// or one the catalogue says runs or reads code (an interpreter, a shell, a
// wrapper, a project runner, a program with configuration files).
func (w *walker) runsFiles(s *Segment) bool {
	if s.Kind != KindCommand {
		return false
	}
	if s.ProgramPath != "" || s.FunctionCall || s.Program == "" {
		return true
	}
	spec := w.p.cat.program(s.Program)
	if spec == nil {
		// a program gate does not know, unless listed as one that reads
		// its operands as data or makes no file
		return !w.p.cat.Reader(s.Program) && !w.p.cat.MakesNoFile(s.Program) && !w.p.cat.DataOperand(s.Program)
	}
	return spec.InlineCode != nil || spec.Shell != nil || spec.Wrapper != nil || spec.SourceFile ||
		len(spec.ConfigFiles) > 0 || len(spec.ScriptOperands) > 0 || len(w.p.cat.ProjectRunners[s.Program]) > 0 || spec.MaybeRuns
}

// systemPath reports a program path in the system's own directories
// (/usr/bin/git), not a script of the project.
func systemPath(p string) bool {
	for _, d := range []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/libx32/"} {
		if strings.HasPrefix(path.Clean(p), d) {
			return true
		}
	}
	return false
}

// wasWritten reports whether a file of this name may have been written
// earlier in the command. Names are compared without their directory, so
// that a cd between the write and the use does not hide it.
func (w *walker) wasWritten(p string) bool {
	return p != "" && w.written[path.Base(path.Clean(p))]
}

// projectRunner reports a program that finds and runs code in the working
// directory by itself after the command wrote such a file (f, found before
// the program starts), unless a finding already says that the segment runs
// code this command writes.
func (w *walker) projectRunner(seg *Segment, f string, written bool) {
	for _, f := range seg.Findings {
		if f.Code == FindScriptFile || f.Code == FindInlineCode {
			return
		}
	}
	if written {
		seg.addFinding(FindScriptFile, seg.Program+" finds and runs code such as "+f+", which this command writes first")
	}
}

// writtenName returns a file name written earlier in the command that is
// among names (one when gate stopped counting).
func (w *walker) writtenName(names map[string]bool) (string, bool) {
	if w.overflow {
		return "(more files than gate counts)", true
	}
	for name := range w.written {
		if names[name] {
			return name, true
		}
	}
	return "", false
}

// writtenEnding returns a file name written earlier in the command that
// ends with one of endings (all of them when gate stopped counting).
func (w *walker) writtenEnding(endings []string) (string, bool) {
	if len(endings) == 0 {
		return "", false
	}
	if w.overflow {
		return "(more files than gate counts)", true
	}
	// "DIR/" is any file under a directory of that name, "DIR/NAME" a
	// file NAME under one (names are remembered without their directory,
	// the directories' names apart)
	for _, e := range endings {
		dir, name, ok := strings.Cut(e, "/")
		// the directory itself may be written: made, copied, moved or
		// linked into place (cp -r x node_modules, mv x .mvn)
		if !ok || !w.writtenDirs[path.Base(dir)] && !w.written[path.Base(dir)] {
			continue
		}
		if name == "" || w.written[name] {
			return e, true
		}
	}
	for name := range w.written {
		for _, e := range endings {
			// "" is any name the command surely writes: a program gate
			// does not know given a name (./tool data.json) is not
			// counted there
			if e == "" && w.named[name] || e != "" && !strings.Contains(e, "/") && strings.HasSuffix(name, e) {
				return name, true
			}
		}
	}
	return "", false
}

// maxWritten bounds the file names remembered as written by one command.
const maxWritten = 4096

// configLine reads a configuration line given as an option's value
// (ssh -o ProxyCommand=CMD, -o "LocalCommand CMD"): a key naming a command
// has a shell command as value, a code key is unprovable, and a line not
// known statically may be either.
func (w *walker) configLine(v Word, seg *Segment, spec *ProgramSpec, via string, c *ctx) {
	// ssh reads -o=KEY=VALUE as the line "=KEY=VALUE", whose leading
	// separators it skips
	line := strings.TrimLeft(v.Value, " \t=")
	end := strings.IndexAny(line, "= \t")
	if end < 0 {
		end = len(line)
	}
	key := strings.ToLower(line[:end])
	if spec.ConfigKeyIgnore != "" {
		key = strings.Map(func(r rune) rune {
			if strings.ContainsRune(spec.ConfigKeyIgnore, r) {
				return -1
			}
			return r
		}, key)
	}
	if v.Dynamic && (end == len(line) || !isName(line[:end])) {
		seg.addFinding(FindUnknownOption, via+" is given a setting not known statically ("+v.Value+"): it may name a command to run")
		return
	}
	value := strings.TrimLeft(line[end:], " \t")
	value = strings.TrimLeft(strings.TrimPrefix(value, "="), " \t")
	switch {
	case contains(spec.ConfigCodeKeys, key):
		seg.addFinding(FindUnknownOption, via+" "+line[:end]+" makes "+seg.Program+" run or load code that cannot be checked")
	case commandKey(key) && value != "" && strings.ToLower(value) != "none":
		w.scriptWord(Word{Value: value, Dynamic: v.Dynamic}, seg, via+" "+line[:end], c, false)
	}
}

// commandKey reports whether KEY of an option value KEY=TEXT names a command
// to run (tar's exec=, ssh's ProxyCommand=).
func commandKey(key string) bool {
	k := strings.ToLower(key)
	return k == "exec" || strings.HasSuffix(k, "command")
}

// scriptOptions returns the options whose value is a shell script run
// besides the program's other work (npm config edit --editor CMD, whatever
// the subcommand; parallel --ssh CMD besides its jobs). A wrapper's
// options whose value is the command it runs instead (su -c) are its
// wrapper's script_options.
func (p *ProgramSpec) scriptOptions() []string {
	return p.ScriptOptions
}

// posixOptions reports whether option parsing stops at the first operand.
func (p *ProgramSpec) posixOptions() bool {
	if p != nil && p.Getopt != nil {
		return p.Getopt.posix
	}
	// a wrapper only after a subcommand (npm exec) reads its options
	// after the subcommand too
	return p != nil && (p.PosixOptions || p.Wrapper != nil && len(p.Wrapper.Subcommands) == 0 || p.Shell != nil)
}

// scanResult is argv read with the program's option arity: options (split,
// canonical), option values, and operand indexes.
type scanResult struct {
	options  []string
	values   map[string][]Word
	operands []int
	// sub is git's subcommand, once read (git -C d commit: commit).
	sub string
	// unread are words not known statically that may spell options gate
	// cannot read (-v$X), given to a program with options that run or
	// write something.
	unread []string
	// split holds optionNames of the option words read, by index, for
	// views to read the same words again without splitting them again.
	split []optionSplit
	// sorted is options sorted and without repeats, made on first use
	// (sortedOptions).
	sorted []string
}

// optionSplit is what optionNames gave for one word.
type optionSplit struct {
	names    []string
	attached bool
}

// optionNames returns optionNames(words[i].Value, spec), as scan found it
// when it read the word.
func (s *scanResult) optionNames(words []wordInfo, i int, spec *ProgramSpec) ([]string, bool) {
	if s != nil && i < len(s.split) && s.split[i].names != nil {
		return s.split[i].names, s.split[i].attached
	}
	names, _, attached := optionNames(words[i].Value, spec)
	return names, attached
}

// hasOption reports whether opt is among the options. Findings test a long
// list of options (a compiler's) against every option of a word split
// into letters, so beyond a few options it searches the sorted ones.
func (s *scanResult) hasOption(opt string) bool {
	if len(s.options) <= 8 {
		return contains(s.options, opt)
	}
	_, ok := slices.BinarySearch(s.sortedOptions(), opt)
	return ok
}

// sortedOptions returns the options sorted and without repeats, made once.
func (s *scanResult) sortedOptions() []string {
	if s.sorted == nil {
		s.sorted = uniqueSorted(s.options)
	}
	return s.sorted
}

// hasValue reports, for OPT=PATTERN, whether option OPT was given a value
// that PATTERN matches (as a whole, or its base name: -f
// /usr/share/awk/inplace.awk matches -f=inplace.awk), or one not known
// statically.
func (s *scanResult) hasValue(spec string) bool {
	opt, pattern, _ := strings.Cut(spec, "=")
	return s.hasValueOf(opt, pattern)
}

// given reports whether an option entry is given: OPT=PATTERN with a value
// PATTERN matches, or the option itself.
func (s *scanResult) given(w whenSpec) bool {
	if w.optValue {
		return s.hasValueOf(w.opt, w.pattern)
	}
	return s.hasOption(w.text)
}

// hasValueOf is hasValue of OPT=PATTERN, read.
func (s *scanResult) hasValueOf(opt, pattern string) bool {
	for _, v := range s.values[opt] {
		if v.Dynamic {
			return true
		}
		// * crosses slashes: -ldflags=*extld* matches -extld=./ld
		if matchAcross([]string{pattern}, v.Value) {
			return true
		}
		if ok, _ := path.Match(pattern, path.Base(v.Value)); ok {
			return true
		}
	}
	return false
}

func (s *scanResult) hasWord(words []wordInfo, v string) bool {
	for _, wd := range words[1:] {
		if !wd.Dynamic && wd.Value == v {
			return true
		}
	}
	return false
}

// hasOperandPrefix reports, for a pattern PREFIX* (not a bare *), whether an
// operand starts with PREFIX, or is dynamic and may ("!$c", '!'"$c", "$c");
// for *TEXT*, whether any argument, option or operand, holds TEXT.
func (s *scanResult) hasOperandPrefix(words []wordInfo, pattern string) bool {
	prefix, ok := strings.CutSuffix(pattern, "*")
	if !ok || prefix == "" {
		return false
	}
	if text, ok := strings.CutPrefix(prefix, "*"); ok && text != "" {
		// *TEXT*: any argument holding TEXT (parallel's {= perl =})
		for _, wd := range words[1:] {
			if strings.Contains(wd.Value, text) {
				return true
			}
		}
		return false
	}
	// (?i)PREFIX*: in any letter case (curl's FILE:// is file://)
	fold := func(v string) string { return v }
	if p, ok := strings.CutPrefix(prefix, "(?i)"); ok {
		prefix, fold = strings.ToLower(p), strings.ToLower
	}
	for _, i := range s.operands {
		wd := words[i]
		if !wd.Dynamic && strings.HasPrefix(fold(wd.Value), prefix) {
			return true
		}
		if folded := wd; wd.Dynamic {
			folded.raw = fold(wd.raw)
			if mayStartWith(folded, prefix) {
				return true
			}
		}
	}
	return false
}

func isOption(v string) bool { return len(v) > 1 && v[0] == '-' }

// optionNames splits one option word into option names. It returns the
// names, the value attached to the last one (--x=y, -ovalue) and whether
// one was attached.
func optionNames(v string, spec *ProgramSpec) ([]string, string, bool) {
	if spec != nil && spec.Getopt != nil {
		r := spec.Getopt.read(v)
		if r.unknown != "" {
			return append(r.names, r.unknown), "", false
		}
		return r.names, r.value, r.attached
	}
	if strings.HasPrefix(v, "--") || (spec != nil && spec.LongSingleDash) {
		// an option listed with its separator takes the rest of the word
		// (java -javaagent:x.jar, -XX:OnError=CMD, javac -J-XX:OnError=CMD)
		if opt := spec.multiLetterPrefix(v); strings.HasSuffix(opt, "=") || strings.HasSuffix(opt, ":") {
			return []string{opt}, v[len(opt):], true
		}
		name, val, ok := strings.Cut(v, "=")
		if strings.HasPrefix(name, "--") {
			name = spec.expandLong(name)
		}
		return []string{name}, val, ok
	}
	// A multi-letter option spelled with one dash that the entry lists
	// (zip -TT) is that option, not a cluster of letters.
	if name, val, ok := strings.Cut(v, "="); len(name) > 2 && spec.knowsOption(name) {
		return []string{name}, val, ok
	}
	if opt := spec.multiLetterPrefix(v); opt != "" {
		return []string{opt}, v[len(opt):], true // zip -TTcmd
	}
	names := make([]string, 0, len(v)-1)
	for i := 1; i < len(v); i++ {
		opt := shortOption(v[i])
		names = append(names, opt)
		if spec.takesValue(opt) && i+1 < len(v) {
			return names, v[i+1:], true
		}
	}
	return names, "", false
}

// shortOptions are the one-letter option names "-a" ... of every byte,
// made once: option words are split into them for every command and
// every exec.
var shortOptions = func() (t [256]string) {
	for c := range t {
		t[c] = "-" + string([]byte{byte(c)})
	}
	return t
}()

// shortOption returns "-" followed by the byte c.
func shortOption(c byte) string { return shortOptions[c] }

// operandsStartWith reports whether the operands begin with form's words
// (or one of them is not known statically).
func operandsStartWith(words []wordInfo, sc *scanResult, form []string) bool {
	for k, f := range form {
		if k >= len(sc.operands) {
			return false
		}
		wd := words[sc.operands[k]]
		if wd.Dynamic {
			return true
		}
		if wd.Value != f {
			return false
		}
	}
	return true
}

// subcommandIs reports whether the operands start with form, also after
// leading operands that may be the values of options the entry does not
// know (npm --loglevel silent explore: silent may be --loglevel's value).
func subcommandIs(words []wordInfo, sc *scanResult, spec *ProgramSpec, form []string) bool {
	return subcommandAt(words, sc, spec, form) >= 0
}

// subcommandAt returns the index in sc.operands where form starts (see
// subcommandIs), or -1.
func subcommandAt(words []wordInfo, sc *scanResult, spec *ProgramSpec, form []string) int {
	for _, k := range subcommandStarts(words, sc, spec) {
		if operandsStartWith(words, &scanResult{operands: sc.operands[k:]}, form) {
			return k
		}
	}
	return -1
}

// subcommandStarts returns the indexes in sc.operands where a subcommand
// may start: the first operand, and each one after an operand that may be
// the value of an option the entry does not know, written before it.
func subcommandStarts(words []wordInfo, sc *scanResult, spec *ProgramSpec) []int {
	var ks []int
	for k := range sc.operands {
		ks = append(ks, k)
		prev := words[sc.operands[k]-1]
		if prev.Dynamic || !isOption(prev.Value) || strings.Contains(prev.Value, "=") || spec.knowsOption(prev.Value) {
			break
		}
	}
	return ks
}

// varOperands reads the NAME=VALUE operands of a program that defines
// variables from them (make): a value with expansions ($(shell cmd),
// `cmd`) is code; a plain one may be a command the program runs
// (COMPILE.c=rm), read as the commands an unknown wrapper may run.
func (w *walker) varOperands(seg *Segment, words []wordInfo, sc *scanResult, c *ctx) {
	for _, i := range sc.operands {
		wd := words[i]
		name, val, ok := makeDefinition(wd.Value)
		if !ok {
			continue
		}
		switch {
		case strings.ContainsAny(name, "$`"):
			// a computed name is expanded: make '$(shell cmd)x=1' runs cmd
			seg.addFinding(FindInlineCode, seg.Program+" is given a variable whose name it expands, where functions such as $(shell ...) run commands: "+clip(name))
		case wd.Dynamic:
			seg.addFinding(FindDynamicScript, seg.Program+" is given a variable definition not known statically: "+clip(wd.Value))
		case strings.ContainsAny(val, "$`"):
			seg.addFinding(FindInlineCode, seg.Program+" is given the variable "+name+" with text it expands, where functions such as $(shell ...) run commands: "+clip(val))
		case strings.ContainsAny(val, "\\'\";|&<>()"):
			// CC='sh -c "r\m x"': recipes run the value in a shell, whose
			// quoting and operators the words read below do not see
			seg.addFinding(FindInlineCode, seg.Program+" is given the variable "+name+" with shell syntax, which its recipes may run as a command: "+clip(val))
		case compilerRuns(val):
			seg.addFinding(FindInlineCode, seg.Program+" is given the variable "+name+" with a compiler option that runs programs gate does not see: "+clip(val))
		case shellAssign(wd.Value):
			// make 'x != rm f': make runs the value with sh when it reads
			// the definition
			posixAgrees(seg, val, seg.Program+" "+name+" !=")
			w.script(val, seg, seg.Program+" "+name+" !=", c, false)
			if name == "SHELL" {
				seg.addFinding(FindDynamicScript, seg.Program+" runs its recipes with SHELL, set to the output of a command: "+clip(val))
			}
		case name == "SHELL" && val != "":
			// make SHELL='/bin/rm -f x --': each recipe runs as the
			// value's words, then -c and the recipe (one shell, as make's
			// own /bin/sh, runs the Makefile's recipes)
			if f := strings.Fields(val); len(f) == 1 && !strings.ContainsAny(f[0], "*?[") {
				if spec := w.p.cat.program(path.Base(f[0])); spec != nil && spec.Shell != nil {
					break
				}
			}
			w.script(val+" -c ''", seg, seg.Program+" SHELL", c, false)
		case val != "":
			w.maybeRuns(seg, []wordInfo{words[0], {Word: Word{Value: val}}})
		}
	}
}

// specFindings adds the catalogue findings of spec that words give.
func specFindings(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	for i := range spec.Findings {
		f := &spec.Findings[i]
		if len(f.Subcommands) > 0 && !slices.ContainsFunc(f.Subcommands, func(sub string) bool { return subcommandIs(words, sc, spec, strings.Fields(sub)) }) {
			continue
		}
		if len(f.With) > 0 && !slices.ContainsFunc(f.With, sc.hasOption) {
			continue
		}
		for _, when := range f.compiledWhens() {
			// an option is the program's own, not a word after -- (cargo
			// run -- --config x gives --config to the program it runs)
			if (when.text == "*" && len(sc.operands) > 0) || sc.hasOption(when.text) || !when.option && sc.hasWord(words, when.text) ||
				!when.optValue && sc.hasOperandPrefix(words, when.text) || when.optValue && sc.hasValueOf(when.opt, when.pattern) {
				seg.addFinding(f.Code, f.Message)
				break
			}
		}
	}
}

// shellAssign reports a make definition whose operator is != (NAME != CMD):
// make runs CMD in a shell and stores its output.
func shellAssign(v string) bool {
	name, _, _ := strings.Cut(v, "=")
	return strings.HasSuffix(strings.TrimRight(name, " \t"), "!")
}

// compilerRuns reports whether flags hold a C compiler option that makes
// it run or load programs (-B DIR: as, ld and cc1 from DIR; -wrapper,
// -specs, -fplugin; @FILE, more options): in CFLAGS given to make, the
// compiler its rules run reads them.
func compilerRuns(flags string) bool {
	for _, f := range strings.Fields(flags) {
		f = strings.TrimLeft(f, `"'`) // a value known at run time as written: "-B$D"
		if strings.HasPrefix(f, "-B") || strings.HasPrefix(f, "@") || strings.HasPrefix(f, "-wrapper") ||
			strings.HasPrefix(f, "-specs") || strings.HasPrefix(f, "--specs") || strings.HasPrefix(f, "-fplugin") ||
			strings.HasPrefix(f, "-Wl,") && strings.Contains(f, "plugin") || strings.HasPrefix(f, "-no-integrated-as") {
			return true
		}
	}
	return false
}

// makeDefinition reads an operand of make as make reads one containing
// "=": a variable definition NAME OP VALUE, where OP is =, :=, ::=, :::=,
// +=, ?= or != and blanks around NAME and OP are dropped (make 'x := y' is
// x := y). An "override" or "export" before NAME is part of it.
func makeDefinition(v string) (name, val string, ok bool) {
	name, val, ok = strings.Cut(v, "=")
	name = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(name), ":+?!"))
	for _, kw := range []string{"override", "export", "unexport", "private"} {
		if rest, found := strings.CutPrefix(name, kw); found && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			name = strings.TrimSpace(rest)
		}
	}
	if !ok || name == "" {
		return "", "", false
	}
	return name, strings.TrimLeft(val, " \t"), true
}

// plainVarName reports whether s is a make variable name (letters, digits,
// and . _ -).
func plainVarName(s string) bool {
	for _, c := range s {
		if !(c == '.' || c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// plainOptionName reports whether name is an option name as written, with
// no quotes or expansions in it.
func plainOptionName(name string) bool {
	for _, c := range name {
		if !(c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// scan reads argv with known option arity (options of unknown arity take no
// value), GNU style: options may follow operands until "--".
func scan(words []wordInfo, spec *ProgramSpec) *scanResult {
	s := &scanResult{values: map[string][]Word{}}
	// room for every option name the words may hold: a word of n letters
	// after its dash is at most n names (a compiler's -fasynchronous-...
	// is 27), so the list is not grown option by option
	n := 0
	for i := 1; i < len(words); i++ {
		if isOption(words[i].Value) {
			n += len(words[i].Value) - 1
		}
	}
	if n > 0 {
		s.options = make([]string, 0, min(n, 256))
	}
	endOpts := false
	for i := 1; i < len(words); i++ {
		wd := words[i]
		if wd.Dynamic {
			// it stays an operand too: $X may split into more
			s.operands = append(s.operands, i)
			if !endOpts {
				s.dynamicOption(wd.Value, spec)
				// "$X" where the command set X (X=--checkpoint-action=...,
				// for X in, "$@" of a function) may be any option
				// (not a substitution's output: find `pwd`, tar cf x $(find
				// . -newer y), cp $(readlink f) g are everyday text)
				if (optionPrefix(wd.Value) == "" || wd.Value == inputWord) && wd.local && spec.runsOrWritesOptions() {
					s.unread = append(s.unread, wd.Value)
				}
			}
			continue
		}
		if !endOpts && wd.Value == "--" {
			endOpts = true
			continue
		}
		if endOpts || !isOption(wd.Value) {
			if len(s.operands) == 0 && spec != nil && spec.Git != nil {
				s.sub = wd.Value // git's subcommand, for its options' values
			}
			s.operands = append(s.operands, i)
			// Wrappers and shells stop at their first operand: what follows
			// belongs to the command they run.
			endOpts = endOpts || spec.posixOptions()
			continue
		}
		names, val, attached := optionNames(wd.Value, spec)
		if s.split == nil {
			s.split = make([]optionSplit, len(words))
		}
		s.split[i] = optionSplit{names: names, attached: attached}
		last := s.addOptions(names, spec)
		if attached && spec != nil && strings.HasPrefix(last, "--") {
			// rm --interactive=never is rm -f: an alias of OPT=VALUE
			if c, ok := spec.OptionAliases[spec.expandLong(last)+"="+val]; ok {
				s.options[len(s.options)-1] = c
			}
		}
		switch {
		case attached:
			s.values[last] = append(s.values[last], Word{Value: val})
		case s.takesValue(spec, last) && i+1 < len(words) && spec.abbreviatesValue(wd.Value):
			// tar --sparse: an entry that lists only some options reads
			// it as --sparse-version, which takes a value, but it may be
			// an option the entry does not list: the next word is read
			// both as the value and as what follows
			s.values[last] = append(s.values[last], words[i+1].Word)
		case s.takesValue(spec, last) && i+1 < len(words):
			i++
			s.values[last] = append(s.values[last], words[i].Word)
		}
		endOpts = spec != nil && slices.Contains(spec.EndOptions, last)
	}
	return s
}

// takesValue reports an option that takes the next word as its value, for
// the program or, for git, for the subcommand read so far (commit -m).
func (s *scanResult) takesValue(spec *ProgramSpec, opt string) bool {
	return spec.takesValue(opt) || s.sub != "" && spec.Git != nil && slices.Contains(spec.Git.SubcommandValues[s.sub], opt)
}

// addOptions notes the option names of one word, in canonical spelling,
// and returns the last as written, which a value attached to the word or
// following it belongs to.
func (s *scanResult) addOptions(names []string, spec *ProgramSpec) string {
	for _, n := range names {
		s.options = append(s.options, spec.canonicalOption(n))
	}
	s.sorted = nil
	return names[len(names)-1]
}

// dynamicOption reads a word only known at run time that starts as an
// option (--opt=$X, -e"$X", -vettool=$D/x): its known start names the
// option, whose value is known at run time. A word whose option names the
// unknown part may still extend (-v$X, --rsh$X, "-$X") may spell any
// option: for a program with options that run or write something, it is
// kept in unread.
func (s *scanResult) dynamicOption(v string, spec *ProgramSpec) {
	lit := optionPrefix(v)
	if !strings.HasPrefix(lit, "-") {
		return
	}
	unread := func() {
		if spec.runsOrWritesOptions() {
			s.unread = append(s.unread, v)
		}
	}
	long := strings.HasPrefix(lit, "--") || (spec != nil && (spec.LongSingleDash || spec.Getopt != nil && spec.Getopt.LongOnly))
	if long {
		// an option listed with its separator (java -agentlib:jdwp=…*:5005)
		if opt := spec.multiLetterPrefix(lit); spec != nil && spec.LongSingleDash && (strings.HasSuffix(opt, "=") || strings.HasSuffix(opt, ":")) {
			last := s.addOptions([]string{opt}, spec)
			s.values[last] = append(s.values[last], Word{Value: strings.TrimPrefix(v, opt), Dynamic: true})
			return
		}
		name, _, ok := strings.Cut(lit, "=")
		if !ok || !plainOptionName(name) || name == "--" || name == "-" {
			unread()
			return
		}
		names, _, _ := optionNames(name, spec)
		last := s.addOptions(names, spec)
		_, val, _ := strings.Cut(v, "=")
		s.values[last] = append(s.values[last], Word{Value: val, Dynamic: true})
		return
	}
	if len(lit) < 2 {
		unread()
		return
	}
	names, val, attached := optionNames(lit, spec)
	last := s.addOptions(names, spec)
	if !attached && !s.takesValue(spec, last) {
		unread()
		return
	}
	// the value runs from the end of the known option names to the end of
	// the word, its unknown part included
	start := len(lit) - len(val)
	rest := v
	for n := 0; n < start && rest != ""; {
		if rest[0] != '"' {
			n++
		}
		rest = rest[1:]
	}
	s.values[last] = append(s.values[last], Word{Value: rest, Dynamic: true})
}

// optionPrefix is the start of a dynamic word's text that is known
// statically, double quotes removed: up to its first expansion, other
// quote or pattern ("-e$X" and -e"$X" are both -e).
func optionPrefix(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
		case '$', '`', '\'', '\\', '*', '?', '[', '{':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// maxPathVariants bounds the readings of argv kept when options of unknown
// arity may or may not take a value.
const maxPathVariants = 8

// views fills Options, Path, AltPaths and PathComplete.
func (w *walker) views(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	// (clipped: what appends to the segment's options must not write into
	// the scan's)
	seg.Options = slices.Clip(sc.sortedOptions())
	if seg.Program == "" {
		seg.Path = []string{}
		return
	}
	type variant struct {
		path []string
		skip bool
	}
	variants := []*variant{{path: []string{seg.Program}}}
	complete := true
	endOpts, operandSeen := false, false
	for i := 1; i < len(words); i++ {
		wd := words[i]
		if wd.Dynamic {
			complete = false
			continue
		}
		if !endOpts && wd.Value == "--" {
			endOpts = true
			continue
		}
		if !endOpts && isOption(wd.Value) {
			if operandSeen && len(wd.Value) > 2 && wd.Value[1] != '-' && sc.takesValue(spec, wd.Value[:2]) {
				continue // git subtree -Psrc: the subcommand's option, its value attached
			}
			names, attached := sc.optionNames(words, i, spec)
			last := names[len(names)-1]
			if attached {
				continue
			}
			if (spec.takesValue(last) || operandSeen && sc.takesValue(spec, last)) && !spec.abbreviatesValue(wd.Value) {
				// (after git's subcommand, its options: subtree -P DIR)
				i++
				continue
			}
			if (!spec.knowsOption(last) || spec.abbreviatesValue(wd.Value)) && i+1 < len(words) && !words[i+1].Dynamic && !isOption(words[i+1].Value) && words[i+1].Value != "--" {
				n := len(variants)
				for _, v := range variants[:n] {
					if len(variants) >= maxPathVariants {
						break
					}
					variants = append(variants, &variant{path: append([]string(nil), v.path...), skip: true})
				}
			}
			continue
		}
		endOpts = endOpts || spec.posixOptions()
		operandSeen = true
		if !complete {
			continue
		}
		for _, v := range variants {
			if v.skip {
				v.skip = false
				continue
			}
			v.path = append(v.path, wd.Value)
		}
	}
	seg.Path = variants[0].path
	seg.PathComplete = complete
	for _, v := range variants[1:] {
		if !equalStrings(v.path, seg.Path) {
			seg.AltPaths = append(seg.AltPaths, v.path)
		}
	}
	// A name with a dot is also read as the part before it: the versioned
	// and flavoured names of a program (python3.11, mkfs.ext4, vim.tiny,
	// pip3.12) are that program.
	if stem, _, ok := strings.Cut(seg.Program, "."); ok && len(stem) > 1 && len(stem) < len(seg.Program)-1 {
		for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
			seg.AltPaths = append(seg.AltPaths, append([]string{stem}, p[1:]...))
		}
	}
	// a package spec with a version (npx rimraf@5, uvx ruff@0.5) runs
	// the package's program: rimraf@5 is also read as rimraf
	if at := strings.LastIndexByte(seg.Program, '@'); at > 0 {
		for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
			if p[0] == seg.Program {
				seg.AltPaths = append(seg.AltPaths, append([]string{seg.Program[:at]}, p[1:]...))
			}
		}
	}
	// the interpreter a versioned name is read as (lua5.4: lua)
	if name := w.p.cat.versioned(seg.Program); name != "" && !strings.HasPrefix(seg.Program, name+".") {
		for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
			if p[0] == seg.Program {
				seg.AltPaths = append(seg.AltPaths, append([]string{name}, p[1:]...))
			}
		}
	}
	// git's dashed programs (git-push, /usr/lib/git-core/git-push) are its
	// subcommands: git-push ORIGIN is read as git push ORIGIN too.
	if sub, ok := strings.CutPrefix(seg.Program, "git-"); ok && sub != "" {
		for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
			seg.AltPaths = append(seg.AltPaths, append([]string{"git", sub}, p[1:]...))
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func uniqueSorted(list []string) []string {
	if len(list) == 0 {
		return []string{}
	}
	out := slices.Clone(list)
	slices.Sort(out)
	return slices.Compact(out)
}

// removes records the files the program takes away from their name
// (writes.removes).
func removes(seg *Segment, words []wordInfo, ws *WritesSpec, sc *scanResult) {
	if ws.Removes == "" || len(ws.RemovesWhen) > 0 && !slices.ContainsFunc(ws.RemovesWhen, sc.hasOption) || slices.ContainsFunc(ws.RemovesUnless, sc.hasOption) {
		return
	}
	operands := sc.operands
	if ws.Removes == "sources" && !slices.ContainsFunc(ws.Options, func(o string) bool { return len(sc.values[o]) > 0 }) {
		if len(operands) < 2 {
			return
		}
		operands = operands[:len(operands)-1]
	}
	for _, i := range operands {
		// names known statically only: find -exec mv {} dir and xargs
		// gzip move or replace names the command found, everyday work
		// (in exec mode the fs layer keeps protected paths read-only)
		if !words[i].Dynamic {
			seg.Removes = append(seg.Removes, words[i].Word)
		}
	}
}

// remoteOperand reports an operand scp and rsync read as HOST:PATH, on
// another machine: a colon before any slash (host:x, user@web:/srv/,
// web:/tmp/$f); ./a:b and /x:y are local, and so may be a word with an
// expansion before its colon (a value holding a slash: $H:/x).
func remoteOperand(wd Word) bool {
	colon := strings.IndexByte(wd.Value, ':')
	slash := strings.IndexByte(wd.Value, '/')
	return colon > 0 && (slash < 0 || colon < slash) && !strings.ContainsAny(wd.Value[:colon], "$`\\\"'*?[{~")
}

// stdinArchive reports an extractor given no archive or patch to read, which
// reads standard input.
func stdinArchive(seg *Segment, sc *scanResult) bool {
	named := func(opts ...string) bool { return slices.ContainsFunc(opts, sc.hasOption) }
	switch seg.Program {
	case "tar", "gtar", "bsdtar":
		return !named("-f", "--file")
	case "cpio":
		return !named("-F", "--file", "-I")
	case "patch":
		return !named("-i", "--input") && len(sc.operands) < 2
	case "uudecode":
		return len(sc.operands) == 0
	}
	return false
}

// staticOnlyWrite is what a StaticOnly program's write through an operand
// (a decompressed file beside its input, an archive) is checked as: a name
// found at run time in a directory known statically (find -exec gunzip {},
// for f in *.gz, gunzip logs/*.gz) is everyday work, checked as a write
// into that directory; one in a directory only known at run time (lz4 -d
// c.lz4 $PWD/.git/config) is a write to an unknown place.
func staticOnlyWrite(wd Word) (Word, bool) {
	if !wd.Dynamic {
		return wd, true
	}
	slash := strings.LastIndexByte(wd.Value, '/')
	if slash < 0 {
		// in the directory the program runs in: checked as a write there
		// (cd .git && gunzip conf*.gz)
		return Word{Value: "./"}, true
	}
	dir := wd.Value[:slash+1]
	if dir == "../" || strings.HasPrefix(dir, "../") || strings.Contains(dir, "/../") {
		// x*/../.git/config: wherever the pattern leads, then up
		return wd, true
	}
	if strings.ContainsAny(dir, "$`\"'") || strings.HasPrefix(dir, "~") {
		return wd, true
	}
	if i := strings.IndexAny(dir, "*?[{("); i >= 0 {
		// a pattern's directories (gunzip logs/*/*.gz): under the part
		// before the first one; a pattern in the first component may
		// match any directory there, .git too (dotglob, @(.git))
		if lit := dir[:strings.LastIndexByte(dir[:i], '/')+1]; lit != "" {
			return Word{Value: lit}, true
		}
		return Word{Value: dir, Dynamic: true}, true
	}
	return Word{Value: dir}, true
}

// writes records files the program writes through its arguments.
func (w *walker) writes(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	ws := spec.Writes
	if ws == nil {
		return
	}
	if slices.ContainsFunc(ws.Unless, sc.hasOption) {
		return
	}
	unnamedWrites(seg, ws, sc)
	removes(seg, words, ws, sc)
	seg.ModeOnly = ws.ModeOnly
	// unknown are writes to names only known at run time that StaticOnly
	// keeps: a compressor's output under a suffix the command chose;
	// optWrites those it keeps too: a decompressor's output option (zstd
	// -d -o $PWD/.git/config writes what the command chose, where it
	// chose) and files written whatever the mode (tar --index-file)
	var unknown, optWrites []Word
	n := len(seg.Writes)
	defer func() {
		if ws.StaticOnly {
			kept := seg.Writes[:n]
			for _, wd := range seg.Writes[n:] {
				if wd, ok := staticOnlyWrite(wd); ok {
					kept = append(kept, wd)
				}
			}
			seg.Writes = kept
		}
		seg.Writes = append(seg.Writes, optWrites...)
		if ws.Pathspecs {
			for j := n; j < len(seg.Writes); j++ {
				// a pathspec names a file or a directory's files (git
				// checkout -- .claude writes .claude/settings.json)
				switch wd := &seg.Writes[j]; {
				case strings.HasPrefix(wd.Value, ":") || strings.ContainsAny(wd.Value, "*?["):
					wd.Dynamic = true // magic, or a pattern git matches
				case !wd.Dynamic && !strings.HasSuffix(wd.Value, "/"):
					wd.Value += "/"
				}
			}
		}
		seg.Writes = append(seg.Writes, unknown...)
	}()
	if ws.CompressSuffix != "" && !slices.ContainsFunc(ws.When, sc.hasOption) {
		// compressing: FILE becomes FILE.gz (-S SUFFIX), or what -o says.
		// Names found at run time (xargs gzip, find -exec xz {}) are
		// everyday work and end in the usual suffix, unless the command
		// gives one (-S .json turns settings into settings.json): an
		// unknown place then, as the names a list gives (xz --files=F,
		// in both directions).
		suffix, chosen := Word{Value: ws.CompressSuffix}, false
		for _, o := range ws.SuffixOptions {
			if v := sc.values[o]; len(v) > 0 {
				suffix, chosen = v[len(v)-1], true
			}
		}
		for _, i := range sc.operands {
			switch wd := words[i]; {
			case !wd.Dynamic && !suffix.Dynamic:
				seg.Writes = append(seg.Writes, Word{Value: wd.Value + suffix.Value})
			case !wd.Dynamic || chosen:
				unknown = append(unknown, Word{Value: wd.Value + suffix.Value, Dynamic: true})
			}
		}
		for _, opt := range ws.Options {
			seg.Writes = append(seg.Writes, sc.values[opt]...)
		}
	}
	for _, o := range ws.ListOptions {
		if sc.hasOption(o) {
			unknown = append(unknown, Word{Value: "the files " + o + " lists", Dynamic: true})
		}
	}
	for _, o := range ws.RenameOptions {
		if sc.hasOption(o) && !slices.ContainsFunc(ws.RenameUnless, sc.hasOption) {
			unknown = append(unknown, Word{Value: "files under names " + o + " makes", Dynamic: true})
		}
	}
	for _, opt := range ws.OptionsAlways {
		optWrites = append(optWrites, sc.values[opt]...)
	}
	if len(ws.When) > 0 && !slices.ContainsFunc(ws.When, sc.hasOption) {
		return
	}
	for _, opt := range ws.Options {
		if len(ws.TrimSuffixes) > 0 {
			// decompressing: the file holds what the command chose
			optWrites = append(optWrites, sc.values[opt]...)
		} else {
			seg.Writes = append(seg.Writes, sc.values[opt]...)
		}
	}
	seg.Relinks = seg.Relinks || ws.Relinks
	for _, opt := range ws.RelinksWhen {
		seg.Relinks = seg.Relinks || sc.hasOption(opt)
	}
	seg.Replaces = seg.Replaces || seg.Relinks || ws.Replaces || slices.ContainsFunc(ws.ReplacesWhen, sc.hasOption)
	operands := sc.operands
	if spec.InlineCode != nil && spec.InlineCode.Operand && len(operands) > 0 {
		codeGiven := false
		for _, o := range append(append([]string{}, spec.InlineCode.Options...), spec.InlineCode.FileOptions...) {
			// a library (gawk -i inplace) leaves the program the operand
			codeGiven = codeGiven || len(sc.values[o]) > 0 && !contains(spec.InlineCode.LibraryOptions, o)
		}
		// the code operand (awk's first, sqlite3's second and those
		// after it) names no file
		if idx := spec.InlineCode.OperandIndex; !codeGiven && idx < len(operands) {
			if spec.InlineCode.OperandsFrom {
				operands = operands[:idx]
			} else {
				operands = append(operands[:idx:idx], operands[idx+1:]...)
			}
		}
	}
	for _, i := range operands {
		for _, p := range ws.Prefixes {
			if v := words[i]; strings.HasPrefix(v.Value, p) {
				seg.Writes = append(seg.Writes, Word{Value: strings.TrimPrefix(v.Value, p), Dynamic: v.Dynamic})
			}
		}
	}
	if ws.Operands == "" || len(ws.OperandsWhen) > 0 && !slices.ContainsFunc(ws.OperandsWhen, sc.hasValue) {
		return
	}
	if skip := ws.Skip; slices.ContainsFunc(ws.SkipUnless, sc.hasOption) {
		// no operand to skip
	} else if skip < len(operands) {
		operands = operands[skip:]
	} else {
		operands = nil
	}
	for _, opt := range ws.BackupOptions {
		opt, name, named := strings.Cut(opt, "=")
		for _, v := range sc.values[opt] {
			if named {
				// -v INPLACE_SUFFIX=SUFFIX; another variable sets nothing
				suffix, ok := strings.CutPrefix(v.Value, name+"=")
				if !ok && !(v.Dynamic && mayStartWith(wordInfo{Word: v}, name)) {
					continue
				}
				v = Word{Value: suffix, Dynamic: v.Dynamic}
			}
			if v.Dynamic {
				seg.Writes = append(seg.Writes, v)
				continue
			}
			for _, i := range operands {
				// -iSUFFIX backs FILE up as FILESUFFIX, -i'DIR/*' as
				// DIR/FILE: either may lead elsewhere (.gi +
				// t/hooks/pre-commit is .git/hooks/pre-commit)
				f := words[i].Word
				if !strings.Contains(v.Value, "*") {
					seg.Writes = append(seg.Writes, Word{Value: f.Value + v.Value, Dynamic: f.Dynamic})
					continue
				}
				// GNU sed puts the file name as written in place of each
				// * (-i'.*' ./x backs x up as ../x, -i'bk/*' src/f as
				// bk/src/f, from the current directory); other seds put
				// its base name, in the file's directory: both are writes
				asWritten := strings.ReplaceAll(v.Value, "*", f.Value)
				seg.Writes = append(seg.Writes, Word{Value: asWritten, Dynamic: f.Dynamic})
				base := strings.ReplaceAll(v.Value, "*", path.Base(f.Value))
				if dir := path.Dir(f.Value); !strings.Contains(v.Value, "/") && dir != "." {
					base = path.Join(dir, base)
				}
				if base != asWritten {
					seg.Writes = append(seg.Writes, Word{Value: base, Dynamic: f.Dynamic})
				}
			}
			// mv -b -S t .gi DIR/ and mv -S t -t DIR .gi back up
			// DIR/.gi as DIR/.git: each source's name in the directory
			// it lands in (the last operand may be one)
			if ws.Operands == "last" && !strings.Contains(v.Value, "*") {
				var dirs []Word
				if n := len(operands); n >= 2 {
					dirs = append(dirs, words[operands[n-1]].Word)
				}
				for _, o := range ws.Options {
					dirs = append(dirs, sc.values[o]...)
				}
				for _, dir := range dirs {
					for _, i := range operands {
						if f := words[i].Word; f.Value != dir.Value {
							seg.Writes = append(seg.Writes, Word{Value: path.Join(dir.Value, path.Base(f.Value)) + v.Value, Dynamic: f.Dynamic || dir.Dynamic})
						}
					}
				}
			}
		}
	}
	switch ws.Operands {
	case "all":
		for _, i := range operands {
			if wd, ok := trimWritten(ws, sc, words[i]); ok {
				seg.Writes = append(seg.Writes, wd)
			}
		}
	case "last":
		if len(operands) >= 2 {
			if wd := words[operands[len(operands)-1]]; !ws.RemoteOperands || !remoteOperand(wd.Word) {
				seg.Writes = append(seg.Writes, wd.Word)
			}
		}
	case "first":
		if len(operands) > 0 {
			seg.Writes = append(seg.Writes, words[operands[0]].Word)
		}
	}
}

// chdir updates the directory state after cd, pushd or popd.
func (w *walker) chdir(words []wordInfo, sc *scanResult, c *ctx) {
	c.cwd.changes++
	w.dirChanges++
	if words[0].Value != "cd" || len(sc.operands) > 1 || slices.ContainsFunc(sc.options, func(o string) bool { return o != "-L" && o != "-P" }) {
		// pushd and popd rotate a stack (pushd alone swaps, pushd -n
		// does not move); cd -@ and cd with two operands fail
		c.cwd.unknown = true
		return
	}
	if len(sc.operands) == 0 {
		if words[0].Value == "popd" {
			c.cwd.unknown = true
			return
		}
		if w.p.home == "" {
			c.cwd.unknown = true
			return
		}
		c.cwd.dirs = append(c.cwd.dirs, w.p.home)
		return
	}
	v := words[sc.operands[0]]
	if v.Dynamic || v.Value == "-" || strings.HasPrefix(v.Value, "+") || words[0].Value == "popd" {
		c.cwd.unknown = true
		return
	}
	c.cwd.dirs = append(c.cwd.dirs, v.Value)
}

// gitDashed are git's commands that its own programs (git-config,
// git-rebase in git's exec path) run without git's front end: the checks of
// git's configuration and subcommands do not apply to them.
var gitDashed = toSet(strings.Fields(`am apply archive bisect branch bundle checkout checkout-index cherry-pick clean
	clone commit commit-tree config daemon difftool fetch filter-branch for-each-repo gc hook http-backend init
	maintenance merge mergetool mv notes pull push read-tree rebase receive-pack remote replace reset restore
	revert rm send-email send-pack stash submodule switch symbolic-ref tag update-index update-ref upload-pack
	worktree fast-import sparse-checkout repo-config`))

// otherRoots adds a finding to programs that run a command under another
// root directory, where absolute paths name other files (chroot, unshare
// -R, nsenter -r, systemd-nspawn), that run yarn or node code gate does not
// unwrap (yarn workspace NAME CMD, yarn node -e CODE), and to git's own
// programs run directly.
func otherRoots(seg *Segment, words []wordInfo) {
	has := func(opts ...string) bool {
		for _, wd := range words[1:] {
			// a short option's letters run up to its value (-p/proc/1/ns
			// is -p with a value)
			letters := ""
			if v := wd.Value; len(v) > 1 && v[0] == '-' && v[1] != '-' {
				letters = v[1:]
				if k := strings.IndexFunc(letters, func(r rune) bool { return !unicode.IsLetter(r) }); k >= 0 {
					letters = letters[:k]
				}
			}
			for _, o := range opts {
				if wd.Dynamic || wd.Value == o || strings.HasPrefix(wd.Value, o+"=") || len(o) == 2 && strings.ContainsRune(letters, rune(o[1])) {
					return true
				}
			}
		}
		return false
	}
	switch p := seg.Program; {
	case p == "chroot" || p == "systemd-nspawn" || p == "unshare" && has("-R", "--root") || p == "nsenter" && has("-r", "--root"):
		seg.addFinding(FindDynamicWrapper, p+" runs its command under another root directory, where paths name other files")
	case p == "yarn":
		for _, wd := range words[1:] {
			if isOption(wd.Value) {
				continue
			}
			if wd.Dynamic || wd.Value == "workspace" || wd.Value == "workspaces" || wd.Value == "node" {
				seg.addFinding(FindDynamicWrapper, "yarn "+wd.Value+" runs a command or code gate does not read")
			}
			break
		}
	case strings.HasPrefix(p, "git-") && (gitDashed[strings.TrimPrefix(p, "git-")] || strings.Contains(seg.ProgramPath, "git-core/")):
		seg.addFinding(FindDynamicWrapper, p+" is git's own program for git "+strings.TrimPrefix(p, "git-")+", run without the checks gate makes of git")
	}
}

// numeric reports whether a word's value can only be a number: digits, signs
// and arithmetic expansions ($((...)), $[...]), whose result bash prints as
// an integer. Assigning it cannot put a subscript or an expansion into the
// variable.
func numeric(word *syntax.Word) bool {
	return len(word.Parts) > 0 && numericParts(word.Parts)
}

// numericParts reports parts that expand to a number: digits, $((...)),
// the special parameters $? $# $$ $! (bash keeps them numbers: they cannot
// be assigned or unset) and lengths ${#x}, also in double quotes.
func numericParts(parts []syntax.WordPart) bool {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.ArithmExp:
		case *syntax.Lit:
			if strings.Trim(p.Value, "0123456789-+") != "" {
				return false
			}
		case *syntax.DblQuoted:
			if !numericParts(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			plain := p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl && !p.Width && p.Names == 0 && p.Param != nil
			switch {
			case plain && p.Length:
				// ${#x}, ${#a[@]}: a length (its subscript is checked
				// where it is walked)
			case plain && p.Index == nil && (p.Param.Value == "?" || p.Param.Value == "#" || p.Param.Value == "$" || p.Param.Value == "!"):
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callsRead reports whether a call runs the read, mapfile or readarray
// builtin itself: its command word is literally one of them and no function
// of that name is defined.
func callsRead(call *syntax.CallExpr, c *ctx) bool {
	if len(call.Args) == 0 {
		return false
	}
	name := call.Args[0].Lit()
	switch name {
	case "read", "mapfile", "readarray":
		return !c.funcs.names[name]
	}
	return false
}

// Bounds of MaybeRuns: the commands read per segment, and the words kept of
// each (exclude entries are matched on short prefixes).
const (
	maxMaybeRuns     = 64
	maxMaybeRunWords = 8
)

// maybeRuns fills MaybeRuns for a program the catalogue does not describe:
// every literal operand that could be a command name starts a command made
// of it and the words after it, and an operand holding a command line
// ("rm v", "cd d && rm v") is read as commands.
func (w *walker) maybeRuns(seg *Segment, words []wordInfo, stdin ...string) {
	seen := map[string]bool{}
	full := false
	add := func(cwords []wordInfo) {
		if len(cwords) == 0 || cwords[0].Dynamic {
			return
		}
		if len(seg.MaybeRuns) >= maxMaybeRuns {
			if !full {
				full = true
				seg.addFinding(FindDynamicWrapper, "gate does not know what "+seg.Program+" runs, and it is given more arguments than gate reads as commands it may run ("+strconv.Itoa(maxMaybeRuns)+")")
			}
			return
		}
		if len(cwords) > maxMaybeRunWords {
			cwords = cwords[:maxMaybeRunWords]
		}
		name := path.Base(cwords[0].Value)
		if !strings.ContainsFunc(name, unicode.IsLetter) {
			return // 42, ., /, -: names no program
		}
		spec := w.p.cat.program(name)
		tmp := &Segment{Program: name}
		first := cwords[0]
		first.Value = name
		cw := append([]wordInfo{first}, cwords[1:]...)
		w.views(tmp, cw, spec, scan(cw, spec))
		paths := [][]string{tmp.Path}
		if spec != nil {
			// a described program's other readings (git -C d push); an
			// undescribed one's would only multiply the noise
			paths = append(paths, tmp.AltPaths...)
		}
		for _, p := range paths {
			k := strings.Join(p, "\x00")
			if !seen[k] && len(seg.MaybeRuns) < maxMaybeRuns {
				seen[k] = true
				seg.MaybeRuns = append(seg.MaybeRuns, p)
			}
		}
	}
	start := 1
	if subs, ok := w.p.cat.SubcommandWrappers[seg.Program]; ok {
		start = len(words)
		for i := 1; i < len(words); i++ {
			if words[i].Dynamic {
				break // may be the subcommand: read what follows
			}
			if contains(subs, words[i].Value) {
				start = i + 1
				break
			}
		}
		if start == len(words) {
			for i := 1; i < len(words); i++ {
				if words[i].Dynamic {
					start = i + 1
					break
				}
			}
		}
	}
	lines := func(text string) {
		w.maybeCommand(seg, text)
		// separators of commands, and quotes: code in another language
		// names commands in its strings ((system "rm v"), os.execute('rm v'))
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(";&|\n()`{}'\"", r) }) {
			var cw []wordInfo
			for _, f := range strings.Fields(line) {
				cw = append(cw, wordInfo{Word: Word{Value: f}, raw: f})
			}
			add(cw)
		}
	}
	if len(stdin) == 1 && stdin[0] != unknownStdin {
		// xyzzy <<< 'rm v': a program gate does not know may read the
		// commands it runs from its input (groff -U, ip -batch -, a
		// shell under another name)
		lines(stdin[0])
	}
	operands := 0 // the operands read so far
	for i := start; i < len(words); i++ {
		wd := words[i]
		if wd.Dynamic {
			operands++
			w.dynamicMaybeRun(seg, words, i, add)
			continue
		}
		text := wd.Value
		prose := i > 1 && !words[i-1].Dynamic && proseOptions[words[i-1].Value]
		if !isOption(text) {
			operands++
			if operands == 1 && isFdDevice(text) && (len(w.readOpened) > 0 || slices.ContainsFunc(seg.Redirects, func(r Redirect) bool { return r.Op == "<" || r.Op == "<>" })) {
				// chronic /dev/fd/3 x 3</bin/rm runs what a redirection opened
				seg.addFinding(FindDynamicWrapper, "gate does not know what "+seg.Program+" runs, and "+text+" may be the program it runs: the file a descriptor holds")
			}
			switch {
			case !strings.ContainsAny(text, " \t\n;&|"):
				add(words[i:]) // sshpass -p x ssh h rm v
				// the command a wrapper runs is one of its first operands
				// (chronic CMD, docker run IMAGE CMD) or follows --
				if (operands <= 2 || words[i-1].Value == "--") && w.p.cat.runsCode(path.Base(text)) {
					w.maybeCommand(seg, quoteWords(words[i:])+stdinText(stdin))
				}
			case !prose:
				lines(text) // tmux new -d "rm v"
			}
		}
		// --cmd="rm v", -c'rm v', -o Hook::Pre-Invoke=CMD, --exec=rm v: the
		// text after an "=" (or a short option's letter) may be a command
		var values []string
		if name, _, _ := strings.Cut(text, "="); isOption(text) && proseOptions[name] {
			continue // --body="…rm v…" is text
		}
		if k := strings.Index(text, "="); k >= 0 {
			values = append(values, text[k+1:])
			if l := strings.LastIndex(text, "="); l > k {
				values = append(values, text[l+1:])
			}
		} else if isOption(text) && !strings.HasPrefix(text, "--") && len(text) > 2 {
			values = append(values, text[2:])
		}
		for _, v := range values {
			if v == "" {
				continue
			}
			if strings.ContainsAny(v, " \t\n;&|") {
				lines(v)
				continue
			}
			first := wordInfo{Word: Word{Value: v}, raw: v}
			add(append([]wordInfo{first}, words[i+1:]...))
		}
	}
}

// dynamicMaybeRun reads a word known only at run time where a program gate
// does not know may take the command it runs: right after the program, or
// after its first operand (chronic CMD, lckdo LOCK CMD). A path whose last
// element is literal ("$D"/rm) names that program; a word that is all
// expansion or a pattern (chronic $(echo rm), lckdo l /bin/r[m]) may name
// any.
func (w *walker) dynamicMaybeRun(seg *Segment, words []wordInfo, i int, add func([]wordInfo)) {
	wd := words[i]
	if k := strings.LastIndex(wd.Value, "/"); k >= 0 && k+1 < len(wd.Value) {
		if base := wd.Value[k+1:]; !strings.ContainsFunc(base, func(r rune) bool { return !programNameRune(r) }) {
			first := wordInfo{Word: Word{Value: base}, raw: base}
			add(append([]wordInfo{first}, words[i+1:]...))
			return
		}
	}
	// the first operand, or the second after a literal one (options and
	// "--" aside: lckdo -w LOCK CMD, ifne -- CMD); right after an option
	// it is read as that option's value (top -p $(pgrep x), grim -g
	// "$(slurp)"), which gate cannot tell from a flag's command (chronic
	// -e $(…)): the exec layer decides what runs then
	if prev := words[i-1]; i > 1 && !prev.Dynamic && isOption(prev.Value) && prev.Value != "--" {
		return
	}
	var before []wordInfo
	ended := false
	for _, b := range words[1:i] {
		switch {
		case !ended && !b.Dynamic && b.Value == "--":
			ended = true
		case ended || b.Dynamic || !isOption(b.Value):
			before = append(before, b)
		}
	}
	if len(before) > 1 || len(before) == 1 && before[0].Dynamic || !runTimeName(wd) {
		return
	}
	seg.addFinding(FindDynamicWrapper, "gate does not know what "+seg.Program+" runs, and "+clip(wd.Value)+", only known at run time, may be the program it runs")
}

// runTimeName reports a word that may spell a program's name only at run
// time: a pattern whose last element has no "." (/bin/r[m], rm*), or text
// that is all one command substitution, a default (${x:-rm}) or a $'...'
// gate cannot decode. Plain variables ($f, "$1"), find's and xargs' {}
// and text with a literal part before the expansion (data/$f) are read
// as data: gate cannot tell them from a file name.
func runTimeName(wd wordInfo) bool {
	raw := wd.raw
	if raw == "" {
		raw = wd.Value
	}
	if strings.Contains(raw, "{}") || strings.Contains(raw, "__gate_") || strings.HasPrefix(raw, "-") {
		return false
	}
	// the text outside expansions and quotes: a program's name is made of
	// name characters and slashes, with no extension (not my-$(date).gz,
	// +si:localuser:`whoami`, imap://[host], --dir=$(mktemp -d))
	rest := raw
	for prev := ""; prev != rest; {
		prev = rest
		rest = expansionText.ReplaceAllString(rest, "")
	}
	rest = strings.NewReplacer(`"`, "", "'", "").Replace(bracketExpr.ReplaceAllString(rest, ""))
	if strings.Contains(rest[strings.LastIndex(rest, "/")+1:], ".") || strings.ContainsFunc(rest, func(r rune) bool { return !programNameRune(r) && !strings.ContainsRune("/*?", r) }) {
		return false
	}
	if strings.Contains(raw, "`") || strings.Contains(strings.ReplaceAll(raw, "$((", ""), "$(") || strings.Contains(raw, "$'") ||
		paramOperator.MatchString(raw) {
		return true // r$(echo m), /bin/$(…), ${x:-rm}, ${SHELL%%*}rm
	}
	if wd.glob && !strings.ContainsAny(raw, "$`") {
		// a name-like pattern with no extension outside its brackets
		// (r[m], rm*, ??, /bin/r[m.]; not *.jpg): it may match a file
		// named as the program
		base := raw[strings.LastIndex(raw, "/")+1:]
		return !isOption(raw) && !strings.Contains(bracketExpr.ReplaceAllString(base, ""), ".") &&
			!strings.ContainsFunc(base, func(r rune) bool { return !programNameRune(r) && !strings.ContainsRune("*?[]!^", r) })
	}
	return false
}

// paramOperator is a parameter expansion with an operator after its name
// (${x:-rm}, ${x/a/b}, ${x:0:1}, ${!x}), whose value is text the
// expansion makes, not a file name the command was given.
var paramOperator = regexp.MustCompile(`\$\{(!|!?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])[^}A-Za-z0-9_])`)

// expansionText is an innermost expansion: $(…) without parentheses in
// it, `…`, ${…} or $NAME.
var expansionText = regexp.MustCompile("\\$\\([^()]*\\)|`[^`]*`|\\$\\{[^{}]*\\}|\\$'[^']*'|\\$[A-Za-z_0-9@*#?$!-]+")

// bracketExpr is a pattern's bracket expression ([m.], [!a]).
var bracketExpr = regexp.MustCompile(`\[!?\]?[^]]*\]`)

// programNameRune reports a character of a program's name as people
// spell them (rm, python3.11, x86_64-linux-gnu-gcc, g++).
func programNameRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '+' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// maxMaybeDepth bounds the parses of the commands an unknown program may
// run, nested in one another.
const maxMaybeDepth = 2

// maybeCommand parses text, a command line an unknown program may run (its
// operands from a shell, an interpreter or a wrapper on, with its standard
// input; an operand that is a command line), as bash would. The programs
// in it are among the program's maybe-runs, and what a shell, interpreter
// or wrapper in it would be unprovable for alone (inline code, a script
// read from a here-string, an obfuscated name) makes the program
// unprovable: chronic bash <<< 'rm v', chronic python3 -c CODE.
func (w *walker) maybeCommand(seg *Segment, text string) {
	if w.p.depth >= maxMaybeDepth || w.p.exec {
		return
	}
	sub := *w.p
	sub.depth++
	prog := sub.ParseContext(w.ctx, text)
	if prog.Error != nil {
		return // not shell text: the names in it are read as before
	}
	if prog.TooComplex != nil {
		seg.addFinding(FindDynamicWrapper, "gate does not know what "+seg.Program+" runs, and the command it may run is too complex to read: "+clip(text))
		return
	}
	byID := map[int]*Segment{}
	for _, s := range prog.Segments {
		byID[s.ID] = s
	}
	for _, s := range prog.Segments {
		for _, p := range append([][]string{s.Path}, s.AltPaths...) {
			if len(p) > 0 && p[0] != "" && len(seg.MaybeRuns) < maxMaybeRuns {
				seg.MaybeRuns = append(seg.MaybeRuns, p)
			}
		}
		top := s
		for top.Parent >= 0 && byID[top.Parent] != nil {
			top = byID[top.Parent]
		}
		if !w.p.cat.runsCode(top.Program) {
			continue
		}
		for _, f := range s.Findings {
			// an option or mode the command's own entry does not know is
			// more often a word of the unknown program's own (samtools
			// view -S, rustscan -t timeout -a)
			if f.Code != FindUnknownOption && f.Code != FindRebindsCommands {
				seg.addFinding(f.Code, "gate does not know what "+seg.Program+" runs, and it may run "+clip(text)+", where "+f.Message)
			}
		}
	}
}

// quoteWords writes words back as shell text: known ones quoted, those
// only known at run time as written.
func quoteWords(words []wordInfo) string {
	var b strings.Builder
	for i, wd := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if wd.Dynamic {
			b.WriteString(wd.raw)
		} else {
			b.WriteString(shellQuote(wd.Value))
		}
	}
	return b.String()
}

// stdinText is the redirection that gives a command the standard input of
// the program that may run it: its literal text, or a pipe whose content is
// not known.
func stdinText(stdin []string) string {
	if len(stdin) == 0 {
		return ""
	}
	if stdin[0] == unknownStdin {
		return " < /dev/stdin"
	}
	return " <<< '" + strings.ReplaceAll(strings.TrimSuffix(stdin[0], "\n"), "'", `'\''`) + "'"
}

// unknownStdin stands for a standard input whose content is not known.
const unknownStdin = "\x00"

// extracts marks the writes of an extractor unknown when a file it may read
// (an argument, or a file redirected to its input) is written earlier in the
// same command: the names inside it are only known at run time.
func (w *walker) extracts(seg *Segment, words []wordInfo, c *ctx, sc *scanResult) {
	if dir := strings.Join(c.cwd.dirs, "/"); c.cwd.unknown || (dir != "" && inGitDir(Word{Value: dir})) {
		// cd .git && tar xf -: the members land inside .git.
		seg.Writes = append(seg.Writes, Word{Value: "the files it extracts in a directory known only at run time or inside .git", Dynamic: true})
		return
	}
	// printf … | patch -p1, base64 -d <<< … | tar xz, patch <<EOF: the
	// names inside data the command spells out are only known at run time.
	if (c.authored || authors([]*Segment{seg})) && !makesOrLists(seg, words) {
		seg.Writes = append(seg.Writes, Word{Value: "the files named in the data this command gives it", Dynamic: true})
		return
	}
	// no archive named: it reads standard input, which no pipe or
	// redirection of its own gives, so one around it may ({ tar xz; } <
	// a.tgz, exec 0< a.tgz) with a file the command wrote first
	if stdinArchive(seg, sc) && !makesOrLists(seg, words) {
		for _, f := range c.stdinFrom {
			if w.wasWritten(f) {
				seg.Writes = append(seg.Writes, Word{Value: "the files inside " + f, Dynamic: true})
				return
			}
		}
		if (!c.stdin || c.stdinUnknown) && (len(w.written) > 0 || w.overflow) {
			seg.Writes = append(seg.Writes, Word{Value: "the files named in what it reads from standard input (perhaps a file this command writes first)", Dynamic: true})
			return
		}
	}
	var read []string
	// a name only known at run time (a.tg?, $PWD/a.tgz, <(cat a.tgz))
	// may be any file the command wrote first
	unknown := ""
	for _, wd := range words[1:] {
		if wd.Dynamic {
			unknown = wd.raw
			continue
		}
		read = append(read, wd.Value)
		if _, v, ok := strings.Cut(wd.Value, "="); ok && isOption(wd.Value) {
			read = append(read, v) // --file=x.tar
		}
	}
	for _, r := range seg.Redirects {
		if !r.Write && (r.Op == "<" || r.Op == "<>") {
			if r.Dynamic {
				unknown = r.Target
			} else {
				read = append(read, r.Target)
			}
		}
	}
	if makesOrLists(seg, words) {
		return // tar -tf a.tar lists what it holds, and writes none of it
	}
	if unknown != "" && (len(w.written) > 0 || w.overflow) {
		seg.Writes = append(seg.Writes, Word{Value: "the files inside " + unknown + " (perhaps a file this command writes first)", Dynamic: true})
		return
	}
	for _, f := range read {
		if w.wasWritten(f) {
			seg.Writes = append(seg.Writes, Word{Value: "the files inside " + f, Dynamic: true})
			return
		}
		// a descriptor (tar xf /dev/fd/3 after exec 3< a.tgz) may be
		// open on any file the command wrote
		if isFdDevice(f) && (len(w.written) > 0 || w.overflow) {
			seg.Writes = append(seg.Writes, Word{Value: "the files inside " + f + " (perhaps a file this command writes first)", Dynamic: true})
			return
		}
		// an option's value attached to its letters (tar -xzfa.tgz)
		if isOption(f) && !strings.HasPrefix(f, "--") {
			for n := range w.written {
				if len(n) < len(f)-1 && strings.HasSuffix(f, n) {
					seg.Writes = append(seg.Writes, Word{Value: "the files inside " + n, Dynamic: true})
					return
				}
			}
		}
	}
}

// archiveModes are, for archivers that also extract, the options with
// which they make or list an archive: they write no names they read.
var archiveModes = map[string][]string{
	"tar": {"-c", "--create", "-t", "--list"}, "bsdtar": {"-c", "--create", "-t", "--list"},
	"gtar": {"-c", "--create", "-t", "--list"}, "cpio": {"-o", "--create", "-t", "--list"},
}

// argvAt returns the segment's argv word i, or "".
func argvAt(seg *Segment, i int) string {
	if i < len(seg.Argv) && !slices.Contains(seg.Dynamic, i) {
		return seg.Argv[i]
	}
	return ""
}

// makesOrLists reports whether an extractor's invocation makes or lists an
// archive (tar -cf, tar tz, cpio -o, zip) rather than writing the names
// inside what it reads.
func makesOrLists(seg *Segment, words []wordInfo) bool {
	if seg.Program == "zip" {
		return true
	}
	modes := archiveModes[seg.Program]
	for _, o := range seg.Options {
		if contains(modes, o) {
			return true
		}
	}
	// tar's old form: the first word holds the letters (tar tzf -, tar cf
	// x), in argv as written (the words may be read again already: tar cv
	// is tar -c -v; a value "-c" of another option is no mode)
	if modes != nil && seg.Program != "cpio" {
		for _, first := range []wordInfo{words[min(1, len(words)-1)], {Word: Word{Value: argvAt(seg, 1)}}} {
			if first.Value != "" && !first.Dynamic && !strings.HasPrefix(first.Value, "-") {
				return strings.ContainsAny(first.Value, "ct")
			}
		}
	}
	return false
}

// proseOptions take text for people, not commands (gh pr create --body
// "mentions rm -rf", git-like -m): a sentence given to one is not read as a
// command line.
var proseOptions = map[string]bool{
	"-m": true, "--message": true, "--msg": true, "-b": true, "--body": true, "-t": true, "--title": true,
	"--description": true, "--desc": true, "--comment": true, "--subject": true, "--summary": true,
	"--note": true, "--notes": true, "--text": true, "--reason": true,
}

// codeExtensions name files of code: a program the catalogue does not
// describe may run one it is given (bun x.js, deno run x.ts).
var codeExtensions = map[string]bool{
	".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".tsx": true, ".jsx": true,
	".py": true, ".pyw": true, ".rb": true, ".pl": true, ".pm": true, ".php": true, ".lua": true,
	".sh": true, ".bash": true, ".zsh": true, ".fish": true, ".ps1": true, ".r": true, ".jl": true,
	".tcl": true, ".awk": true, ".sed": true, ".vim": true, ".el": true, ".scm": true, ".rkt": true,
	".clj": true, ".ex": true, ".exs": true, ".erl": true, ".hs": true, ".ml": true, ".go": true,
	".rs": true, ".c": true, ".cc": true, ".cpp": true, ".java": true, ".kt": true, ".kts": true,
	".swift": true, ".groovy": true, ".scala": true, ".dart": true, ".nim": true, ".zig": true,
	".wasm": true, ".so": true, ".jar": true,
}

// writtenCode reports a file of code that a program the catalogue does not
// describe is given after the same command wrote it: the program may run
// it, and its content is not what gate checked (bun x.js, deno run x.ts).
func (w *walker) writtenCode(seg *Segment, words []wordInfo) {
	for _, wd := range words[1:] {
		v := wd.Value
		if _, after, ok := strings.Cut(v, "="); ok && isOption(v) {
			v = after
		}
		if wd.Dynamic {
			// chronic "$PWD/a.sh": a path whose last element is literal
			if k := strings.LastIndex(v, "/"); k >= 0 && k+1 < len(v) && !strings.ContainsAny(strings.Trim(v[k+1:], `"'`), "$`*?[\"'") && w.wasWritten(strings.Trim(v[k+1:], `"'`)) {
				seg.addFinding(FindScriptFile, seg.Program+" is given "+v+", which may be a file this command writes first: gate does not know whether it runs it")
				return
			}
			continue
		}
		if isOption(v) && v == wd.Value {
			continue
		}
		// code by its name, or any file named by a path (chronic ./a):
		// a program started by a path runs as a script when it has none
		// of the kernel's formats (execvp runs it with sh)
		if (codeExtensions[strings.ToLower(path.Ext(v))] || strings.Contains(v, "/")) && w.wasWritten(v) {
			seg.addFinding(FindScriptFile, seg.Program+" is given "+v+", a file this command writes first: gate does not know whether it runs it")
			return
		}
	}
}
