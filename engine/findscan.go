package engine

import (
	"cmp"
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
// {} \;), or prints into a pipe to xargs (find . -name '*.py' -print0 |
// xargs -0 sed -i s/a/b/), are only known at run time. When nothing in the
// command may create a name before find runs, they are the entries below
// find's start points that its expression may select: gate walks them at
// decision time (without following symlinks, as find -P does) and judges
// each as the file the action writes. Tests it cannot evaluate (-newer,
// -size, an -exec's status) count as true, so the files are a superset of
// those find selects.

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

// findFiles returns find's directory, the files the -exec (or -execdir,
// -ok, -okdir) action whose command is seg may be given, relative to it,
// and the word that stands for them in seg's writes ({}); or, when seg is
// the command of an xargs that reads find's output through a pipe, the
// files find may print and the word "<input>". It returns false when seg
// is neither or gate cannot tell: the find's words or directory are not
// all known, it follows symlinks, its expression has a primary gate does
// not know, the walk is too long, or something in the command may make a
// name first; for xargs, also when find may print anything but names, a
// name may not reach xargs's command as one whole word, or xargs is given
// an option gate does not read.
func (e *Engine) findFiles(cwd string, segs []SegmentInput, seg *shellparse.Segment) (string, []string, string, bool) {
	if seg.Parent < 0 || seg.Parent >= len(segs) {
		return "", nil, "", false
	}
	var find *shellparse.Segment
	words, marker, own := seg.Argv, "{}", []int{seg.Parent}
	split := false // xargs splits its input at blanks and reads quotes
	switch {
	case strings.HasPrefix(seg.Via, "find -"):
		find = segs[seg.Parent].Segment
		if !findActionsInPlace(segs, find, e.cat) {
			return "", nil, "", false
		}
	case seg.Via == "xargs":
		x := segs[seg.Parent].Segment
		if x.PipedFrom < 0 || x.PipedFrom >= len(segs) || x.Program != "xargs" || x.ProgramPath != "" || x.FunctionCall || x.MayBeFunction {
			return "", nil, "", false
		}
		find = segs[x.PipedFrom].Segment
		action, item, ok := xargsItems(e.cat, x, seg)
		if !ok || !inPlace(segs, x.ID, seg, item, e.cat) || !quietRedirects(x) || !quietRedirects(find) ||
			len(find.Writes) > 0 || len(find.Removes) > 0 || !plainAssigns(find) || !plainAssigns(x) || sources(segs) {
			return "", nil, "", false
		}
		words, marker, split = []string{action}, item, action == "-print"
		own = append(own, find.ID)
	default:
		return "", nil, "", false
	}
	if !slices.ContainsFunc(seg.Writes, func(w shellparse.Word) bool { return w.Dynamic && w.Value == marker }) ||
		find.Program != "find" || find.ProgramPath != "" || find.FunctionCall || find.MayBeFunction || len(find.Dynamic) > 0 ||
		!nothingWrittenBefore(segs, own, e.cat) {
		return "", nil, "", false
	}
	base, known := e.segmentDir(cwd, find)
	if !known {
		return "", nil, "", false
	}
	if seg.Via == "xargs" {
		// xargs runs its command where find runs
		if xb, ok := e.segmentDir(cwd, seg); !ok || xb != base {
			return "", nil, "", false
		}
	}
	plan, ok := readFind(find.Argv, words)
	if !ok {
		return "", nil, "", false
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
			return "", nil, "", false
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
				if len(files) >= maxFindFiles || split && !xargsWord(shown) {
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
			return "", nil, "", false
		}
	}
	return base, files, marker, true
}

// inputWord is the word the parser puts where xargs appends what it reads.
const inputWord = "<input>"

// xargsItems reads the options of x, an xargs running seg, with the
// catalogue's getopt specification of xargs: it returns the find action
// whose output x reads as one item each ("-print0" for -0 or --null,
// "-print" for items split at blanks and newlines) and the word that
// stands for an item in seg's argv: the input word the parser appends, or
// the string -I (-i, --replace) names, which must then be whole words. It
// returns false when an option changes what the items are or where they
// come from (-d, -E, -a, -l) or is not known.
func xargsItems(cat *shellparse.Catalogue, x, seg *shellparse.Segment) (string, string, bool) {
	n := len(seg.Argv) // seg's argv is x's operands, and the input word
	if n > 0 && seg.Argv[n-1] == inputWord {
		n--
	}
	if n < 1 || len(x.Argv) < n+1 || len(x.Dynamic) > 0 || !slices.Equal(x.Argv[len(x.Argv)-n:], seg.Argv[:n]) {
		return "", "", false
	}
	opts, first, ok := cat.ReadOptions("xargs", x.Argv)
	if !ok || first != len(x.Argv)-n {
		return "", "", false
	}
	null, replace, counts := false, "", false
	for _, o := range opts {
		switch o.Name {
		case "-0", "--null":
			null = true
		case "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-p", "--interactive", "-o", "--open-tty",
			"-P", "--max-procs", "-s", "--max-chars":
		case "-n", "--max-args", "-L":
			counts = true
		case "-I", "-i", "--replace": // -i[R], --replace[=R]: a value only attached
			if o.HasValue && o.Value == "" {
				return "", "", false // an empty R: read as xargs pleases
			}
			replace = cmp.Or(o.Value, "{}")
		default:
			return "", "", false
		}
	}
	if replace != "" && counts {
		// -I, -L and -n exclude each other: the last one given wins
		// (-I{} -L1 makes {} a word of its own again)
		return "", "", false
	}
	marker := inputWord
	if replace != "" {
		// each word holding R gets the item in its place: only words
		// that are R itself
		marker = replace
		for k, a := range seg.Argv {
			if strings.Contains(a, replace) != slices.Contains(seg.Dynamic, k) || strings.Contains(a, replace) && a != replace {
				return "", "", false
			}
		}
		if n != len(seg.Argv) || len(seg.Dynamic) == 0 {
			return "", "", false
		}
	} else if n != len(seg.Argv)-1 || !slices.Equal(seg.Dynamic, []int{n}) {
		return "", "", false
	}
	if null {
		return "-print0", marker, true
	}
	return "-print", marker, true
}

// xargsWord reports whether xargs, splitting its input at blanks and
// newlines and reading quotes and backslashes, gives the line name as one
// word, itself: a name with none of those characters, in ASCII (the
// blanks of other characters depend on the locale).
func xargsWord(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c >= 0x7f || c == '\'' || c == '"' || c == '\\' {
			return false
		}
	}
	return name != ""
}

// recursive reports whether option o is -R, or --recursive or a prefix of
// it that getopt_long takes for it (chmod --rec).
func recursive(o string) bool {
	return o == "-R" || len(o) > 4 && strings.HasPrefix("--recursive", o)
}

// plainAssigns reports whether seg's assignments are all known: a
// process substitution there (X=>(echo /etc/passwd) find . | xargs …)
// runs a command whose output is find's, the pipe to xargs.
func plainAssigns(seg *shellparse.Segment) bool {
	return !slices.ContainsFunc(seg.Assigns, func(a shellparse.Assign) bool { return a.Dynamic })
}

// sources reports whether the command sources a file, which may define
// functions of any name (find).
func sources(segs []SegmentInput) bool {
	return slices.ContainsFunc(segs, func(s SegmentInput) bool { return s.Program == "source" || s.Program == "." })
}

// quietRedirects reports whether seg's redirections leave its standard
// input and output alone: none, or only its errors sent to /dev/null (find
// 2>/dev/null | xargs ...).
func quietRedirects(seg *shellparse.Segment) bool {
	for _, r := range seg.Redirects {
		if r.FD != "2" || !r.Write || r.Dup || r.Dynamic || r.Target != "/dev/null" {
			return false
		}
	}
	return true
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
		if s := segs[i].Segment; s.Parent == find.ID && !inPlace(segs, find.ID, s, "{}", cat) {
			return false
		}
	}
	return true
}

// inPlace reports whether s, a command the wrapper parent runs, writes
// only the files it is given (the word marker), in place, and makes no
// other name: its program makes no files (chmod, sed -i, touch), it has no
// redirection that writes, and neither it nor any other command of parent
// runs a command of its own.
func inPlace(segs []SegmentInput, parent int, s *shellparse.Segment, marker string, cat *shellparse.Catalogue) bool {
	for i := range segs {
		if p := segs[i].Parent; p >= 0 && p < len(segs) && segs[p].Parent == parent {
			return false // a wrapper's command, or a shell's
		}
	}
	if s.Kind != shellparse.KindCommand || s.FunctionCall || s.ProgramPath != "" || s.Program == "" ||
		!cat.MakesNoFile(s.Program) || makesNames[s.Program] || len(s.Removes) > 0 || s.WritesUnnamed ||
		slices.ContainsFunc(s.Options, recursive) {
		// chmod -R DIR changes what is below DIR too: a hard
		// link there is a protected file's
		return false
	}
	for _, w := range s.Writes {
		if !w.Dynamic || w.Value != marker {
			return false
		}
	}
	for _, r := range s.Redirects {
		if r.Write && !r.Dup && !r.Pipe {
			return false
		}
	}
	return true
}

// nothingWrittenBefore reports whether no segment other than find and the
// wrapper that runs the action (ids, find last) and the commands they run
// may write or make a name (mkdir, a program outside makes_no_files)
// before or while find runs.
func nothingWrittenBefore(segs []SegmentInput, ids []int, cat *shellparse.Catalogue) bool {
	own := func(i int) bool {
		for j := i; j >= 0 && j < len(segs); j = segs[j].Parent {
			if slices.Contains(ids, j) {
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
		// an assignment or a test (x=1, [[ … ]]) makes no name: its
		// substitutions are segments of their own
		if s.Kind == shellparse.KindCommand && (s.Program == "" || len(s.Writes) > 0 || len(s.Removes) > 0 || s.WritesUnnamed ||
			makesNames[s.Program] || creates(s, cat)) {
			return true
		}
		for _, r := range s.Redirects {
			if r.Write && !r.Dup && !r.Pipe {
				return true
			}
		}
		return false
	})
	return !scope[ids[len(ids)-1]]
}

// readFind reads find's argv: its start points, depth options and
// expression, with the -exec-like actions that run the command words
// marked, or, when words is one print action (-print, -print0), the
// actions that print names that way, including the -print find adds when
// the expression has no action. It fails on -L, -H, -follow, -files0-from
// and any word it does not know, and, for a print action, on any other
// action that may write to find's output or elsewhere.
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
		case (a == "-D" || strings.HasPrefix(a, "-D")) && len(words) == 1:
			return nil, false // -D help prints find's help where names go
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
	if len(words) == 1 && (words[0] == "-print" || words[0] == "-print0") {
		p.print = words[0]
	}
	if i >= len(argv) {
		if p.print != "-print" {
			return nil, false
		}
		plan.expr = &findNode{test: func(findEntry) tri { return triTrue }, action: true} // find DIR prints all
		return plan, true
	}
	expr, ok := p.comma()
	if ok && p.print == "-print" && !p.acts {
		// no action but -prune: find prints what the whole
		// expression is true for
		expr = &findNode{op: "and", kids: []*findNode{expr, {test: func(findEntry) tri { return triTrue }, action: true}}}
		p.marked = true
	}
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
	// print is the print action marked (-print, -print0) when find's
	// output is what is asked about; acts is set when the expression
	// has an action other than -prune
	print string
	acts  bool
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
		return constant(triTrue), ok && p.print == ""
	case "-fprintf":
		_, ok1 := arg()
		_, ok2 := arg()
		return constant(triTrue), ok1 && ok2 && p.print == ""
	case "-exec", "-execdir", "-ok", "-okdir":
		if p.print != "" {
			return nil, false // what the command prints joins find's output
		}
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
		p.acts = true
		if p.print == "" {
			return constant(triTrue), true
		}
		switch a {
		case p.print:
			p.marked = true
			return &findNode{test: func(findEntry) tri { return triTrue }, action: true}, true
		case "-quit":
			return constant(triTrue), true
		}
		return nil, false // -ls prints more than names; -print and -print0 differ
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
