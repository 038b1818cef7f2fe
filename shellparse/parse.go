package shellparse

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how deeply scripts inside scripts (bash -c 'bash -c ...')
// are followed; deeper nesting is reported as unprovable.
const maxDepth = 8

// Parser turns command lines into Programs. It is safe for concurrent use.
type Parser struct {
	cat    *Catalogue
	home   string
	env    expand.Environ
	limits Limits
	// exec: the words are one program's argv at exec time (see ForExec).
	exec bool
	// depth counts the parses of commands an unknown program may run made
	// inside this one (see maybeCommand).
	depth int
}

// Option configures a Parser.
type Option func(*Parser)

// WithHome sets the home directory that ~ expands to. Without it, words
// starting with ~ are dynamic.
func WithHome(dir string) Option {
	return func(p *Parser) { p.home = dir }
}

// ForExec makes a parser for reading the argv of a program that is about
// to run under exec-time supervision, where every program it starts is
// decided at its own exec: it does not read the arguments of a program the
// catalogue does not describe as commands it may run (Segment.MaybeRuns,
// and the code files it may run). That reading is for the static decision,
// and it is the dearest part of reading a long argv (cc1's, for one).
func ForExec() Option {
	return func(p *Parser) { p.exec = true }
}

// NewParser returns a parser that unwraps commands as cat describes. cat must
// have been validated with [Catalogue.Validate]; nil means no catalogue.
func NewParser(cat *Catalogue, opts ...Option) *Parser {
	if cat == nil {
		cat = &Catalogue{}
	}
	p := &Parser{cat: cat, limits: DefaultLimits}
	for _, o := range opts {
		o(p)
	}
	home := p.home
	p.env = expand.FuncEnviron(func(name string) string {
		if name == "HOME" {
			return home
		}
		return ""
	})
	return p
}

// Parse parses command as bash would and returns its segments. A command
// that cannot be parsed gives a Program with Error set and no segments; one
// over the parser's limits gives a Program with TooComplex set and no
// segments.
func (p *Parser) Parse(command string) *Program {
	return p.ParseContext(context.Background(), command)
}

// ParseContext is Parse within ctx: a parse still running when ctx ends
// stops, and its Program has TooComplex set (LimitTime).
func (p *Parser) ParseContext(pctx context.Context, command string) *Program {
	prog := &Program{Command: command, Segments: []*Segment{}}
	if len(command) > p.limits.MaxBytes {
		prog.TooComplex = &LimitError{Limit: LimitBytes, Max: int64(p.limits.MaxBytes),
			Message: "the command is " + itoa(len(command)) + " bytes long, more than " + itoa(p.limits.MaxBytes)}
		return prog
	}
	file, src, err := parseBash(command)
	if err != nil {
		prog.Error = toParseError(err)
		return prog
	}
	if err := pctx.Err(); err != nil {
		prog.TooComplex = timeUp(pctx)
		return prog
	}
	w := p.walker(pctx, prog, src)
	w.stmts(file.Stmts, topContext())
	return w.end()
}

// walker starts the walk of one program.
func (p *Parser) walker(pctx context.Context, prog *Program, src string) *walker {
	// expand.Config keeps state between calls, so each parse has its own.
	cfg := &expand.Config{Env: p.env}
	st := &state{prog: prog, expand: cfg, tainted: map[string]bool{}, names: map[string][]string{}, namerefs: map[string]bool{}, dashVars: map[string]bool{}, written: map[string]bool{},
		writeCount: map[string]int{}, writtenDirs: map[string]bool{}, named: map[string]bool{}, contents: map[string]string{},
		limits: p.limits, ctx: pctx, done: pctx.Done()}
	return &walker{p: p, src: src, state: st}
}

// topContext is the context of a program's top-level statements.
func topContext() *ctx {
	return &ctx{parent: -1, cwd: &cwdState{}, node: &ctxNode{}, funcs: &funcScope{}}
}

// end finishes the walk and returns its program: no segments when it
// stopped at a limit.
func (w *walker) end() *Program {
	if w.stop == nil {
		w.finish()
	}
	if w.stop != nil {
		w.prog.TooComplex = w.stop
		w.prog.Segments = []*Segment{}
	}
	return w.prog
}

// ParseArgv reads argv, the words of one simple command given as a list
// (the argv of a program about to run), as Parse reads the same words each
// quoted (syntax.Quote) and joined by spaces, without writing and parsing
// them as shell text: each word is one literal field. A word that cannot
// be quoted (a NUL byte) gives a Program with Error set, as Parse would;
// a walk that outlives ctx stops with TooComplex set, as ParseContext's.
func (p *Parser) ParseArgv(ctx context.Context, argv []string) *Program {
	words := make([]wordInfo, len(argv))
	quoted := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return &Program{Command: strings.Join(quoted[:i], " "), Segments: []*Segment{},
				Error: &ParseError{Message: "word " + itoa(i) + " cannot be quoted for bash: " + err.Error()}}
		}
		quoted[i] = q
		words[i] = wordInfo{Word: Word{Value: a}, quoted: q != a, raw: q}
	}
	command := strings.Join(quoted, " ")
	prog := &Program{Command: command, Segments: []*Segment{}}
	if len(command) > p.limits.MaxBytes {
		prog.TooComplex = &LimitError{Limit: LimitBytes, Max: int64(p.limits.MaxBytes),
			Message: "the command is " + itoa(len(command)) + " bytes long, more than " + itoa(p.limits.MaxBytes)}
		return prog
	}
	if len(words) == 0 {
		return prog
	}
	w := p.walker(ctx, prog, command)
	c := topContext()
	seg := w.newSegment(c, KindCommand)
	if !w.countWords(len(words)) {
		w.analyze(seg, words, c, nil)
	}
	return w.end()
}

// parsers are reusable bash parsers: a new one costs more than most parses.
// Comments are kept: where mvdan reads one, bash may not (see
// commentsAgree).
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}}

// parseBash parses src with mvdan/sh in bash mode.
//
// mvdan drops a backslash-newline continuation but, unlike bash, does not join
// what surrounds it: "$\<newline>(cmd)" inside double quotes or an unquoted
// here-document is read as the text "$" and "(cmd)", while bash runs cmd.
// Removing the continuations mvdan dropped is what bash does first anyway, so
// the source is rewritten without them and parsed again.
func parseBash(src string) (*syntax.File, string, error) {
	if pos := strings.IndexByte(src, 0); pos >= 0 {
		// No program can pass a NUL byte to bash -c, and bash drops the
		// ones it reads from a file: what runs is not what is parsed.
		line := strings.Count(src[:pos], "\n") + 1
		col := pos - strings.LastIndex(src[:pos], "\n")
		return nil, src, &ParseError{Line: line, Col: col, Message: "a NUL byte: bash never runs this text as written"}
	}
	if pos := escapedCRLF(src); pos >= 0 {
		// bash reads backslash-CR as a quoted CR and then ends the command
		// at the LF; mvdan takes the three bytes for a line continuation
		// and joins the two lines into one command.
		line := strings.Count(src[:pos], "\n") + 1
		col := pos - strings.LastIndex(src[:pos], "\n")
		return nil, src, &ParseError{Line: line, Col: col,
			Message: "backslash before CR LF: bash and the parser disagree on where this command ends"}
	}
	closed := 0
	for range 4 {
		sp := parsers.Get().(*syntax.Parser)
		file, err := sp.Parse(strings.NewReader(src), "")
		parsers.Put(sp)
		if delim, ok := unclosedHeredoc(err); ok && closed < maxOpenHeredocs {
			// bash runs a here-document left open at the end of the
			// input, its body all that follows ("delimited by
			// end-of-file"): read it the same way, closed there.
			closed++
			if !strings.HasSuffix(src, "\n") {
				src += "\n"
			}
			src += delim
			continue
		}
		if err != nil {
			return nil, src, err
		}
		if err := lonelyCR(file, src); err != nil {
			return nil, src, err
		}
		if err := fdVarSubscript(file, src); err != nil {
			return nil, src, err
		}
		if err := funcBodiesAgree(file); err != nil {
			return nil, src, err
		}
		ends, err := commentsAgree(file, src)
		if err != nil {
			return nil, src, err
		}
		if len(ends) > 0 {
			// bash ends a comment at its newline even after a backslash;
			// mvdan takes backslash-newline for a continuation and joins
			// the next line to the command before the comment. The
			// backslash is comment text: a blank in its place keeps every
			// offset and makes mvdan end the comment where bash does.
			b := []byte(src)
			for _, i := range ends {
				b[i] = ' '
			}
			src = string(b)
			continue
		}
		cuts, err := droppedContinuations(file, src)
		if err != nil {
			return nil, src, err
		}
		if len(cuts) == 0 {
			if err := heredocsAgree(file, src); err != nil {
				return nil, src, err
			}
			return file, src, nil
		}
		var b strings.Builder
		last := 0
		for _, c := range cuts {
			b.WriteString(src[last:c])
			last = c + 2
		}
		b.WriteString(src[last:])
		src = b.String()
	}
	return nil, src, errors.New("line continuations or open here-documents nest too deeply")
}

// maxOpenHeredocs bounds the here-documents closed at the end of input.
const maxOpenHeredocs = 2

// unclosedHeredoc returns the delimiter of the here-document err says is
// left open at the end of the input.
func unclosedHeredoc(err error) (string, bool) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return "", false
	}
	delim, ok := strings.CutPrefix(pe.Text, "unclosed here-document `")
	if !ok {
		return "", false
	}
	delim, ok = strings.CutSuffix(delim, "`")
	return delim, ok && delim != "" && !strings.ContainsAny(delim, "\n`")
}

// heredocsAgree rejects here-documents whose end bash may find on another
// line than the parser: everything between the two ends would be read as
// data by one and run as commands by the other. Bash joins a line ending
// in a backslash with the next before it compares it with an unquoted
// delimiter (E\<newline>OF ends <<EOF), removes backslashes inside a
// double-quoted delimiter and decodes $'...', and inside $( ) also ends
// the document at a line that starts with the delimiter and a ")".
// Delimiters are read in simple forms only (EOF, 'EOF', "EOF", \EOF).
func heredocsAgree(file *syntax.File, src string) error {
	if !strings.Contains(src, "<<") {
		return nil // no here-document: no walk on every parse
	}
	var bad error
	syntax.Walk(file, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || bad != nil || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Word == nil {
			return bad == nil
		}
		fail := func(off int, msg string) {
			line := strings.Count(src[:min(max(off, 0), len(src))], "\n") + 1
			bad = &ParseError{Line: line, Message: msg}
		}
		ws, we := int(r.Word.Pos().Offset()), int(r.Word.End().Offset())
		if ws < 0 || we > len(src) || ws >= we {
			fail(0, "a here-document whose delimiter cannot be located")
			return false
		}
		delim, ok := simpleDelimiter(src[ws:we])
		if !ok {
			fail(ws, "here-document delimiter "+clip(src[ws:we])+": gate reads delimiters only as EOF, 'EOF', \"EOF\" or \\EOF, where bash and the parser agree on where the document ends")
			return false
		}
		quoted := quotedDelimiter(r.Word)
		body, bodyStart := "", we
		if r.Hdoc != nil {
			bs, be := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
			if bs < 0 || be > len(src) || bs > be {
				fail(ws, "a here-document whose text cannot be located")
				return false
			}
			body, bodyStart = src[bs:be], bs
		}
		ends := func(line string) bool {
			t := line
			if r.Op == syntax.DashHdoc {
				t = strings.TrimLeft(line, "\t")
			}
			return t == delim || strings.HasPrefix(t, delim+")")
		}
		lines := strings.SplitAfter(body, "\n")
		for len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		// The parser's text of the document ends with its delimiter line.
		if n := len(lines); n > 0 {
			last := strings.TrimSuffix(lines[n-1], "\n")
			if r.Op == syntax.DashHdoc {
				last = strings.TrimLeft(last, "\t")
			}
			if last == delim {
				lines = lines[:n-1]
			}
		}
		pending, joined := "", false
		off := bodyStart
		for _, l := range lines {
			line := strings.TrimSuffix(l, "\n")
			if !quoted && strings.HasSuffix(l, "\n") && oddBackslashes(line) {
				pending += strings.TrimSuffix(line, "\\")
				joined = true
				off += len(l)
				continue
			}
			logical := pending + line
			if ends(logical) || (joined && ends(strings.TrimLeft(line, "\t"))) {
				fail(off, "bash may end the here-document <<"+delim+" at this line, before the parser does")
				return false
			}
			pending, joined = "", false
			off += len(l)
		}
		if joined {
			fail(off, "the here-document <<"+delim+" ends with a backslash-newline, which bash joins with the delimiter line")
			return false
		}
		return true
	})
	return bad
}

// simpleDelimiter returns the delimiter of a here-document written as a
// plain word (letters, digits and a few punctuation characters), with
// quotes around all or part of it, or after one backslash: no backslash,
// dollar or backquote inside quotes.
func simpleDelimiter(raw string) (string, bool) {
	plain := func(s string) bool {
		if s == "" {
			return false
		}
		for _, c := range s {
			if !(c == '_' || c == '-' || c == '\r' || c == '.' || c == '+' || c == ':' || c == '@' || c == '%' || c == ',' || c == '/' || c == '=' ||
				(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
				return false
			}
		}
		return true
	}
	if plain(raw) {
		return raw, true
	}
	if len(raw) >= 2 && raw[0] == '\\' && plain(raw[1:]) {
		return raw[1:], true
	}
	// Quotes around all or part of it (E"OF", 'EOF'): bash removes them.
	if strings.Count(raw, "'")%2 == 0 && strings.Count(raw, `"`)%2 == 0 {
		if d := strings.NewReplacer("'", "", `"`, "").Replace(raw); plain(d) {
			return d, true
		}
	}
	return "", false
}

// oddBackslashes reports whether line ends with an odd number of
// backslashes: its last one escapes the newline.
func oddBackslashes(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// droppedContinuations returns the offsets of backslash-newline pairs that
// mvdan removed from literals, and rejects literals that bash would split
// but mvdan does not (a backslash before CR LF). The body of a here-document
// with a quoted delimiter is left alone: bash keeps its backslash-newlines
// as text (heredocsAgree checks that both end it on the same line).
func droppedContinuations(file *syntax.File, src string) ([]int, error) {
	var cuts []int
	var bad error
	seen := map[int]bool{}
	var verbatim [][2]int // quoted here-document bodies
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Hdoc != nil && quotedDelimiter(n.Word) {
				verbatim = append(verbatim, [2]int{int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset())})
			}
		case *syntax.Lit:
			start, end := int(n.Pos().Offset()), int(n.End().Offset())
			if start < 0 || end > len(src) || start >= end {
				return true
			}
			for _, v := range verbatim {
				if start >= v[0] && end <= v[1] {
					return true
				}
			}
			raw := src[start:end]
			if raw == n.Value {
				return true
			}
			for i := 0; i < len(raw)-1; i++ {
				if raw[i] != '\\' {
					continue
				}
				if raw[i+1] == '\n' && !seen[start+i] {
					seen[start+i] = true
					cuts = append(cuts, start+i)
				}
				i++ // skip the escaped character
			}
		case *syntax.Word:
			// An unquoted literal never holds a newline in bash: a newline ends
			// the word. mvdan keeps one after a backslash-CR.
			for _, part := range n.Parts {
				if lit, ok := part.(*syntax.Lit); ok && strings.Contains(lit.Value, "\\\r\n") {
					bad = &ParseError{Line: int(lit.Pos().Line()), Col: int(lit.Pos().Col()),
						Message: "backslash before CR LF: bash and the parser disagree on where this command ends"}
				}
			}
		}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	slices.Sort(cuts)
	return cuts, nil
}

// lonelyCR rejects a carriage return that is not part of a CR LF line end,
// outside quotes, here-document bodies and comments, unless a backslash
// escapes it. mvdan reads such a CR as a blank; for bash it is a word
// character: "ls\r#; rm x" runs rm (the # is inside the word "ls\r#"),
// and ">\r rm x" redirects to a file named CR and runs rm.
func lonelyCR(file *syntax.File, src string) error {
	var crs []int // CRs that are neither in CR LF nor escaped, in order
	for i := strings.IndexByte(src, '\r'); i >= 0; {
		n := 0
		for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
			n++
		}
		if (i+1 >= len(src) || src[i+1] != '\n') && n%2 == 0 {
			crs = append(crs, i)
		}
		next := strings.IndexByte(src[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if len(crs) == 0 {
		return nil
	}
	var text [][2]int // byte ranges where a CR is text for both
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			text = append(text, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
		case *syntax.Redirect:
			if n.Hdoc != nil {
				text = append(text, [2]int{int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset())})
			}
		case *syntax.Comment:
			h := int(n.Hash.Offset())
			end := len(src)
			if nl := strings.IndexByte(src[min(h, len(src)):], '\n'); nl >= 0 {
				end = h + nl
			}
			text = append(text, [2]int{h, end})
		}
		return true
	})
	// One sweep over the ranges by start: a CR is inside one when the
	// furthest end of the ranges starting at or before it lies past it.
	slices.SortFunc(text, func(a, b [2]int) int { return a[0] - b[0] })
	reach, j := 0, 0
	for _, i := range crs {
		for ; j < len(text) && text[j][0] <= i; j++ {
			reach = max(reach, text[j][1])
		}
		if i < reach {
			continue
		}
		line := strings.Count(src[:i], "\n") + 1
		col := i - strings.LastIndex(src[:i], "\n")
		return &ParseError{Line: line, Col: col,
			Message: "a carriage return outside quotes: bash reads it as part of a word, the parser as a blank"}
	}
	return nil
}

// commentsAgree checks each comment mvdan read against bash. Bash starts a
// comment only at the start of a word: after "<<'A'" or a CR, "#" is part
// of the word (the delimiter A#), while mvdan reads a comment that hides the
// rest of the line. A comment ending in a backslash ends at the newline for
// bash; mvdan joins the next line. The offsets of those backslashes are
// returned for the caller to blank out.
func commentsAgree(file *syntax.File, src string) ([]int, error) {
	if !strings.Contains(src, "#") {
		return nil, nil
	}
	var ends []int
	var bad error
	// a=(1)#x: after the ) of an array assignment bash goes on reading
	// the same word, where # starts no comment
	arrayEnds := map[int]bool{}
	syntax.Walk(file, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.ArrayExpr); ok {
			arrayEnds[int(a.Rparen.Offset())] = true
		}
		return true
	})
	syntax.Walk(file, func(n syntax.Node) bool {
		c, ok := n.(*syntax.Comment)
		if !ok || bad != nil {
			return bad == nil
		}
		h := int(c.Hash.Offset())
		if h < 0 || h >= len(src) || src[h] != '#' {
			bad = &ParseError{Line: int(c.Hash.Line()), Col: int(c.Hash.Col()), Message: "a comment that cannot be located"}
			return false
		}
		if h > 0 && (!strings.ContainsRune(" \t\n;&|()<>", rune(src[h-1])) || arrayEnds[h-1]) {
			bad = &ParseError{Line: int(c.Hash.Line()), Col: int(c.Hash.Col()),
				Message: "# right after " + strconv.Quote(src[h-1:h]) + ": bash reads it as part of a word, the parser as the start of a comment"}
			return false
		}
		if nl := strings.IndexByte(src[h:], '\n'); nl > 0 && src[h+nl-1] == '\\' {
			ends = append(ends, h+nl-1)
		}
		return true
	})
	return ends, bad
}

// fdVarSubscript rejects a word {NAME[...]} right before a redirection
// operator. Bash 5 reads it as a redirection that stores the new file
// descriptor in an array element, and evaluates the subscript, which can
// run commands ({a[$(cmd)]}>f); mvdan reads only {NAME} that way, and takes
// the word for an argument.
func fdVarSubscript(file *syntax.File, src string) error {
	if !strings.Contains(src, "]}") {
		return nil
	}
	wordAt := map[int]int{} // end offset -> start offset of each word
	var redirs []*syntax.Redirect
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			wordAt[int(n.End().Offset())] = int(n.Pos().Offset())
		case *syntax.Redirect:
			if n.N == nil {
				redirs = append(redirs, n)
			}
		}
		return true
	})
	for _, r := range redirs {
		op := int(r.OpPos.Offset())
		start, ok := wordAt[op]
		if !ok || start < 0 || op > len(src) || start >= op {
			continue
		}
		if fdSubscriptWord.MatchString(src[start:op]) {
			return &ParseError{Line: int(r.OpPos.Line()), Col: int(r.OpPos.Col()),
				Message: "a redirection after " + clip(src[start:op]) + ": bash stores the file descriptor in an array element and evaluates its subscript"}
		}
	}
	return nil
}

// funcBodiesAgree rejects a function definition followed by an operator
// (f() { …; } | cat, f() { …; } &, f() { …; } && x). Bash's function body
// is one compound command: the definition ends there and is itself a part
// of the pipeline, list or background job, so in a pipeline or behind &
// it defines the function in a subshell only, and a later f runs the
// program f. mvdan takes the operator and what follows into the body.
func funcBodiesAgree(file *syntax.File) error {
	var bad error
	syntax.Walk(file, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok || bad != nil || fd.Body == nil {
			return bad == nil
		}
		_, binary := fd.Body.Cmd.(*syntax.BinaryCmd)
		if binary || fd.Body.Background || fd.Body.Coprocess || fd.Body.Negated {
			bad = &ParseError{Line: int(fd.Pos().Line()), Col: int(fd.Pos().Col()),
				Message: "a function definition followed by an operator: bash ends the definition before it, the parser reads the operator into the function's body"}
		}
		return bad == nil
	})
	return bad
}

// fdSubscriptWord is {NAME[SUBSCRIPT]}: what bash 5 reads as a redirection's
// file descriptor variable with a subscript.
var fdSubscriptWord = regexp.MustCompile(`^\{[A-Za-z_][A-Za-z0-9_]*\[.*\]\}$`)

// escapedCRLF returns the offset of the first backslash that escapes a CR
// followed by LF (an odd run of backslashes before CR LF), or -1.
func escapedCRLF(src string) int {
	for i := strings.Index(src, "\\\r\n"); i >= 0; {
		n := 0
		for j := i; j >= 0 && src[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			return i
		}
		next := strings.Index(src[i+3:], "\\\r\n")
		if next < 0 {
			break
		}
		i += 3 + next
	}
	return -1
}

func toParseError(err error) *ParseError {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return &ParseError{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col()), Message: pe.Text}
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return &ParseError{Line: int(le.Pos.Line()), Col: int(le.Pos.Col()), Message: le.Error()}
	}
	var own *ParseError
	if errors.As(err, &own) {
		return own
	}
	return &ParseError{Message: err.Error()}
}

// ctx is what the walker knows about the place a statement sits in.
type ctx struct {
	// node is the innermost construct; constructs link to the enclosing
	// one, so that nesting costs one node per level, not a copy of the
	// whole path.
	node       *ctxNode
	background bool
	parent     int
	via        string
	// stdin is set when the statement's input comes from a pipe or a
	// redirection of an enclosing command, so a shell there reads a script.
	stdin bool
	// authored is set when that input is data the command spells out: a
	// here-document or here-string, or echo or printf earlier in the pipe
	// (printf … | patch -p1, base64 -d <<< … | tar x).
	authored bool
	// stdinFrom are the files redirections of this or enclosing
	// statements give as that input ({ tar xz; } < a.tgz); stdinUnknown
	// is set when one names a file only known at run time.
	stdinFrom    []string
	stdinUnknown bool
	cwd          *cwdState
	// funcs are the functions defined, on every path, before this point
	// in the shell the statement runs in.
	funcs *funcScope
	depth int
}

// ctxNode is one construct of a context, linked to the one enclosing it.
type ctxNode struct {
	name   string
	parent *ctxNode
	depth  int
	// path is the context from the outermost construct to this one, built
	// once, when a segment is first made here, and shared by the segments
	// made here.
	path []string
}

// strings returns the node's path of constructs, outermost first.
func (n *ctxNode) strings() []string {
	if n.path == nil {
		path := make([]string, n.depth)
		for m := n; m.depth > 0; m = m.parent {
			path[m.depth-1] = m.name
		}
		n.path = path
	}
	return n.path
}

func (c *ctx) with(construct string) *ctx {
	n := *c
	n.node = &ctxNode{name: construct, parent: c.node, depth: c.node.depth + 1}
	return &n
}

// within reports whether c is inside a construct of that name.
func (c *ctx) within(construct string) bool {
	for n := c.node; n != nil && n.depth > 0; n = n.parent {
		if n.name == construct {
			return true
		}
	}
	return false
}

// copy returns a shallow copy of c sharing its directory state.
func (c *ctx) copy() *ctx {
	n := *c
	return &n
}

// fork returns a context whose directory changes do not leak back (subshells,
// pipelines, substitutions, background jobs).
func (c *ctx) fork(construct string) *ctx {
	n := c.with(construct)
	n.cwd = c.cwd.clone()
	n.funcs = c.funcs.clone()
	return n
}

// changesDir finds a word that may change the shell's directory.
var changesDir = regexp.MustCompile(`(^|[^A-Za-z0-9_.-])(cd|pushd|popd)([^A-Za-z0-9_.-]|$)`)

// funcScope holds the names of the functions a shell has defined. A
// subshell gets a copy: what it defines is gone when it ends.
type funcScope struct {
	names map[string]bool
}

func (f *funcScope) clone() *funcScope {
	n := &funcScope{names: make(map[string]bool, len(f.names))}
	for k := range f.names {
		n.names[k] = true
	}
	return n
}

// undefine forgets a function unset may remove (unset NAME removes the
// function when no variable has the name); name "" forgets them all.
func (f *funcScope) undefine(name string) {
	if name == "" {
		clear(f.names)
		return
	}
	delete(f.names, name)
}

func (f *funcScope) define(name string) {
	if f.names == nil {
		f.names = map[string]bool{}
	}
	f.names[name] = true
}

// conditionalConstructs are contexts where a function definition may not
// run: a call after them may run the program of the same name.
var conditionalConstructs = []string{"if", "while", "until", "for", "case", "and", "or", "function", "pipe", "negated"}

// cwdState tracks the directory relative paths resolve against.
type cwdState struct {
	dirs    []string
	unknown bool
	changes int
}

func (s *cwdState) clone() *cwdState {
	return &cwdState{dirs: append([]string(nil), s.dirs...), unknown: s.unknown, changes: s.changes}
}

// uncertainAfter marks the directory unknown when changes happened since
// mark: they may or may not have run (conditional or failing commands).
func (s *cwdState) uncertainAfter(mark int) {
	if s.changes != mark {
		s.unknown = true
		s.changes++
	}
}

type arithUse struct {
	name  string
	owner ownerFn
	code  string
	// array is the array whose subscript reads name, outside arithmetic
	// (${m[$k]}, m[$k]=v), and at the segments made by then: an
	// associative array's subscript is text, not arithmetic.
	array string
	at    int
}

// walker walks one script; scripts nested in it (bash -c, eval) get their
// own walker sharing the state.
type walker struct {
	p   *Parser
	src string
	*state
	// nested marks the walker of a script inside the command (bash -c,
	// eval, a backquoted substitution), not the command line itself.
	nested bool
	// splits counts the env -S strings read again as argv (splitString).
	splits int
	// prefixOfRead is set while the assignments of a call to the read
	// builtin are walked: IFS=... read only changes how read splits.
	prefixOfRead bool
	// inDouble is set while the parts of a double-quoted string are
	// walked: there a backquoted substitution also unescapes \".
	inDouble bool
	// andLeft is set while the left side of X && Y is walked when it is
	// itself a list X1 && X2: Y runs only when both succeeded, so the
	// directory a cd in them moved to holds for Y (see binary).
	andLeft bool
}

// funcBody is a function's body: its segments from first to end, and
// dirChanges when it was walked.
type funcBody struct {
	first, end, dirChanges int
}

// trapSet is a trap command, the writes noted before it and the directory
// state of the shell that set it, with its count of changes then.
type trapSet struct {
	seg        *Segment
	seq        int
	dirChanges int
}

// state is shared by the walkers of one command line.
type state struct {
	prog    *Program
	expand  *expand.Config
	tainted map[string]bool
	// stdinRedirected: an exec without a command redirected the shell's
	// input (exec < f): the commands after it read f.
	stdinRedirected bool
	// keyLoops are the loops over an array's keys (for i in "${!a[@]}"):
	// numbers unless the array may be associative. assoc holds the names
	// declared -A anywhere; notAssoc the names declared or unset otherwise
	// (see assocDeclared); assocUnknown is set by what may declare or unset
	// names gate does not know: a word known only at run time, a nameref,
	// a file sourced, more names than the maps hold.
	keyLoops     []keyLoop
	assoc        map[string]bool
	notAssoc     map[string]bool
	assocUnknown bool
	// dirChanges counts the directory changes walked anywhere in the
	// command (any shell, any construct).
	dirChanges int
	// funcBodies are the segments of each function body and the count of
	// directory changes when it was defined: a change after it may move
	// where a call runs the body.
	funcBodies []funcBody
	// callSegs gives the segment each simple command walked last made
	// (made on first use: most commands have no pipe).
	callSegs map[*syntax.CallExpr]int
	// names records, for each variable, the variable names its assigned
	// values hold (x=y, x='a-b': arithmetic evaluates them in turn), so
	// taint follows x=y when y is tainted, whichever assignment a use
	// sees.
	names map[string][]string
	// namerefs holds variables declared -n without a value: their next
	// assignment names the variable they refer to.
	namerefs map[string]bool
	// dashVars holds the variables the command sets to a value that may
	// start with "-" (X=--opt, X=$(cmd), for X in -e ...): "$X" may be an
	// option the program reads.
	dashVars map[string]bool
	// inFunction counts the function bodies being walked: there "$@" and
	// "$1" are what the command's calls pass. setPositional is set once the
	// command sets them itself (set -- ...).
	inFunction    int
	setPositional bool
	// refs maps a nameref to the variable it names (declare -n r=y):
	// taint flows both ways between them. integers holds variables
	// declared -i: a value assigned to them is evaluated as arithmetic.
	// Both are made on first use.
	refs     map[string][]string
	integers map[string]bool
	arith    []arithUse
	// written holds the base names of files that segments walked so far
	// may write; writeSeq counts the writes noted.
	written  map[string]bool
	writeSeq int
	// funcRuns maps a function whose body runs programs that may load
	// files (interpreters, project runners, scripts, programs gate does
	// not know) to writeSeq when it was defined: a call after more writes
	// may run what they wrote, which the body's checks did not see.
	funcRuns map[string]int
	// traps are the trap segments with writeSeq when each was set: the
	// action runs later (at exit, on a signal, before commands)
	traps []trapSet
	// readOpened holds the files redirections opened for reading (3<f,
	// <f): a write to /dev/fd/3 opens one again, for writing
	readOpened []string
	fdWrites   bool // a write through /dev/fd/N (or the like) was seen
	// writeCount counts the writes of each base name in written; overflow is
	// set when there were more names than maxWritten.
	writeCount map[string]int
	overflow   bool
	// writtenDirs holds the names of the directories those files are in
	// (node_modules for node_modules/.bin/jest), as far as the command
	// names them.
	writtenDirs map[string]bool
	// named holds the base names of written that a redirection or a
	// catalogue write names (not the operands of a program gate does not
	// know, which may or may not write them).
	named map[string]bool
	// unknownNames is set after a part of the command makes names only
	// known at run time where it runs (an extraction, a copy of a
	// directory's contents, git checkout): a later pattern may match one
	// that starts with "-".
	unknownNames bool
	// dashNames holds the base names starting with "-" of files and
	// directories that segments walked so far may create (touch and mkdir
	// included): a pattern bash expands later may turn one into an option.
	dashNames []string
	// eqNames is set when such a name holds "=": make reads it, given as
	// an argument, as a variable definition.
	eqNames bool
	// contents holds the text cat wrote from a literal here-document to a
	// file (keyed by its path from the directories changed into), and
	// contentUses the segments that ran such a file as code: the file must
	// be written exactly once in the whole command (see finish).
	contents    map[string]string
	contentUses []contentUse
	// aliases are the segments that define aliases (see finish).
	aliases []*Segment
	// numericUses are the command substitutions taken for numbers
	// (n=$(ls | wc -l); $(( $(date +%s) % 60 ))), by the program that
	// prints them; declared are the functions defined anywhere in the
	// command. A use whose program may be something else holds data
	// (see finish).
	numericUses []numericUse
	declared    map[string]bool

	limits Limits
	words  int
	// stop is set when the walk went over a limit; the walk then returns
	// without looking further.
	stop  *LimitError
	ctx   context.Context
	done  <-chan struct{}
	ticks int
}

func (w *walker) newSegment(c *ctx, kind string) *Segment {
	seg := &Segment{
		ID:         len(w.prog.Segments),
		Parent:     c.parent,
		PipedFrom:  -1,
		Kind:       kind,
		Argv:       []string{},
		Dynamic:    []int{},
		Options:    []string{},
		Path:       []string{},
		Assigns:    []Assign{},
		Redirects:  []Redirect{},
		Writes:     []Word{},
		Context:    c.node.strings(),
		Background: c.background,
		Via:        c.via,
		Findings:   []Finding{},
	}
	if c.cwd.unknown {
		seg.ChdirUnknown = true
	} else if len(c.cwd.dirs) > 0 {
		seg.Chdir = append([]string(nil), c.cwd.dirs...)
	}
	w.prog.Segments = append(w.prog.Segments, seg)
	if len(w.prog.Segments) > w.limits.MaxSegments && w.stop == nil {
		w.stop = overLimit(LimitSegments, w.limits.MaxSegments, "segments")
	}
	return seg
}

// loop walks the body of a loop, which bash may run more than once: when
// it writes files, it is walked again, so that what runs a file written
// later in the body (for i in 1 2; do python3 x.py; echo ... > x.py;
// done) is seen as the second round runs it. The second walk only adds
// findings to the first one's segments.
func (w *walker) loop(walk func()) {
	first, names := len(w.prog.Segments), len(w.written)
	walk()
	if w.stop != nil || (len(w.written) == names && !w.overflow) {
		return
	}
	end := len(w.prog.Segments)
	walk()
	if w.stop != nil {
		return
	}
	again := w.prog.Segments[end:]
	w.prog.Segments = w.prog.Segments[:end]
	if len(again) != end-first {
		w.prog.Segments[max(first, end-1)].addFinding(FindScriptFile, "a loop that writes files reads differently the second time round")
		return
	}
	for i, s := range again {
		for _, f := range s.Findings {
			w.prog.Segments[first+i].addFinding(f.Code, f.Message)
		}
	}
}

// lose makes the directory unknown from here on, as a change.
func (s *cwdState) lose() {
	s.unknown = true
	s.changes++
}

// elsewhere returns a copy of c whose commands run in a directory only
// known at run time (find -execdir, what tmux or git starts).
func (c *ctx) elsewhere() *ctx {
	n := c.copy()
	n.cwd = c.cwd.clone()
	n.cwd.lose()
	return n
}

// dirUnknown makes the directory of segs only known at run time.
func dirUnknown(segs []*Segment) {
	for _, s := range segs {
		s.ChdirUnknown, s.Chdir = true, nil
	}
}

// loopDir makes the directory of the loop body's segments (from first)
// unknown when the body changes the shell's directory (mark is the count of
// changes before it): the next round starts where the last one ended (for
// i in 1 2; do touch x; cd ..; done touches ../x the second time).
func (w *walker) loopDir(first, mark int, c *ctx) {
	if c.cwd.changes != mark && w.stop == nil {
		dirUnknown(w.prog.Segments[first:])
	}
}

func (seg *Segment) addFinding(code, msg string) {
	for _, f := range seg.Findings {
		if f.Code == code && f.Message == msg {
			return
		}
	}
	seg.Findings = append(seg.Findings, Finding{Code: code, Message: msg})
}

func (w *walker) stmts(list []*syntax.Stmt, c *ctx) {
	for i, s := range list {
		mark := c.cwd.changes
		w.stmt(s, c)
		if i < len(list)-1 {
			// the statements after it run whether or not its cd worked
			// (cd a/b; touch ../x touches x beside the root when a/b is
			// missing); after the last, the list's status is the cd's
			c.cwd.uncertainAfter(mark)
		}
	}
}

// stmt walks one statement: its redirections, then its command.
func (w *walker) stmt(s *syntax.Stmt, c *ctx) {
	w.checkDone()
	if s == nil || w.stop != nil {
		return
	}
	if c.node.depth > w.limits.MaxDepth {
		w.stop = overLimit(LimitDepth, w.limits.MaxDepth, "levels of nested constructs")
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		// A background job or coprocess runs in a subshell: what it
		// defines (f() { …; } &) is gone for the commands after it.
		c = c.copy()
		c.cwd = c.cwd.clone()
		c.funcs = c.funcs.clone()
		c.background = true
	}
	if s.Negated {
		c = c.with("negated")
		// ! cd X: what follows on success runs when cd failed
		defer c.cwd.uncertainAfter(c.cwd.changes)
	}
	if w.stdinRedirected && !c.stdin {
		// after exec < f (exec <<< TEXT), every command of the shell and
		// of the programs it starts reads f
		c = c.copy()
		c.stdin, c.stdinUnknown = true, true
	}
	first := len(w.prog.Segments)
	redirs, stdinLit, hasStdin := w.redirects(s.Redirs)
	inner := c
	call, isCall := s.Cmd.(*syntax.CallExpr)
	if hasStdin && (stdinLit == nil || !isCall) {
		// a compound command's input (( ed f ) <<< TEXT, for … done <
		// f) is the input of every command in it
		inner = c.copy()
		inner.stdin = true
		for _, r := range redirs {
			if !r.Write && !r.Dup && (r.FD == "" || r.FD == "0") && (r.Op == "<" || r.Op == "<>") {
				if r.Dynamic {
					inner.stdinUnknown = true
				} else {
					inner.stdinFrom = append(slices.Clip(inner.stdinFrom), r.Target)
				}
			}
		}
	}
	if hasStdin && hereDoc(s.Redirs) {
		inner = inner.copy()
		inner.authored = true
	}
	if isCall {
		w.call(call, redirs, stdinLit, inner)
		if hasStdin && len(call.Args) == 1 && call.Args[0].Lit() == "exec" {
			w.stdinRedirected = true
		}
	} else {
		w.command(s.Cmd, inner)
		if len(redirs) > 0 {
			if len(w.prog.Segments) == first {
				seg := w.newSegment(c, KindCommand)
				seg.Program = ""
				seg.Redirects = redirs
			} else {
				seg := w.prog.Segments[first]
				for _, r := range redirs {
					r.Inherited = true
					seg.Redirects = append(seg.Redirects, r)
				}
			}
			// { …; } > f, ( … ) > f, for … done > f: the files are
			// written for the commands after this one, as a simple
			// command's are (its segments were recorded without them)
			w.recordWrites(&Segment{Redirects: redirs}, nil, c.cwd.dirs)
		}
	}
	// Substitutions in redirection targets and here-documents run in the
	// context of this statement.
	owner := w.ownerAfter(first, c)
	for _, r := range redirs {
		// {NAME}>x stores the descriptor's number in NAME ({PATH}>x)
		if name, ok := strings.CutPrefix(r.FD, "{"); ok {
			if name = strings.TrimSuffix(name, "}"); w.meaningful(name) {
				owner().addFinding(FindEnvCode, "the redirection {"+name+"} sets "+name+" to a descriptor's number, which changes what runs")
			}
		}
	}
	for _, r := range s.Redirs {
		sc := c.copy()
		sc.cwd = c.cwd.clone()
		if r.Word != nil {
			w.wordParts(r.Word.Parts, sc, owner)
		}
		if r.Hdoc != nil {
			hc := sc.with("heredoc")
			w.wordParts(r.Hdoc.Parts, hc, owner)
			for _, part := range r.Hdoc.Parts {
				if pe, ok := part.(*syntax.ParamExp); ok {
					w.quotesInDouble(pe, hc, owner)
				}
			}
		}
	}
}

// ownerAfter returns a function giving the first segment created since
// first, for attaching findings of redirections; it creates one if the
// statement made none.
func (w *walker) ownerAfter(first int, c *ctx) ownerFn {
	var made *Segment
	return func() *Segment {
		if len(w.prog.Segments) > first {
			return w.prog.Segments[first]
		}
		if made == nil {
			made = w.newSegment(c, KindAssignment)
		}
		return made
	}
}

// ownerFn returns the segment that findings about a word belong to, creating
// it on first use when the word belongs to no command.
type ownerFn func() *Segment

func fixed(seg *Segment) ownerFn { return func() *Segment { return seg } }

// redirects evaluates redirections. It returns the literal text fed to stdin
// by a here-document or here-string whose content is static, and whether
// stdin comes from anywhere but the terminal.
func (w *walker) redirects(rs []*syntax.Redirect) ([]Redirect, *string, bool) {
	out := []Redirect{}
	var lit *string
	hasStdin := false
	for _, r := range rs {
		red := Redirect{Op: r.Op.String()}
		if r.N != nil {
			red.FD = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			hasStdin = true
			lit = nil
			if r.Hdoc != nil && quotedDelimiter(r.Word) {
				text := hdocText(r.Hdoc)
				if r.Op == syntax.DashHdoc {
					text = stripTabs(text)
				}
				lit = &text
			} else if r.Hdoc != nil {
				if v := w.document(r.Hdoc); !v.Dynamic {
					text := v.Value
					if r.Op == syntax.DashHdoc {
						text = stripTabs(text)
					}
					lit = &text
				}
			} else {
				empty := ""
				lit = &empty
			}
			out = append(out, red)
			continue
		case syntax.WordHdoc:
			hasStdin = true
			v := w.literal(r.Word)
			lit = nil
			if !v.Dynamic {
				text := v.Value + "\n"
				lit = &text
			}
			red.Target = v.Value
			red.Dynamic = v.Dynamic
			out = append(out, red)
			continue
		}
		v := w.literal(r.Word)
		red.Target = v.Value
		red.Dynamic = v.Dynamic
		red.Pipe = v.Pipe
		switch r.Op {
		case syntax.DplOut:
			// >& FILE (no descriptor before it, a word that is no
			// descriptor number) sends stdout and stderr to FILE.
			if red.FD == "" && (red.Dynamic || !dupTarget(red.Target)) {
				red.Write = true
				break
			}
			red.Dup = true
		case syntax.DplIn:
			red.Dup = true
			if r.Op == syntax.DplIn && (red.FD == "" || red.FD == "0") {
				hasStdin = true
				lit = nil
			}
		case syntax.RdrIn:
			if red.FD == "" || red.FD == "0" {
				hasStdin = true
				lit = nil
			}
		case syntax.RdrInOut:
			red.Write = true
			if red.FD == "" || red.FD == "0" {
				hasStdin = true
				lit = nil
			}
		default:
			red.Write = true
		}
		out = append(out, red)
	}
	return out, lit, hasStdin
}

// dupTarget reports whether the word of >& names a descriptor (2, 3-)
// or closes one (-).
func dupTarget(t string) bool {
	t = strings.TrimSuffix(t, "-")
	if t == "" {
		return true
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// quotedDelimiter reports whether a here-document delimiter is quoted, which
// makes the body literal text.
func quotedDelimiter(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, part := range word.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok || strings.Contains(lit.Value, "\\") {
			return true
		}
	}
	return false
}

func hdocText(word *syntax.Word) string {
	var b strings.Builder
	for _, part := range word.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			b.WriteString(lit.Value)
		}
	}
	return b.String()
}

func stripTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

// command walks a compound command.
func (w *walker) command(cmd syntax.Command, c *ctx) {
	switch x := cmd.(type) {
	case nil:
	case *syntax.Block:
		w.stmts(x.Stmts, c.with("block"))
	case *syntax.Subshell:
		w.stmts(x.Stmts, c.fork("subshell"))
	case *syntax.BinaryCmd:
		w.binary(x, c)
	case *syntax.IfClause:
		mark := c.cwd.changes
		w.ifClause(x, c.with("if"))
		c.cwd.uncertainAfter(mark)
	case *syntax.WhileClause:
		name := "while"
		if x.Until {
			name = "until"
		}
		mark := c.cwd.changes
		lc := c.with(name)
		first := len(w.prog.Segments)
		w.loop(func() {
			w.stmts(x.Cond, lc)
			w.stmts(x.Do, lc)
		})
		w.loopDir(first, mark, c)
		c.cwd.uncertainAfter(mark)
	case *syntax.ForClause:
		mark := c.cwd.changes
		lc := c.with("for")
		owner := w.newSegmentLazy(c)
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			allInts := true
			var progs []string // for i in $(seq 1 3): numbers, if seq is seq
			for _, item := range l.Items {
				fs, _ := w.fields(item)
				if arr := arrayKeys(item); arr != "" && l.Name != nil {
					// for i in "${!a[@]}": an indexed array's keys are
					// numbers (checked in finish)
					w.keyLoops = append(w.keyLoops, keyLoop{name: l.Name.Value, array: arr})
					fs = nil
				}
				for _, f := range fs {
					if prog := numericSubst(item); prog != "" && len(fs) == 1 {
						progs = append(progs, prog)
						continue
					}
					if f.Dynamic || !isInteger(f.Value) {
						allInts = false
					}
				}
				w.wordParts(item.Parts, lc, owner)
				if l.Name != nil && w.namerefs[l.Name.Value] {
					// for r in PATH with r a nameref: r refers to each
					// item in turn
					for _, f := range fs {
						w.varName(f.Word, owner(), "the reference "+l.Name.Value)
						w.ref(l.Name.Value, f.Word)
					}
				}
				if l.Name != nil && w.specialName(l.Name.Value) {
					// for PS4 in '$(cmd)': each item is assigned.
					for _, f := range fs {
						w.specialVar(l.Name.Value, f.Word, owner(), lc)
					}
				}
			}
			if l.Name != nil && (!allInts || l.InPos == (syntax.Pos{})) {
				w.tainted[l.Name.Value] = true
			} else if l.Name != nil {
				for _, prog := range progs {
					w.numericUses = append(w.numericUses, numericUse{prog: prog, name: l.Name.Value})
				}
			}
			if l.Name != nil {
				for _, item := range l.Items {
					fs, _ := w.fields(item)
					for _, f := range fs {
						if mayBeDash(f) {
							w.dashVars[l.Name.Value] = true
						}
					}
				}
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				w.arithm(e, lc.with("arith"), owner)
			}
		}
		first := len(w.prog.Segments)
		w.loop(func() { w.stmts(x.Do, lc) })
		w.loopDir(first, mark, c)
		c.cwd.uncertainAfter(mark)
	case *syntax.CaseClause:
		mark := c.cwd.changes
		cc := c.with("case")
		owner := w.newSegmentLazy(c)
		w.wordParts(x.Word.Parts, cc, owner)
		first, changed, falls := len(w.prog.Segments), false, false
		for _, item := range x.Items {
			falls = falls || item.Op != syntax.Break
			for _, pat := range item.Patterns {
				w.wordParts(pat.Parts, cc, owner)
			}
			// each item in a state of its own; one that changes the
			// directory may fall through (;&) to the next
			ic := cc.copy()
			ic.cwd = cc.cwd.clone()
			start := ic.cwd.changes
			w.stmts(item.Stmts, ic)
			changed = changed || ic.cwd.changes != start
		}
		if changed {
			if falls {
				dirUnknown(w.prog.Segments[first:])
			}
			c.cwd.lose()
		}
		c.cwd.uncertainAfter(mark)
	case *syntax.FuncDecl:
		certain := true
		for _, n := range c.node.strings() {
			certain = certain && !contains(conditionalConstructs, n)
		}
		if certain && x.Name != nil {
			c.funcs.define(x.Name.Value)
		}
		if x.Name != nil && x.Name.Value == "command_not_found_handle" {
			// bash runs it for every command it does not find
			owner := w.newSegmentLazy(c)
			owner().addFinding(FindRebindsCommands, "command_not_found_handle runs for every command bash does not find, which gate cannot tell")
		}
		if x.Name != nil && len(w.declared) < maxWritten {
			if w.declared == nil {
				w.declared = map[string]bool{}
			}
			w.declared[x.Name.Value] = true
		}
		fc := c.fork("function")
		fc.background = false
		// a call may give the body any input (f <<< TEXT, … | f): a
		// program in it that reads commands from its input reads those
		fc.stdin, fc.stdinUnknown = true, true
		if changesDir.MatchString(w.src) {
			// the body runs where the function is called, which a cd
			// before a call may have changed (f(){ cat >> config; };
			// cd .git; f)
			fc.cwd.unknown = true
		}
		before := fc.cwd.changes
		first, defined := len(w.prog.Segments), w.dirChanges
		w.inFunction++
		w.stmt(x.Body, fc)
		w.inFunction--
		if fc.cwd.changes != before {
			w.dirChanges++ // a call moves the caller
		}
		w.funcBodies = append(w.funcBodies, funcBody{first: first, end: len(w.prog.Segments), dirChanges: defined})
		if x.Name != nil {
			if w.funcRuns == nil {
				w.funcRuns = map[string]int{}
			}
			// a later definition may not run (false && f() { :; }): the
			// first one that runs files holds
			_, known := w.funcRuns[x.Name.Value]
			for _, s := range w.prog.Segments[first:] {
				if w.runsFiles(s) && !known {
					w.funcRuns[x.Name.Value] = w.writeSeq
					break
				}
			}
		}
		if fc.cwd.changes != before {
			// Calling the function changes the caller's directory.
			c.cwd.unknown = true
			c.cwd.changes++
		}
	case *syntax.ArithmCmd:
		seg := w.newSegment(c, KindTest)
		seg.Program, seg.RawProgram = "((", "(("
		seg.Argv = []string{"((", w.raw(x.X), "))"}
		seg.Path = []string{"(("}
		seg.PathComplete = true
		w.arithm(x.X, c.with("arith"), fixed(seg))
	case *syntax.TestClause:
		seg := w.newSegment(c, KindTest)
		seg.Program, seg.RawProgram = "[[", "[["
		seg.Argv = []string{"[[", w.raw(x.X), "]]"}
		seg.Path = []string{"[["}
		seg.PathComplete = true
		w.test(x.X, c, seg)
	case *syntax.DeclClause:
		w.decl(x, c)
	case *syntax.LetClause:
		seg := w.newSegment(c, KindCommand)
		seg.Program, seg.RawProgram = "let", "let"
		seg.Argv = []string{"let"}
		for _, e := range x.Exprs {
			seg.Argv = append(seg.Argv, w.raw(e))
			w.arithm(e, c.with("arith"), fixed(seg))
		}
		seg.Path = []string{"let"}
		seg.PathComplete = true
	case *syntax.TimeClause:
		w.stmt(x.Stmt, c.with("time"))
	case *syntax.CoprocClause:
		cc := c.fork("coproc")
		cc.background = true
		st := x.Stmt
		if x.Name != nil && (st == nil || st.Cmd == nil) {
			// coproc bash <<< TEXT: the parser takes bash for the
			// coprocess's name, but a name is one only before a compound
			// command; bash runs it
			st = &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{x.Name}}, Position: x.Name.Pos()}
			if x.Stmt != nil {
				st.Redirs = x.Stmt.Redirs
			}
		}
		if st != nil {
			w.stmt(st, cc)
		}
	case *syntax.TestDecl:
		w.stmt(x.Body, c.with("test"))
	default:
		seg := w.newSegment(c, KindCommand)
		seg.addFinding(FindUnsupportedShell, "unsupported shell construct "+w.raw(cmd))
	}
}

// newSegmentLazy returns a function creating, once, a segment that owns
// findings of words not part of any command (for-loop items, case words).
func (w *walker) newSegmentLazy(c *ctx) ownerFn {
	var seg *Segment
	return func() *Segment {
		if seg == nil {
			seg = w.newSegment(c, KindAssignment)
		}
		return seg
	}
}

func (w *walker) binary(x *syntax.BinaryCmd, c *ctx) {
	// The left side of an outer && whose success implies this list's:
	// what follows sees the directory of this list's success.
	andLeft := w.andLeft
	w.andLeft = false
	switch x.Op {
	case syntax.AndStmt, syntax.OrStmt:
		name := "and"
		if x.Op == syntax.OrStmt {
			name = "or"
		}
		mark := c.cwd.changes
		lc := c.with(name)
		if inner, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && x.Op == syntax.AndStmt && inner.Op == syntax.AndStmt &&
			!x.X.Negated && !x.X.Background && !x.X.Coprocess && len(x.X.Redirs) == 0 {
			w.andLeft = true // cd d && make && touch x: touch runs in d
		}
		w.stmt(x.X, lc)
		w.andLeft = false
		if x.Op == syntax.OrStmt || x.X.Negated {
			// The right side runs when the left failed: a cd there may not
			// have happened.
			c.cwd.uncertainAfter(mark)
		}
		mark2 := c.cwd.changes
		w.stmt(x.Y, lc)
		if x.Op == syntax.AndStmt && andLeft && !x.Y.Negated {
			return // the outer list's end decides
		}
		c.cwd.uncertainAfter(mark2)
		if x.Op == syntax.AndStmt {
			c.cwd.uncertainAfter(mark)
		}
	default: // pipes
		left := c.fork("pipe")
		first := len(w.prog.Segments)
		w.stmt(x.X, left)
		right := c.fork("pipe")
		right.stdin = true
		right.authored = c.authored || authors(w.prog.Segments[first:]) ||
			w.gitChanged(w.prog.Segments[:first]) && runsGit(w.prog.Segments[first:])
		w.stmt(x.Y, right)
		if x.Op == syntax.Pipe { // not |&: stderr would join the data
			from, ok1 := w.pipeEnd(x.X)
			to, ok2 := w.callSegs[callOf(x.Y)]
			if ok1 && ok2 {
				w.prog.Segments[to].PipedFrom = from
			}
		}
	}
}

// callOf returns the simple command s runs, or nil when s is anything else.
func callOf(s *syntax.Stmt) *syntax.CallExpr {
	if s == nil || s.Negated || s.Background || s.Coprocess || s.Disown {
		return nil
	}
	call, _ := s.Cmd.(*syntax.CallExpr)
	return call
}

// pipeEnd returns the segment of the simple command whose output is the
// output of s: s itself, or the last command of the pipeline s is.
func (w *walker) pipeEnd(s *syntax.Stmt) (int, bool) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe && !s.Negated && !s.Background && !s.Coprocess && len(s.Redirs) == 0 {
		return w.pipeEnd(b.Y)
	}
	id, ok := w.callSegs[callOf(s)]
	return id, ok
}

// hereDoc reports whether redirs give a here-document or here-string.
func hereDoc(redirs []*syntax.Redirect) bool {
	for _, r := range redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		}
	}
	return false
}

// authors reports whether segs, the left side of a pipe, write data the
// command spells out: echo, printf, or a here-document.
func authors(segs []*Segment) bool {
	for _, seg := range segs {
		if seg.Program == "echo" || seg.Program == "printf" {
			return true
		}
		for _, r := range seg.Redirects {
			if !r.Write && (r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<") {
				return true
			}
		}
	}
	return false
}

// gitChanged reports whether segs, run earlier in the command, include git
// subcommands not known to only read: the index or objects they change
// (update-index --cacheinfo, hash-object -w, stash) are what a later git
// diff or show prints, so the data it pipes is the command's own.
func (w *walker) gitChanged(segs []*Segment) bool {
	for _, seg := range segs {
		if seg.Program != "git" {
			continue
		}
		if len(seg.Path) < 2 || !w.p.cat.ReadOnlySubcommand("git", seg.Path[1]) {
			return true
		}
	}
	return false
}

// runsGit reports whether segs include git.
func runsGit(segs []*Segment) bool {
	return slices.ContainsFunc(segs, func(s *Segment) bool { return s.Program == "git" })
}

// ifClause walks if, elif and else: each branch in a directory state of
// its own, which is the state after its condition (then) or before it
// with what the condition may have changed unknown (the next branch); the
// shell's directory after the if is unknown when any part changed it.
func (w *walker) ifClause(x *syntax.IfClause, c *ctx) {
	changed := false
	for x != nil {
		mark := c.cwd.changes
		w.stmts(x.Cond, c)
		bc := c.copy()
		bc.cwd = c.cwd.clone()
		start := bc.cwd.changes
		w.stmts(x.Then, bc)
		changed = changed || bc.cwd.changes != start || c.cwd.changes != mark
		c.cwd.uncertainAfter(mark)
		x = x.Else
	}
	if changed {
		c.cwd.lose()
	}
}
