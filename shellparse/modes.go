package shellparse

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// checkModes validates a program's modes: each has a description, its own
// getopt and writes are usable, and it holds nothing Validate keys by the
// program's name (an inline code pattern) or more modes.
func (p *ProgramSpec) checkModes() error {
	for key, m := range p.Modes {
		if m == nil || len(strings.Fields(key)) == 0 {
			return fmt.Errorf("mode %q has no description", key)
		}
		if len(m.Modes) > 0 || (m.InlineCode != nil && m.InlineCode.Pattern != "") {
			return fmt.Errorf("mode %q: modes and inline_code.pattern are not read inside a mode", key)
		}
		if m.Getopt != nil && !m.Getopt.checked {
			if err := m.Getopt.compile(); err != nil {
				return fmt.Errorf("mode %q: getopt: %w", key, err)
			}
		}
		if m.Writes != nil {
			if err := m.Writes.check(); err != nil {
				return fmt.Errorf("mode %q: %w", key, err)
			}
		}
	}
	return nil
}

// mode reads the mode argv's leading words select (cmake -E env): it
// returns argv as the mode reads it (the program's name, then the words
// after the mode's) and the mode's description. Argv that starts like a
// mode without being one known statically is reported, and read as
// before.
func (w *walker) mode(seg *Segment, words []wordInfo, spec *ProgramSpec) ([]wordInfo, *ProgramSpec) {
	best, bestLen := (*ProgramSpec)(nil), 0
	started, dynamic := false, false
	for key, m := range spec.Modes {
		kw := strings.Fields(key)
		n := 0
		for n < len(kw) && 1+n < len(words) && !words[1+n].Dynamic && words[1+n].Value == kw[n] {
			n++
		}
		if n == len(kw) {
			if n > bestLen {
				best, bestLen = m, n
			}
			continue
		}
		if n > 0 || (len(words) > 1 && words[1].Dynamic) {
			started = true
			dynamic = dynamic || (1+n < len(words) && words[1+n].Dynamic)
		}
	}
	if best != nil {
		return append([]wordInfo{words[0]}, words[1+bestLen:]...), best
	}
	switch {
	case dynamic:
		seg.addFinding(FindUnknownOption, seg.Program+" is given a mode not known statically: what it does cannot be checked")
	case started:
		seg.addFinding(FindUnknownOption, seg.Program+" is given a mode gate does not know: what it does cannot be checked")
	}
	return words, spec
}

// subcommandName reads the first operand as the subcommand it names (npm
// exe is npm exec): argv is returned with it spelled out, and the reading
// joins AltPaths so that exclude entries naming the subcommand match.
func (w *walker) subcommandName(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) []wordInfo {
	sn := spec.SubcommandNames
	// every reading of the path (an option of unknown arity may or may
	// not take the next word) gets its subcommand spelled out
	for _, p := range append([][]string{seg.Path}, seg.AltPaths...) {
		if len(p) > 1 {
			if full := sn.deref(p[1]); full != p[1] {
				alt := append([]string{}, p...)
				alt[1] = full
				seg.AltPaths = append(seg.AltPaths, alt)
			}
		}
	}
	// the subcommand is the first operand, or one after operands that
	// may be the values of options the entry does not know (npm
	// --loglevel silent explo: explore), as subcommandAt reads it
	out, copied := words, false
	starts := subcommandStarts(words, sc, spec)
	if sn.ProgramFallback != "" && len(starts) > 0 {
		// pnpm node -e CODE runs node: read as pnpm exec node -e CODE
		i := sc.operands[starts[0]]
		if v := words[i]; !v.Dynamic && !sn.known(v.Value) && sn.deref(v.Value) == v.Value && w.p.cat.program(path.Base(v.Value)) != nil {
			fb := wordInfo{Word: Word{Value: sn.ProgramFallback}, raw: sn.ProgramFallback}
			return slices.Concat(words[:i:i], []wordInfo{fb}, words[i:])
		}
	}
	for _, k := range starts {
		i := sc.operands[k]
		if words[i].Dynamic {
			break
		}
		if full := sn.deref(words[i].Value); full != words[i].Value {
			if !copied {
				out, copied = append([]wordInfo(nil), words...), true
			}
			out[i].Value = full
		}
	}
	return out
}

// configSets reports configuration set by the command (npm config set
// script-shell ./s) whose key is not known to be inert.
func (w *walker) configSets(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	cs := spec.ConfigSets
	for _, form := range cs.Forms {
		fw := strings.Fields(form)
		k := subcommandAt(words, sc, spec, fw)
		if k < 0 {
			continue
		}
		ops := sc.operands[min(k+len(fw), len(sc.operands)):]
		for j := 0; j < len(ops); j++ {
			wd := words[ops[j]]
			key, _, eq := strings.Cut(wd.Value, "=")
			if wd.Dynamic && !eq || strings.ContainsAny(key, "$`") {
				seg.addFinding(FindInlineCode, seg.Program+" "+form+" is given a key not known statically: "+clip(wd.Value))
				return
			}
			if !matchAny(cs.InertKeys, key) {
				seg.addFinding(FindInlineCode, seg.Program+" "+form+" sets "+key+", which may name a program or code it runs later")
				return
			}
			if !eq {
				j++ // KEY VALUE
			}
		}
		return
	}
}

// unknownOptions reports the options a program's complete getopt
// specification does not know (or finds ambiguous): the program may read
// them as an option gate does not model (gdb -eval-c CMD).
func (w *walker) unknownOptions(seg *Segment, words []wordInfo, spec *ProgramSpec) {
	g := spec.Getopt
	for i := 1; i < len(words); i++ {
		wd := words[i]
		if wd.Dynamic {
			continue
		}
		if wd.Value == "--" {
			return
		}
		if !isOption(wd.Value) {
			if g.posix {
				return
			}
			continue
		}
		r := g.read(wd.Value)
		if r.unknown != "" {
			seg.addFinding(FindUnknownOption, seg.Program+" is given "+r.unknown+", an option gate does not know: what it does cannot be checked")
			return
		}
		if r.needsNext {
			i++
		}
	}
}

// multiLetterPrefix returns the option of more than one letter, spelled
// with one dash and taking a value, that v starts with and continues with
// its value attached (zip -TTcmd, gcc -MFdeps.d): "" when there is none.
func (p *ProgramSpec) multiLetterPrefix(v string) string {
	if p == nil || p.Getopt != nil || strings.HasPrefix(v, "--") {
		return ""
	}
	best := ""
	for _, o := range p.OptionsWithValue {
		if len(o) > 2 && !strings.HasPrefix(o, "--") && len(v) > len(o) && strings.HasPrefix(v, o) && len(o) > len(best) {
			best = o
		}
	}
	return best
}

// oldStyle reads a program's first word as a cluster of option letters
// without a dash (tar cIf PROG FILE): the letters that take a value take
// the words after the cluster, in order. It returns nil when the first
// word is no such cluster.
func oldStyle(words []wordInfo, spec *ProgramSpec) []wordInfo {
	if len(words) < 2 || words[1].Dynamic {
		return nil
	}
	first := words[1].Value
	if first == "" || strings.HasPrefix(first, "-") {
		return nil
	}
	for _, r := range first {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return nil
		}
	}
	out := []wordInfo{words[0]}
	next := 2
	for _, r := range first {
		opt := "-" + string(r)
		out = append(out, wordInfo{Word: Word{Value: opt}, raw: opt})
		if spec.takesValue(opt) && next < len(words) {
			// the value stands right after its option, so that the
			// option is read with it
			out = append(out, words[next])
			next++
		}
	}
	return append(out, words[next:]...)
}

// varFiles reads the NAME=VALUE operands naming program files (make
// MAKEFILES=mk, SHELL=./s): each word of the value is a program file.
func (w *walker) varFiles(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult, c *ctx) {
	for _, i := range sc.operands {
		wd := words[i]
		name, val, ok := makeDefinition(wd.Value)
		if !ok || !(contains(spec.VarFiles, name) || contains(spec.VarFiles, "*")) {
			continue
		}
		if wd.Dynamic {
			w.programFile(seg, Word{Value: val, Dynamic: true}, seg.Program+" "+name, c)
			continue
		}
		for _, f := range strings.Fields(val) {
			w.programFile(seg, Word{Value: f}, seg.Program+" "+name, c)
		}
	}
}

// dirRunner reports a program that runs every program in its directory
// operand (run-parts DIR) after the command wrote a file, which may be one
// of them (or a link to an excluded program).
func (w *walker) dirRunner(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	for _, o := range spec.DirRunner.NoExecOptions {
		if sc.hasOption(o) {
			return
		}
	}
	if len(sc.operands) == 0 {
		return
	}
	if d := words[sc.operands[len(sc.operands)-1]]; d.Dynamic {
		seg.addFinding(FindScriptFile, seg.Program+" runs the programs in a directory not known statically: "+clip(d.Value))
		return
	}
	if d := path.Clean(words[sc.operands[len(sc.operands)-1]].Value); path.IsAbs(d) || strings.HasPrefix(d, "~") || d == ".." || strings.HasPrefix(d, "../") {
		// run-parts --regex '^rm$' -a v /usr/bin runs rm: a directory
		// outside the project may hold any program
		seg.addFinding(FindDynamicProgram, seg.Program+" runs the programs in "+d+", a directory outside the workspace whose programs gate does not list")
		return
	}
	if len(w.written) > 0 || w.overflow {
		seg.addFinding(FindScriptFile, seg.Program+" runs every program in a directory, after this command wrote files that may be among them")
	}
}

// trimWritten is the file a program writes for operand wd: wd without the
// suffix a decompressor removes (gunzip Makefile.gz writes Makefile).
func trimWritten(ws *WritesSpec, sc *scanResult, wi wordInfo) (Word, bool) {
	wd := wi.Word
	if len(ws.TrimSuffixes) == 0 && len(ws.SuffixOptions) == 0 || wd.Dynamic {
		return wd, true
	}
	suffixes := ws.TrimSuffixes
	for _, o := range ws.SuffixOptions {
		for _, v := range sc.values[o] {
			if v.Dynamic {
				return Word{Value: wd.Value + " without a suffix known only at run time", Dynamic: true}, true
			}
			suffixes = append([]string{v.Value}, suffixes...)
		}
	}
	for _, suf := range suffixes {
		if suf != "" && len(wd.Value) > len(suf) && strings.HasSuffix(wd.Value, suf) {
			return Word{Value: strings.TrimSuffix(wd.Value, suf)}, true
		}
	}
	return wd, true
}

// unnamedWrites reports the files a program writes in the current
// directory under names known only at run time (curl -O, wget), when that
// directory is inside .git or not known statically.
func unnamedWrites(seg *Segment, ws *WritesSpec, sc *scanResult) {
	treeWhen := func(w string) bool { return sc.given(readWhen(w)) }
	if slices.ContainsFunc(ws.Tree, sc.hasOption) && (len(ws.TreeWhen) == 0 || slices.ContainsFunc(ws.TreeWhen, treeWhen)) {
		seg.WritesUnnamed = true
		seg.Writes = append(seg.Writes, Word{Value: "the files it names at run time, in directories below its own", Dynamic: true})
		return
	}
	if len(ws.Unnamed) == 0 {
		return
	}
	if !contains(ws.Unnamed, "*") && !slices.ContainsFunc(ws.Unnamed, sc.hasOption) {
		return
	}
	seg.WritesUnnamed = true
	if dir := strings.Join(seg.Chdir, "/"); seg.ChdirUnknown || (dir != "" && inGitDir(Word{Value: dir})) {
		seg.Writes = append(seg.Writes, Word{Value: "the files it names at run time, in a directory inside .git or known only at run time", Dynamic: true})
	}
}

// extractDirOptions are the options that name the directory an extractor
// writes into (tar -x -C DIR, unzip -d DIR).
var extractDirOptions = map[string][]string{
	// tar --one-top-level=DIR extracts into DIR too
	"tar": {"-C", "--directory", "--one-top-level"}, "gtar": {"-C", "--directory", "--one-top-level"}, "bsdtar": {"-C", "--directory"},
	"unzip": {"-d"}, "cpio": {"-D", "--directory"},
	"7z": {"-o"}, "7za": {"-o"}, "7zr": {"-o"},
}

// extractDirAttached are the extractors whose directory option takes its
// value attached (7z x a.7z -oDIR).
var extractDirAttached = map[string]bool{"7z": true, "7za": true, "7zr": true}

// extractDir records the directory an extractor writes into: the files it
// extracts land there (tar -x -C .. writes beside the root).
func extractDir(seg *Segment, words []wordInfo, sc *scanResult) {
	// cpio -p DIR (-pdm, -dump) copies what it reads into DIR
	if seg.Program == "cpio" && (sc.hasOption("-p") || sc.hasOption("--pass-through")) && len(sc.operands) > 0 {
		seg.Writes = append(seg.Writes, words[sc.operands[0]].Word)
	}
	opts := extractDirOptions[seg.Program]
	if len(opts) == 0 || makesOrLists(seg, words) {
		return
	}
	// as the program reads its options (tar --dir .git/hooks, -xC dir),
	// and as written, for a program read without a full specification
	n := len(seg.Writes)
	defer func() {
		for _, o := range opts {
			for _, v := range sc.values[o] {
				if !slices.Contains(seg.Writes[n:], v) {
					seg.Writes = append(seg.Writes, v)
				}
			}
		}
	}()
	if seg.Program == "unzip" {
		unzipDir(seg, words)
		return
	}
	for k := 1; k < len(words); k++ {
		wd := words[k]
		if wd.Value == "--" && !wd.Dynamic {
			return
		}
		for _, o := range opts {
			switch {
			case wd.Value == o && k+1 < len(words):
				seg.Writes = append(seg.Writes, words[k+1].Word)
			case extractDirAttached[seg.Program] && strings.HasPrefix(wd.Value, o) && len(wd.Value) > len(o):
				seg.Writes = append(seg.Writes, Word{Value: strings.TrimPrefix(wd.Value, o), Dynamic: wd.Dynamic})
			case strings.HasPrefix(wd.Value, o+"=") && strings.HasPrefix(o, "--"):
				seg.Writes = append(seg.Writes, Word{Value: strings.TrimPrefix(wd.Value, o+"="), Dynamic: wd.Dynamic})
			}
		}
	}
}

// unzipDir records the directory unzip extracts into. unzip reads its
// own options, anywhere on the line: -d takes its value attached or as
// the next word, also at the end of a cluster of flags (-qod.git/hooks is
// -q -o -d .git/hooks: rt31), and -P takes the rest as a password. An
// option word known only at run time may hold a -d.
func unzipDir(seg *Segment, words []wordInfo) {
	for k := 1; k < len(words); k++ {
		wd := words[k]
		v := wd.Value
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		if wd.Dynamic {
			seg.Writes = append(seg.Writes, Word{Value: v, Dynamic: true})
			continue
		}
		for j := 1; j < len(v); j++ {
			if v[j] == 'P' {
				break
			}
			if v[j] != 'd' {
				continue
			}
			switch {
			case j+1 < len(v):
				seg.Writes = append(seg.Writes, Word{Value: v[j+1:]})
			case k+1 < len(words):
				seg.Writes = append(seg.Writes, words[k+1].Word)
			}
			break
		}
	}
}

// moduleWrites records the files a module run with python -m MODULE
// writes, from the words after the module's name.
func (w *walker) moduleWrites(seg *Segment, words []wordInfo, opt, module string, ws *WritesSpec) {
	if at := moduleAt(words, opt, module); at >= 0 {
		rest := append([]wordInfo{words[0]}, words[at+1:]...)
		// the options it writes through take a value (zipapp -o OUT)
		ps := &ProgramSpec{Writes: ws, OptionsWithValue: ws.Options}
		w.writes(seg, rest, ps, scan(rest, ps))
	}
}

// compileModule reads python3 -m py_compile FILE... or -m compileall
// FILE.py...: the __pycache__ beside each file is written. Files named at
// run time (none given, "-", -i LIST, a dynamic word) and compileall of a
// directory are unprovable.
func (w *walker) compileModule(seg *Segment, words []wordInfo, opt, module string, withValue []string) {
	at := moduleAt(words, opt, module)
	if at < 0 {
		return
	}
	var files []Word
	for k := at + 1; k < len(words); k++ {
		wd := words[k]
		v := wd.Value
		switch {
		case wd.Dynamic || v == "-" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "i"):
			// -i LIST, also in a cluster (-qi LIST)
			seg.addFinding(FindInlineCode, seg.Program+" "+opt+" "+module+" compiles files named only at run time: "+clip(v))
			return
		case v == "--":
			for _, f := range words[k+1:] {
				if f.Dynamic || f.Value == "-" {
					seg.addFinding(FindInlineCode, seg.Program+" "+opt+" "+module+" compiles files named only at run time: "+clip(f.Value))
					return
				}
				files = append(files, f.Word)
			}
			k = len(words)
		case contains(withValue, v):
			k++
		case isOption(v):
			// flags (-q, -f, -b), values attached (-j4, --invalidation-mode=x)
		default:
			files = append(files, wd.Word)
		}
	}
	for _, f := range files {
		if module == "compileall" && !strings.HasSuffix(f.Value, ".py") {
			// a directory: byte code goes into every __pycache__ below
			// it, some of which may be links gate does not walk
			seg.addFinding(FindInlineCode, seg.Program+" "+opt+" "+module+" compiles the tree below "+clip(f.Value)+", writing into every __pycache__ in it")
			return
		}
	}
	if len(files) == 0 {
		seg.addFinding(FindInlineCode, seg.Program+" "+opt+" "+module+" given no file compiles names read from standard input or every directory of its search path")
		return
	}
	for _, f := range files {
		seg.Writes = append(seg.Writes, Word{Value: path.Join(path.Dir(f.Value), "__pycache__")})
	}
}

// moduleAt returns the index of the word naming module after opt (-m pip,
// -mpip: the word itself), or -1.
func moduleAt(words []wordInfo, opt, module string) int {
	for k := 1; k < len(words); k++ {
		wd := words[k]
		if wd.Dynamic {
			continue
		}
		switch {
		case wd.Value == opt && k+1 < len(words) && words[k+1].Value == module:
			return k + 1
		case wd.Value == opt+module:
			return k
		}
		// a cluster of flags ending with the option: python3 -Im MODULE,
		// -Imjson.tool
		if flags := clusterBefore(wd.Value, opt); flags != "" && strings.HasPrefix(wd.Value, "-") {
			switch rest := wd.Value[len(flags)+1:]; {
			case rest == "" && k+1 < len(words) && words[k+1].Value == module:
				return k + 1
			case rest == module:
				return k
			}
		}
	}
	return -1
}

// moduleProgram reads python3 -m MODULE ARGS as the program MODULE is the
// command line of, given ARGS: its options that run or write something
// (pip --python PY, uv run CMD, poetry run CMD) are read as the program's.
func (w *walker) moduleProgram(seg *Segment, words []wordInfo, ic *InlineCodeSpec, opt, module string, c *ctx, stdinLit *string) {
	name := module
	if p, ok := ic.ModulePrograms[module]; ok {
		name = p
	}
	at := moduleAt(words, opt, module)
	if at < 0 || w.p.cat.Programs[name] == nil && w.p.cat.SubcommandWrappers[name] == nil {
		return
	}
	prog := wordInfo{Word: Word{Value: name}, raw: name}
	w.inner(seg, append([]wordInfo{prog}, words[at+1:]...), seg.Program+" "+opt+" "+module, c, stdinLit, nil)
}
