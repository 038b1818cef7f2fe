package shellparse

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// want is the expected form of one segment, built with seg, asg or tst and
// refined with its methods, so that a table row fits on one line:
//
//	seg("rm", "rm", "x").in("wrapper").by(0, "sudo")
//
// Kind, Program, Argv, Context, Parent, Via, Dynamic, Background, Wrapper,
// Transparent, FunctionCall, Redirects, Assigns and the finding codes are
// always compared (their zero values mean "none" or "false"). RawProgram,
// ProgramPath, Options, Path, Writes and Chdir are compared only when set
// (raw, ppath, opts, path, writes, cd, cdUnknown).
type want struct {
	kind        string
	program     string
	argv        []string
	context     []string
	parent      int
	via         string
	dynamic     []int
	background  bool
	wrapper     bool
	transparent bool
	funcCall    bool
	redirects   []Redirect
	assigns     []Assign
	findings    []string

	rawProgram  *string
	programPath *string
	optionsV    []string
	pathV       []string
	altV        [][]string
	cut         bool
	writesV     []Word
	chdir       []string
	checkChdir  bool
	chdirUnk    bool
}

// seg is a command segment running program with argv (argv[0] included).
func seg(program string, argv ...string) want {
	return want{kind: KindCommand, program: program, argv: argv, parent: -1}
}

// asg is a segment that only assigns variables (or only owns findings).
func asg(assigns ...Assign) want {
	return want{kind: KindAssignment, parent: -1, assigns: assigns}
}

// tst is a [[ ]] or (( )) segment.
func tst(program string, argv ...string) want {
	return want{kind: KindTest, program: program, argv: argv, parent: -1}
}

// in sets the context, outermost first, as "pipe/wrapper".
func (w want) in(context string) want {
	w.context = strings.Split(context, "/")
	return w
}

// by makes the segment run by the wrapper segment parent, through via.
func (w want) by(parent int, via string) want {
	w.parent, w.via = parent, via
	return w
}

func (w want) dyn(idx ...int) want { w.dynamic = idx; return w }
func (w want) bg() want            { w.background = true; return w }

// wraps marks a wrapper that needs permission itself (sudo); twraps a
// transparent one (nice, bash -c).
func (w want) wraps() want  { w.wrapper = true; return w }
func (w want) twraps() want { w.wrapper, w.transparent = true, true; return w }

// tr marks a transparent segment that is not (or no longer) a wrapper.
func (w want) tr() want                  { w.transparent = true; return w }
func (w want) fn() want                  { w.funcCall = true; return w }
func (w want) rd(rs ...Redirect) want    { w.redirects = rs; return w }
func (w want) as(as ...Assign) want      { w.assigns = as; return w }
func (w want) find(codes ...string) want { w.findings = codes; return w }
func (w want) raw(raw string) want       { w.rawProgram = &raw; return w }
func (w want) ppath(p string) want       { w.programPath = &p; return w }
func (w want) opts(o ...string) want     { w.optionsV = append([]string{}, o...); return w }
func (w want) path(p ...string) want     { w.pathV = append([]string{}, p...); return w }

// alt sets the expected AltPaths and partial a Path cut short by a dynamic
// word; both are compared with Path.
func (w want) alt(p ...[]string) want { w.altV = p; return w }
func (w want) partial() want          { w.cut = true; return w }

// writes checks Writes; cd checks Chdir (none when empty) and cdUnknown
// ChdirUnknown.
func (w want) writes(ws ...Word) want { w.writesV = append([]Word{}, ws...); return w }
func (w want) cd(dirs ...string) want { w.chdir, w.checkChdir = dirs, true; return w }
func (w want) cdUnknown() want        { w.chdirUnk, w.checkChdir = true, true; return w }

// Builders of field values: words (wd, wdDyn), assignments (av, avDyn) and
// redirections: wr opens a file for writing, rdin for reading, dup duplicates
// a descriptor; onFD, dynR and inh set FD, Dynamic and Inherited.
func wd(v string) Word                    { return Word{Value: v} }
func wdDyn(v string) Word                 { return Word{Value: v, Dynamic: true} }
func av(name, value string) Assign        { return Assign{Name: name, Value: value} }
func avDyn(name, value string) Assign     { return Assign{Name: name, Value: value, Dynamic: true} }
func wr(op, target string) Redirect       { return Redirect{Op: op, Target: target, Write: true} }
func rdin(op, target string) Redirect     { return Redirect{Op: op, Target: target} }
func dup(fd, op, target string) Redirect  { return Redirect{Op: op, FD: fd, Target: target, Dup: true} }
func onFD(fd string, r Redirect) Redirect { r.FD = fd; return r }
func dynR(r Redirect) Redirect            { r.Dynamic = true; return r }
func inh(r Redirect) Redirect             { r.Inherited = true; return r }
func pipeR(r Redirect) Redirect           { r.Dynamic, r.Pipe = true, true; return r }

// project reads a segment in the shape of w, keeping the fields w does not
// check unset.
func project(s *Segment, w want) want {
	got := want{
		kind:        s.Kind,
		program:     s.Program,
		argv:        s.Argv,
		context:     s.Context,
		parent:      s.Parent,
		via:         s.Via,
		dynamic:     s.Dynamic,
		background:  s.Background,
		wrapper:     s.Wrapper,
		transparent: s.Transparent,
		funcCall:    s.FunctionCall,
		redirects:   s.Redirects,
		assigns:     s.Assigns,
	}
	for _, f := range s.Findings {
		got.findings = append(got.findings, f.Code)
	}
	if w.rawProgram != nil {
		got.rawProgram = &s.RawProgram
	}
	if w.programPath != nil {
		got.programPath = &s.ProgramPath
	}
	if w.optionsV != nil {
		got.optionsV = s.Options
	}
	if w.pathV != nil {
		got.pathV = s.Path
		got.altV = s.AltPaths
		got.cut = !s.PathComplete
	}
	if w.writesV != nil {
		got.writesV = s.Writes
	}
	if w.checkChdir {
		got.checkChdir = true
		got.chdir, got.chdirUnk = s.Chdir, s.ChdirUnknown
	}
	return got.normal()
}

// normal makes empty and nil slices alike and sorts finding codes.
func (w want) normal() want {
	if len(w.argv) == 0 {
		w.argv = nil
	}
	if len(w.context) == 0 {
		w.context = nil
	}
	if len(w.dynamic) == 0 {
		w.dynamic = nil
	}
	if len(w.redirects) == 0 {
		w.redirects = nil
	}
	if len(w.assigns) == 0 {
		w.assigns = nil
	}
	if len(w.chdir) == 0 {
		w.chdir = nil
	}
	if len(w.altV) == 0 {
		w.altV = nil
	}
	w.findings = slices.Clone(w.findings)
	sort.Strings(w.findings)
	if len(w.findings) == 0 {
		w.findings = nil
	}
	return w
}

// String renders w as the Go expression that builds it, so a failure shows
// the row to write.
func (w want) String() string {
	var b strings.Builder
	q := func(ss []string) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strconv.Quote(s)
		}
		return strings.Join(out, ", ")
	}
	switch w.kind {
	case KindAssignment:
		b.WriteString("asg(")
		for i, a := range w.assigns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(assignString(a))
		}
		b.WriteString(")")
	case KindTest:
		fmt.Fprintf(&b, "tst(%s)", q(append([]string{w.program}, w.argv...)))
	default:
		fmt.Fprintf(&b, "seg(%s)", q(append([]string{w.program}, w.argv...)))
	}
	if len(w.context) > 0 {
		fmt.Fprintf(&b, ".in(%q)", strings.Join(w.context, "/"))
	}
	if w.parent != -1 || w.via != "" {
		fmt.Fprintf(&b, ".by(%d, %q)", w.parent, w.via)
	}
	if len(w.dynamic) > 0 {
		s := fmt.Sprint(w.dynamic)
		fmt.Fprintf(&b, ".dyn(%s)", strings.ReplaceAll(s[1:len(s)-1], " ", ", "))
	}
	if w.background {
		b.WriteString(".bg()")
	}
	switch {
	case w.wrapper && w.transparent:
		b.WriteString(".twraps()")
	case w.wrapper:
		b.WriteString(".wraps()")
	case w.transparent:
		b.WriteString(".tr()")
	}
	if w.funcCall {
		b.WriteString(".fn()")
	}
	if len(w.redirects) > 0 {
		var rs []string
		for _, r := range w.redirects {
			rs = append(rs, redirectString(r))
		}
		fmt.Fprintf(&b, ".rd(%s)", strings.Join(rs, ", "))
	}
	if len(w.assigns) > 0 && w.kind != KindAssignment {
		var as []string
		for _, a := range w.assigns {
			as = append(as, assignString(a))
		}
		fmt.Fprintf(&b, ".as(%s)", strings.Join(as, ", "))
	}
	if len(w.findings) > 0 {
		fmt.Fprintf(&b, ".find(%s)", q(w.findings))
	}
	if w.rawProgram != nil {
		fmt.Fprintf(&b, ".raw(%q)", *w.rawProgram)
	}
	if w.programPath != nil {
		fmt.Fprintf(&b, ".ppath(%q)", *w.programPath)
	}
	if w.optionsV != nil {
		fmt.Fprintf(&b, ".opts(%s)", q(w.optionsV))
	}
	if w.pathV != nil {
		fmt.Fprintf(&b, ".path(%s)", q(w.pathV))
		if len(w.altV) > 0 {
			var as []string
			for _, a := range w.altV {
				as = append(as, "[]string{"+q(a)+"}")
			}
			fmt.Fprintf(&b, ".alt(%s)", strings.Join(as, ", "))
		}
		if w.cut {
			b.WriteString(".partial()")
		}
	}
	if w.writesV != nil {
		var ws []string
		for _, x := range w.writesV {
			if x.Dynamic {
				ws = append(ws, fmt.Sprintf("wdDyn(%q)", x.Value))
			} else {
				ws = append(ws, fmt.Sprintf("wd(%q)", x.Value))
			}
		}
		fmt.Fprintf(&b, ".writes(%s)", strings.Join(ws, ", "))
	}
	if w.checkChdir {
		if w.chdirUnk {
			b.WriteString(".cdUnknown()")
		} else {
			fmt.Fprintf(&b, ".cd(%s)", q(w.chdir))
		}
	}
	return b.String()
}

func assignString(a Assign) string {
	if a.Dynamic {
		return fmt.Sprintf("avDyn(%q, %q)", a.Name, a.Value)
	}
	return fmt.Sprintf("av(%q, %q)", a.Name, a.Value)
}

func redirectString(r Redirect) string {
	var s string
	switch {
	case r.Dup:
		s = fmt.Sprintf("dup(%q, %q, %q)", r.FD, r.Op, r.Target)
		r.FD = ""
	case r.Write:
		s = fmt.Sprintf("wr(%q, %q)", r.Op, r.Target)
	default:
		s = fmt.Sprintf("rdin(%q, %q)", r.Op, r.Target)
	}
	if r.FD != "" {
		s = fmt.Sprintf("onFD(%q, %s)", r.FD, s)
	}
	if r.Dynamic {
		s = "dynR(" + s + ")"
	}
	if r.Inherited {
		s = "inh(" + s + ")"
	}
	return s
}

// compare reports whether s is as w describes, and both in want notation.
func compare(s *Segment, w want) (got, expected string, ok bool) {
	wn := w.normal()
	gn := project(s, wn)
	return gn.String(), wn.String(), reflect.DeepEqual(gn, wn)
}

// row is one command line and the segments it must give, in order.
type row struct {
	command string
	want    []want
}

func r(command string, ws ...want) row { return row{command, ws} }

// runRows parses each command and compares its segments with the row.
func runRows(t *testing.T, rows []row) {
	t.Helper()
	p := testParser(t)
	for _, rw := range rows {
		prog := p.Parse(rw.command)
		if prog.Error != nil {
			t.Errorf("%q: unexpected parse error %v", rw.command, prog.Error)
			continue
		}
		var diff []string
		n := max(len(prog.Segments), len(rw.want))
		for i := range n {
			var g, x string
			switch {
			case i >= len(prog.Segments):
				x, g = rw.want[i].normal().String(), "(none)"
			case i >= len(rw.want):
				x, g = "(none)", project(prog.Segments[i], want{}).String()
			default:
				var ok bool
				if g, x, ok = compare(prog.Segments[i], rw.want[i]); ok {
					continue
				}
			}
			diff = append(diff, fmt.Sprintf("segment %d:\n\t got: %s\n\twant: %s", i, g, x))
		}
		if len(diff) > 0 {
			t.Errorf("%q:\n%s", rw.command, strings.Join(diff, "\n"))
		}
	}
}
