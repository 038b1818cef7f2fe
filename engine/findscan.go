package engine

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gate-dev/gate/shellparse"
)

// The files find gives an -exec action (find . -name '*.py' -exec chmod +x
// {} \;) are only known at run time. When nothing in the command may
// create a name before find runs, they are the entries below find's start
// points that its expression may select: gate walks them at decision time
// (without following symlinks, as find -P does) and judges each as the
// file the action writes. Tests it cannot evaluate (-newer, -size, an
// -exec's status) count as true, so the files are a superset of those
// find selects.

const (
	// maxFindVisits bounds the entries walked for one find.
	maxFindVisits = 4096
	// maxFindFiles bounds the files an action may be given.
	maxFindFiles = 256
)

// tri is a three-valued truth: a test gate cannot evaluate is unknown.
type tri int

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

// findNode is a node of find's expression.
type findNode struct {
	op     string // "and", "or", "not", ",", or "" for a primary
	kids   []*findNode
	test   func(e findEntry) tri // a primary's value
	action bool                  // the -exec action whose files are asked for
	prune  bool                  // -prune
}

// findEval is what evaluating the expression for one entry found.
type findEval struct {
	reached bool // the marked action may run
	pruned  bool // -prune surely ran: find does not descend
}

// findEntry is one entry find visits.
type findEntry struct {
	path  string // as find gives it (./a/b.py)
	name  string // base name
	mode  fs.FileMode
	depth int
}

// findPlan is find's argv read for a walk.
type findPlan struct {
	starts             []string
	expr               *findNode
	minDepth, maxDepth int
	depthFirst         bool // -depth: -prune does nothing
}

// findFiles returns find's directory and the files the -exec (or
// -execdir, -ok, -okdir) action whose command is seg may be given,
// relative to it, or false when seg is no such action or gate cannot tell:
// the find's words or directory are not all known, it follows symlinks,
// its expression has a primary gate does not know, the walk is too long,
// or something in the command may make a name first.
func (e *Engine) findFiles(cwd string, segs []SegmentInput, seg *shellparse.Segment) (string, []string, bool) {
	if seg.Parent < 0 || seg.Parent >= len(segs) || !strings.HasPrefix(seg.Via, "find -") ||
		!slices.ContainsFunc(seg.Writes, func(w shellparse.Word) bool { return w.Dynamic && w.Value == "{}" }) {
		return "", nil, false
	}
	find := segs[seg.Parent].Segment
	if find.Program != "find" || find.ProgramPath != "" || len(find.Dynamic) > 0 || !findActionsInPlace(segs, find, e.cat) ||
		!nothingWrittenBefore(segs, find.ID, e.cat) {
		return "", nil, false
	}
	base, known := e.segmentDir(cwd, find)
	if !known {
		return "", nil, false
	}
	plan, ok := readFind(find.Argv, seg.Argv)
	if !ok {
		return "", nil, false
	}
	var files []string
	visits := 0
	for _, start := range plan.starts {
		// not cleaned: a trailing slash makes find (and lstat) follow a
		// symlink to a directory (find link/ walks where link leads)
		root := start
		if !filepath.IsAbs(root) {
			root = base + "/" + root
		}
		fi, err := os.Lstat(root)
		if err != nil {
			// a start point that does not exist now may exist when find
			// runs (made by a process already running, or a name that
			// leads elsewhere then); one gate cannot read, find may
			return "", nil, false
		}
		var walk func(dir, shown string, mode fs.FileMode, depth int) bool
		walk = func(p, shown string, mode fs.FileMode, depth int) bool {
			if visits++; visits > maxFindVisits {
				return false
			}
			var r findEval
			if depth >= plan.minDepth {
				r = plan.visit(findEntry{path: shown, name: path.Base(shown), mode: mode, depth: depth})
			}
			if r.reached {
				if len(files) >= maxFindFiles {
					return false
				}
				files = append(files, shown)
			}
			if !mode.IsDir() || depth >= plan.maxDepth || r.pruned {
				return true
			}
			ents, err := os.ReadDir(p)
			if err != nil {
				// find may read what gate cannot (its actions may
				// chmod the directory first)
				return false
			}
			for _, ent := range ents {
				child := shown + "/" + ent.Name()
				if strings.HasSuffix(shown, "/") {
					child = shown + ent.Name()
				}
				if !walk(filepath.Join(p, ent.Name()), child, ent.Type(), depth+1) {
					return false
				}
			}
			return true
		}
		if !walk(root, start, fi.Mode(), 0) {
			return "", nil, false
		}
	}
	return base, files, true
}

// findActionsInPlace reports whether every command find runs writes only
// the file it is given ({}), in place, and makes no other name: its
// program makes no files (chmod, sed -i, touch), it has no redirection
// that writes and runs nothing of its own.
func findActionsInPlace(segs []SegmentInput, find *shellparse.Segment, cat *shellparse.Catalogue) bool {
	if len(find.Writes) > 0 || len(find.Removes) > 0 {
		return false
	}
	for _, r := range find.Redirects {
		if r.Write && !r.Dup && !r.Pipe {
			return false
		}
	}
	for i := range segs {
		s := segs[i].Segment
		if s.Parent != find.ID {
			if s.Parent >= 0 && s.Parent < len(segs) && segs[s.Parent].Parent == find.ID {
				return false // a wrapper's command, or a shell's
			}
			continue
		}
		if s.Kind != shellparse.KindCommand || s.FunctionCall || s.ProgramPath != "" || s.Program == "" ||
			!cat.MakesNoFile(s.Program) || makesNames[s.Program] || len(s.Removes) > 0 || s.WritesUnnamed ||
			slices.Contains(s.Options, "-R") || slices.Contains(s.Options, "--recursive") {
			// chmod -R DIR changes what is below DIR too: a hard
			// link there is a protected file's
			return false
		}
		for _, w := range s.Writes {
			if !w.Dynamic || w.Value != "{}" {
				return false
			}
		}
		for _, r := range s.Redirects {
			if r.Write && !r.Dup && !r.Pipe {
				return false
			}
		}
	}
	return true
}

// nothingWrittenBefore reports whether no segment other than find (id) and
// the commands it runs may write or make a name (mkdir, a program outside
// makes_no_files) before or while it runs.
func nothingWrittenBefore(segs []SegmentInput, id int, cat *shellparse.Catalogue) bool {
	own := func(i int) bool {
		for j := i; j >= 0 && j < len(segs); j = segs[j].Parent {
			if j == id {
				return true
			}
		}
		return false
	}
	scope := scopeAfter(segs, func(i int) bool {
		if own(i) {
			return false
		}
		s := segs[i].Segment
		if s.Kind != shellparse.KindCommand || s.Program == "" || len(s.Writes) > 0 || len(s.Removes) > 0 || s.WritesUnnamed ||
			makesNames[s.Program] || creates(s, cat) {
			return true
		}
		for _, r := range s.Redirects {
			if r.Write && !r.Dup && !r.Pipe {
				return true
			}
		}
		return false
	})
	return !scope[id]
}

// readFind reads find's argv: its start points, depth options and
// expression, with the -exec-like actions that run the command words
// marked. It fails on -L, -H, -follow, -files0-from and any word it does
// not know.
func readFind(argv, words []string) (*findPlan, bool) {
	plan := &findPlan{maxDepth: 1 << 30}
	i := 1
	for i < len(argv) {
		a := argv[i]
		switch {
		case a == "-P":
			i++
		case a == "-H" || a == "-L":
			return nil, false
		case a == "-D" || a == "-O":
			i += 2
		case strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "-D"):
			i++
		default:
			goto starts
		}
	}
starts:
	for i < len(argv) && !strings.HasPrefix(argv[i], "-") && argv[i] != "(" && argv[i] != "!" {
		plan.starts = append(plan.starts, argv[i])
		i++
	}
	if len(plan.starts) == 0 {
		plan.starts = []string{"."}
	}
	p := &findParser{argv: argv, i: i, plan: plan, words: words}
	if i >= len(argv) {
		return nil, false
	}
	expr, ok := p.comma()
	if !ok || p.i != len(argv) || !p.marked {
		return nil, false
	}
	plan.expr = expr
	return plan, true
}

// visit evaluates the expression for x.
func (plan *findPlan) visit(x findEntry) findEval {
	var r findEval
	plan.expr.eval(x, true, &r)
	if plan.depthFirst {
		r.pruned = false // -prune does nothing under -depth
	}
	return r
}

// eval evaluates n for x as find does (left to right, && and || short
// circuits), noting in r whether the marked action may run and whether a
// -prune surely ran (sure: every test before n on the way to it was true
// or false, none unknown).
func (n *findNode) eval(x findEntry, sure bool, r *findEval) tri {
	switch n.op {
	case "and":
		l := n.kids[0].eval(x, sure, r)
		if l == triFalse {
			return triFalse
		}
		rv := n.kids[1].eval(x, sure && l == triTrue, r)
		if l == triTrue {
			return rv
		}
		if rv == triFalse {
			return triFalse
		}
		return triUnknown
	case "or":
		l := n.kids[0].eval(x, sure, r)
		if l == triTrue {
			return triTrue
		}
		rv := n.kids[1].eval(x, sure && l == triFalse, r)
		if l == triFalse {
			return rv
		}
		if rv == triTrue {
			return triTrue
		}
		return triUnknown
	case ",":
		n.kids[0].eval(x, sure, r)
		return n.kids[1].eval(x, sure, r)
	case "not":
		switch n.kids[0].eval(x, sure, r) {
		case triTrue:
			return triFalse
		case triFalse:
			return triTrue
		}
		return triUnknown
	}
	if n.action {
		r.reached = true
	}
	if n.prune && sure {
		r.pruned = true
	}
	return n.test(x)
}

type findParser struct {
	argv   []string
	i      int
	plan   *findPlan
	words  []string // the command of the marked actions
	marked bool
}

func (p *findParser) peek() string {
	if p.i < len(p.argv) {
		return p.argv[p.i]
	}
	return ""
}

func (p *findParser) comma() (*findNode, bool) {
	l, ok := p.or()
	for ok && p.peek() == "," {
		p.i++
		var r *findNode
		if r, ok = p.or(); ok {
			l = &findNode{op: ",", kids: []*findNode{l, r}}
		}
	}
	return l, ok
}

func (p *findParser) or() (*findNode, bool) {
	l, ok := p.and()
	for ok && (p.peek() == "-o" || p.peek() == "-or") {
		p.i++
		var r *findNode
		if r, ok = p.and(); ok {
			l = &findNode{op: "or", kids: []*findNode{l, r}}
		}
	}
	return l, ok
}

func (p *findParser) and() (*findNode, bool) {
	l, ok := p.not()
	for ok {
		switch p.peek() {
		case "", ")", "-o", "-or", ",":
			return l, true
		case "-a", "-and":
			p.i++
		}
		var r *findNode
		if r, ok = p.not(); ok {
			l = &findNode{op: "and", kids: []*findNode{l, r}}
		}
	}
	return l, ok
}

func (p *findParser) not() (*findNode, bool) {
	switch p.peek() {
	case "!", "-not":
		p.i++
		x, ok := p.not()
		return &findNode{op: "not", kids: []*findNode{x}}, ok
	case "(":
		p.i++
		x, ok := p.comma()
		if !ok || p.peek() != ")" {
			return nil, false
		}
		p.i++
		return x, true
	}
	return p.primary()
}

func constant(v tri) *findNode {
	return &findNode{test: func(findEntry) tri { return v }}
}

// findUnknownTests take one argument and are not evaluated.
var findUnknownTests = map[string]bool{
	"-newer": true, "-anewer": true, "-cnewer": true, "-perm": true, "-size": true, "-mtime": true, "-mmin": true,
	"-atime": true, "-amin": true, "-ctime": true, "-cmin": true, "-user": true, "-group": true, "-uid": true,
	"-gid": true, "-links": true, "-inum": true, "-samefile": true, "-lname": true, "-ilname": true, "-used": true,
	"-fstype": true, "-context": true, "-regex": true, "-iregex": true, "-xtype": true,
}

// findFlags take no argument and are not evaluated.
var findFlags = map[string]bool{
	"-empty": true, "-executable": true, "-readable": true, "-writable": true, "-nouser": true, "-nogroup": true,
}

// findActions take no argument; they are true (-quit only makes find
// visit fewer entries; -delete is judged as a removal).
var findActions = map[string]bool{"-print": true, "-print0": true, "-ls": true, "-quit": true, "-delete": true}

func (p *findParser) primary() (*findNode, bool) {
	a := p.peek()
	p.i++
	arg := func() (string, bool) {
		if p.i >= len(p.argv) {
			return "", false
		}
		p.i++
		return p.argv[p.i-1], true
	}
	switch a {
	case "-maxdepth", "-mindepth":
		v, ok := arg()
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return nil, false
		}
		if a == "-maxdepth" {
			p.plan.maxDepth = n
		} else {
			p.plan.minDepth = n
		}
		return constant(triTrue), true
	case "-depth", "-d":
		p.plan.depthFirst = true
		return constant(triTrue), true
	case "-prune":
		return &findNode{test: func(findEntry) tri { return triTrue }, prune: true}, true
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn", "-daystart", "-true":
		return constant(triTrue), true
	case "-false":
		return constant(triFalse), true
	case "-regextype":
		_, ok := arg()
		return constant(triTrue), ok
	case "-name", "-iname", "-path", "-wholename", "-ipath", "-iwholename":
		v, ok := arg()
		if !ok {
			return nil, false
		}
		fold := a == "-iname" || a == "-ipath" || a == "-iwholename"
		re := findPattern(v, fold)
		whole := a != "-name" && a != "-iname"
		wild := strings.ContainsAny(v, "?[")
		return &findNode{test: func(x findEntry) tri {
			s := x.name
			if whole {
				s = x.path
			}
			// what ? or a class matches in a name with bytes above
			// ASCII, and how case folds there, depend on find's locale
			if re == nil || (wild || fold) && !ascii(s) {
				return triUnknown
			}
			if re.MatchString(s) {
				return triTrue
			}
			return triFalse
		}}, true
	case "-type":
		v, ok := arg()
		if !ok {
			return nil, false
		}
		return &findNode{test: func(x findEntry) tri { return findType(v, x.mode) }}, true
	case "-printf", "-fprint", "-fprint0", "-fls":
		_, ok := arg()
		return constant(triTrue), ok
	case "-fprintf":
		_, ok1 := arg()
		_, ok2 := arg()
		return constant(triTrue), ok1 && ok2
	case "-exec", "-execdir", "-ok", "-okdir":
		start := p.i
		for p.i < len(p.argv) && p.argv[p.i] != ";" && !(p.argv[p.i] == "+" && p.i > start && p.argv[p.i-1] == "{}") {
			p.i++
		}
		if p.i >= len(p.argv) || p.i == start {
			return nil, false
		}
		n := &findNode{test: func(findEntry) tri { return triUnknown }, action: slices.Equal(p.argv[start:p.i], p.words)}
		p.marked = p.marked || n.action
		p.i++
		return n, true
	}
	switch {
	case findUnknownTests[a]:
		_, ok := arg()
		return constant(triUnknown), ok
	case findFlags[a]:
		return constant(triUnknown), true
	case findActions[a]:
		return constant(triTrue), true
	}
	return nil, false
}

// findPattern compiles a find -name/-path pattern (fnmatch without
// FNM_PATHNAME or FNM_PERIOD: * matches / and a leading dot) to a regular
// expression, or nil when it has a form gate does not read.
func findPattern(pat string, fold bool) *regexp.Regexp {
	// bytes above ASCII (their characters depend on the locale), a
	// trailing backslash (fnmatch matches nothing) and a class under case
	// folding (find folds a range's ends: [F-a] is empty) are not read
	if !ascii(pat) || strings.HasSuffix(pat, `\`) || fold && strings.Contains(pat, "[") {
		return nil
	}
	var b strings.Builder
	b.WriteString("^(?s)")
	if fold {
		b.WriteString("(?i)")
	}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			} else {
				b.WriteString(`\\`)
			}
		case '[':
			end := strings.IndexByte(pat[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pat[i+1 : i+1+end]
			if end == 0 || strings.ContainsAny(class, `[\`) {
				return nil // []...], [[:alpha:]], escapes: not read
			}
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// ascii reports whether s has only ASCII bytes.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// makesNames are programs in makes_no_files that still make a name (a
// directory, a fifo) without writing a file gate sees.
var makesNames = map[string]bool{"mkdir": true, "mkfifo": true, "mknod": true, "install": true, "mktemp": true, "ln": true, "link": true, "mv": true, "cp": true}

// findType evaluates -type LIST (f, d, l, p, s, b, c; D is a door).
func findType(list string, mode fs.FileMode) tri {
	for _, t := range strings.Split(list, ",") {
		var ok bool
		switch t {
		case "f":
			ok = mode.IsRegular()
		case "d":
			ok = mode.IsDir()
		case "l":
			ok = mode&fs.ModeSymlink != 0
		case "p":
			ok = mode&fs.ModeNamedPipe != 0
		case "s":
			ok = mode&fs.ModeSocket != 0
		case "b":
			ok = mode&fs.ModeDevice != 0 && mode&fs.ModeCharDevice == 0
		case "c":
			ok = mode&fs.ModeCharDevice != 0
		case "D":
		default:
			return triUnknown
		}
		if ok {
			return triTrue
		}
	}
	return triFalse
}
