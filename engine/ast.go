package engine

import (
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/gate-dev/gate/shellparse"
)

// The input is built as an OPA value directly: going through JSON text cost
// more than the evaluation itself (160 µs for ten segments). The field names
// must match the JSON tags of Input and its parts, which the test
// TestInputValueMatchesJSON checks.

// inputKeys are the field names of the input and of its parts. They are
// interned once, at start-up (OPA's interning table may only change then), so
// that building an input does not allocate a term per key; the data keys
// are interned too, which lets OPA read the store by them without
// allocating.
var inputKeys = []string{
	// Input
	"tool", "args", "root", "cwd", "home", "shell", "paths", "change", "change_error", "layers", "session",
	"settings_key",
	// ShellInput, its parse error and limit
	"command", "parse_error", "too_complex", "segments", "line", "col", "message", "limit", "max",
	// SegmentInput
	"id", "parent", "kind", "program", "raw_program", "program_path", "argv", "dynamic", "options", "path",
	"alt_paths", "path_complete", "assigns", "name", "value", "redirects", "op", "fd", "target", "dup", "write",
	"inherited", "writes", "chdir", "relinks", "chdir_unknown", "context", "background", "via", "wrapper",
	"transparent", "function_call", "imports_code", "proven_code", "content_known", "findings", "code", "keys",
	"path_keys", "uncertain_keys", "identity", "maybe_runs", "maybe_keys",
	// PathInput
	"raw", "resolved", "inside_root", "rel", "exists", "dir", "symlink", "links", "git_ignored", "access", "replaces", "temp",
	"source", "segment",
	// Change, ToolError
	"new", "old_size", "new_size", "diff", "replacements", "repair", "type", "display",
	// ExecInput
	"exec", "call", "exe", "pid", "ppid", "depth", "script", "loaded", "parent_program", "by_shell", "names",
	"words",
	// The data the policies read
	"gate", "settings_by_key", "default_settings_key", "catalogue", "programs", "interactive", "dry_run",
	"equivalents", "findings", "tools", "aliases", "secret", "writable", "shell_wrappers", "exits",
	"inline_code", "stdin", "file_options", "shell_options", "unless",
}

// shortOptionTerms are the one-letter options (-a, -0, -%): an exec's
// options are mostly these (a compiler's -quiet is read as five), and an
// interned term costs no allocation.
var shortOptionTerms = func() []string {
	var opts []string
	for c := byte('!'); c <= '~'; c++ {
		opts = append(opts, "-"+string(c))
	}
	return opts
}()

func init() {
	ast.InternStringTerm(inputKeys...)
	ast.InternStringTerm(shortOptionTerms...)
}

type object struct{ o ast.Object }

func newObject(n int) *object { return &object{o: ast.NewObjectWithCapacity(n)} }

func (b *object) term() *ast.Term { return ast.NewTerm(b.o) }

func (b *object) set(k string, v *ast.Term) { b.o.Insert(ast.InternedTerm(k), v) }

// str sets a string field; a value OPA has interned ("", common words)
// takes no new term.
func (b *object) str(k, v string) { b.set(k, ast.InternedTerm(v)) }

func (b *object) strOmit(k, v string) {
	if v != "" {
		b.str(k, v)
	}
}

func (b *object) bool(k string, v bool) { b.set(k, ast.InternedTerm(v)) }

func (b *object) boolOmit(k string, v bool) {
	if v {
		b.bool(k, v)
	}
}

func (b *object) int(k string, v int) { b.set(k, ast.InternedTerm(v)) }

// arrayTerm is an array of terms; empty arrays share OPA's interned one
// (terms of an input are never changed).
func arrayTerm(terms ...*ast.Term) *ast.Term {
	if len(terms) == 0 {
		return ast.InternedEmptyArray
	}
	return ast.ArrayTerm(terms...)
}

// stringsTerm is an array of strings, its terms allocated together.
func stringsTerm(list []string) *ast.Term {
	var slab []ast.Term
	terms := make([]*ast.Term, len(list))
	for i, s := range list {
		if len(s) <= 2 && ast.HasInternedValue(s) {
			terms[i] = ast.InternedTerm(s) // -c, "", "1": no allocation
			continue
		}
		if slab == nil {
			slab = make([]ast.Term, len(list)-i)
		}
		slab[0].Value = ast.String(s)
		terms[i] = &slab[0]
		slab = slab[1:]
	}
	return arrayTerm(terms...)
}

func ints(list []int) *ast.Term {
	terms := make([]*ast.Term, len(list))
	for i, n := range list {
		terms[i] = ast.InternedTerm(n)
	}
	return arrayTerm(terms...)
}

// inputValue converts an Input to the value policies see as input.
func inputValue(in *Input) (ast.Value, error) {
	args, err := ast.InterfaceToValue(in.Args)
	if err != nil {
		return nil, err
	}
	b := newObject(8)
	b.str("tool", in.Tool)
	b.set("args", ast.NewTerm(args))
	b.str("root", in.Root)
	b.str("cwd", in.Cwd)
	b.strOmit("home", in.Home)
	if in.Shell != nil {
		b.set("shell", shellValue(in.Shell))
	}
	paths := make([]*ast.Term, len(in.Paths))
	for i := range in.Paths {
		paths[i] = pathValue(&in.Paths[i])
	}
	b.set("paths", arrayTerm(paths...))
	if in.Layers == nil {
		b.set("layers", ast.NullTerm())
	} else {
		b.set("layers", stringsTerm(in.Layers))
	}
	b.boolOmit("session", in.Session)
	b.strOmit("settings_key", in.SettingsKey)
	if in.Change != nil {
		c := newObject(8)
		c.str("path", in.Change.Path)
		c.str("rel", in.Change.Rel)
		c.bool("new", in.Change.New)
		c.int("old_size", in.Change.OldSize)
		c.int("new_size", in.Change.NewSize)
		c.str("diff", in.Change.Diff)
		if in.Change.Replacements != 0 {
			c.int("replacements", in.Change.Replacements)
		}
		c.strOmit("repair", in.Change.Repair)
		b.set("change", c.term())
	}
	if in.ChangeError != nil {
		c := newObject(3)
		c.str("type", in.ChangeError.Type)
		c.str("message", in.ChangeError.Message)
		c.strOmit("display", in.ChangeError.Display)
		b.set("change_error", c.term())
	}
	return b.o, nil
}

func shellValue(sh *ShellInput) *ast.Term {
	b := newObject(3)
	b.str("command", sh.Command)
	if e := sh.ParseError; e != nil {
		pe := newObject(3)
		pe.int("line", e.Line)
		pe.int("col", e.Col)
		pe.str("message", e.Message)
		b.set("parse_error", pe.term())
	}
	if e := sh.TooComplex; e != nil {
		tc := newObject(3)
		tc.str("limit", e.Limit)
		tc.set("max", ast.IntNumberTerm(int(e.Max)))
		tc.str("message", e.Message)
		b.set("too_complex", tc.term())
	}
	// Segments made in one construct share their context (the parser
	// builds it once); so do their terms.
	contexts := map[contextKey]*ast.Term{}
	segs := make([]*ast.Term, len(sh.Segments))
	for i := range sh.Segments {
		segs[i] = segmentValue(&sh.Segments[i], contexts)
	}
	b.set("segments", arrayTerm(segs...))
	return b.term()
}

// segmentFields is how many fields every segment has; segmentValue adds
// those set of the optional ones.
const segmentFields = 19

func segmentValue(s *SegmentInput, contexts map[contextKey]*ast.Term) *ast.Term {
	n := segmentFields
	for _, set := range []bool{s.ProgramPath != "", len(s.AltPaths) > 0, len(s.Chdir) > 0, s.Relinks, s.Replaces,
		s.ChdirUnknown, s.Via != "", s.Wrapper, s.Transparent, s.FunctionCall, s.ImportsCode, s.ProvenCode,
		s.ContentKnown, s.Identity != "", len(s.MaybeRuns) > 0, len(s.MaybeKeys) > 0} {
		if set {
			n++
		}
	}
	b := newObject(n)
	b.int("id", s.ID)
	b.int("parent", s.Parent)
	b.str("kind", s.Kind)
	b.str("program", s.Program)
	b.str("raw_program", s.RawProgram)
	b.strOmit("program_path", s.ProgramPath)
	b.set("argv", stringsTerm(s.Argv))
	b.set("dynamic", ints(s.Dynamic))
	b.set("options", stringsTerm(s.Options))
	b.set("path", stringsTerm(s.Path))
	if len(s.AltPaths) > 0 {
		alt := make([]*ast.Term, len(s.AltPaths))
		for i, p := range s.AltPaths {
			alt[i] = stringsTerm(p)
		}
		b.set("alt_paths", arrayTerm(alt...))
	}
	if len(s.MaybeRuns) > 0 {
		runs := make([]*ast.Term, len(s.MaybeRuns))
		for i, p := range s.MaybeRuns {
			runs[i] = stringsTerm(p)
		}
		b.set("maybe_runs", arrayTerm(runs...))
	}
	b.bool("path_complete", s.PathComplete)
	assigns := make([]*ast.Term, len(s.Assigns))
	for i, a := range s.Assigns {
		ab := newObject(3)
		ab.str("name", a.Name)
		ab.str("value", a.Value)
		ab.bool("dynamic", a.Dynamic)
		assigns[i] = ab.term()
	}
	b.set("assigns", arrayTerm(assigns...))
	redirs := make([]*ast.Term, len(s.Redirects))
	for i, r := range s.Redirects {
		rb := newObject(8)
		rb.str("op", r.Op)
		rb.strOmit("fd", r.FD)
		rb.str("target", r.Target)
		rb.bool("dynamic", r.Dynamic)
		rb.boolOmit("dup", r.Dup)
		rb.bool("write", r.Write)
		rb.boolOmit("inherited", r.Inherited)
		rb.boolOmit("pipe", r.Pipe)
		redirs[i] = rb.term()
	}
	b.set("redirects", arrayTerm(redirs...))
	b.set("writes", wordsValue(s.Writes))
	if len(s.Chdir) > 0 {
		b.set("chdir", stringsTerm(s.Chdir))
	}
	b.boolOmit("relinks", s.Relinks)
	b.boolOmit("replaces", s.Replaces)
	b.boolOmit("chdir_unknown", s.ChdirUnknown)
	b.set("context", contextTerm(s.Context, contexts))
	b.bool("background", s.Background)
	b.strOmit("via", s.Via)
	b.boolOmit("wrapper", s.Wrapper)
	b.boolOmit("transparent", s.Transparent)
	b.boolOmit("function_call", s.FunctionCall)
	b.boolOmit("imports_code", s.ImportsCode)
	b.boolOmit("proven_code", s.ProvenCode)
	b.boolOmit("content_known", s.ContentKnown)
	b.strOmit("content_file", s.ContentFile)
	if len(s.Reads) > 0 {
		b.set("reads", stringsTerm(s.Reads))
	}
	findings := make([]*ast.Term, len(s.Findings))
	for i, f := range s.Findings {
		fb := newObject(2)
		fb.str("code", f.Code)
		fb.str("message", f.Message)
		findings[i] = fb.term()
	}
	b.set("findings", arrayTerm(findings...))
	b.set("keys", stringsTerm(s.Keys))
	b.set("path_keys", stringsTerm(s.PathKeys))
	b.set("uncertain_keys", stringsTerm(s.UncertainKeys))
	if len(s.MaybeKeys) > 0 {
		b.set("maybe_keys", stringsTerm(s.MaybeKeys))
	}
	b.strOmit("identity", s.Identity)
	return b.term()
}

func wordsValue(words []shellparse.Word) *ast.Term {
	terms := make([]*ast.Term, len(words))
	for i, w := range words {
		wb := newObject(3)
		wb.str("value", w.Value)
		wb.bool("dynamic", w.Dynamic)
		wb.boolOmit("pipe", w.Pipe)
		terms[i] = wb.term()
	}
	return arrayTerm(terms...)
}

func pathValue(p *PathInput) *ast.Term {
	b := newObject(16)
	b.str("raw", p.Raw)
	b.str("path", p.Path)
	b.str("resolved", p.Resolved)
	b.bool("inside_root", p.InsideRoot)
	b.strOmit("rel", p.Rel)
	b.bool("exists", p.Exists)
	b.bool("dir", p.Dir)
	b.bool("symlink", p.Symlink)
	if p.Links != 0 {
		b.int("links", int(p.Links))
	}
	b.bool("git_ignored", p.GitIgnored)
	b.str("access", p.Access)
	b.str("source", p.Source)
	b.bool("dynamic", p.Dynamic)
	b.boolOmit("replaces", p.Replaces)
	b.boolOmit("temp", p.Temp)
	if p.Segment != nil {
		b.int("segment", *p.Segment)
	}
	b.set("keys", stringsTerm(p.Keys))
	return b.term()
}

// contextKey identifies a slice: its first element's address and length.
type contextKey struct {
	first *string
	n     int
}

// contextTerm returns the term of a segment's context, shared with the
// segments whose context is the same slice.
func contextTerm(ctx []string, seen map[contextKey]*ast.Term) *ast.Term {
	if len(ctx) == 0 {
		return stringsTerm(ctx)
	}
	key := contextKey{&ctx[0], len(ctx)}
	if t, ok := seen[key]; ok {
		return t
	}
	t := stringsTerm(ctx)
	seen[key] = t
	return t
}
