package shellparse

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// child returns a walker for a script nested in the current one. It shares
// the program, functions and taint, but reads positions from its own source.
func (w *walker) child(src string) *walker {
	return &walker{p: w.p, src: src, state: w.state, nested: true}
}

// innerCtx returns the context of commands run by owner through via. A
// script run by the same shell (eval, source, trap) shares its directory.
func (w *walker) innerCtx(owner *Segment, via string, c *ctx, sameShell bool) *ctx {
	ic := c.with("wrapper")
	ic.parent = owner.ID
	ic.via = via
	ic.depth = c.depth + 1
	if !sameShell {
		ic.cwd = c.cwd.clone()
		ic.funcs = &funcScope{}
	}
	if w.p.cat.runsElsewhere(owner) && !sameShell {
		ic.cwd.lose()
	}
	return ic
}

// script parses text as a shell script run by owner.
func (w *walker) script(text string, owner *Segment, via string, c *ctx, sameShell bool) {
	owner.Wrapper = true
	if c.depth >= maxDepth {
		owner.addFinding(FindNestingTooDeep, "scripts nest more than "+itoa(maxDepth)+" levels deep")
		return
	}
	file, src, err := parseBash(text)
	if err != nil {
		owner.addFinding(FindUnsupportedShell, "the script run by "+via+" cannot be parsed: "+toParseError(err).Error())
		return
	}
	child := w.child(src)
	first, before := len(w.prog.Segments), w.dirChanges
	child.stmts(file.Stmts, w.innerCtx(owner, via, c, sameShell))
	if w.dirChanges != before && rerunsInShell[owner.Program] {
		// a trap's action or mapfile's callback runs in the shell itself,
		// again and again: a cd in it moves the shell, by an amount only
		// known at run time (trap 'cd d' DEBUG)
		c.cwd.lose()
		dirUnknown(w.prog.Segments[first:])
	}
}

// rerunsInShell are the programs that run a script in the shell itself,
// as many times as they like.
var rerunsInShell = map[string]bool{"trap": true, "mapfile": true, "readarray": true}

// scriptWord runs script for a word that may be dynamic.
func (w *walker) scriptWord(v Word, owner *Segment, via string, c *ctx, sameShell bool) {
	if v.Dynamic {
		owner.Wrapper = true
		owner.addFinding(FindDynamicScript, "the script run by "+via+" is not known statically: "+v.Value)
		return
	}
	w.script(v.Value, owner, via, c, sameShell)
}

// inner analyzes words as a command run by owner.
func (w *walker) inner(owner *Segment, words []wordInfo, via string, c *ctx, stdinLit *string, assigns []Assign) *Segment {
	return w.innerIn(owner, words, via, c, stdinLit, assigns, false)
}

// innerIn is inner; with sameDir, the command runs in the shell itself
// (builtin cd, command cd), and a directory it changes to is the shell's.
func (w *walker) innerIn(owner *Segment, words []wordInfo, via string, c *ctx, stdinLit *string, assigns []Assign, sameDir bool) *Segment {
	owner.Wrapper = true
	if c.depth >= maxDepth {
		owner.addFinding(FindNestingTooDeep, "commands nest more than "+itoa(maxDepth)+" levels deep")
		return nil
	}
	ic := w.innerCtx(owner, via, c, false)
	if sameDir {
		ic.cwd = c.cwd
	}
	seg := w.newSegment(ic, KindCommand)
	seg.Assigns = append(seg.Assigns, assigns...)
	for _, a := range assigns {
		w.specialVar(a.Name, Word{Value: a.Value, Dynamic: a.Dynamic}, seg, ic)
		if a.Dynamic || strings.ContainsAny(a.Value, "[$`") {
			// env x='a[$(cmd)]' bash -c ': $((x))'
			w.tainted[a.Name] = true
		}
	}
	if len(words) == 0 {
		seg.Kind = KindAssignment
		return seg
	}
	w.analyze(seg, words, ic, stdinLit)
	return seg
}

// scriptFile runs a script file (bash FILE, source FILE) as an inner segment
// whose program is the file.
func (w *walker) scriptFile(owner *Segment, words []wordInfo, via string, c *ctx) {
	owner.Transparent = true
	if words[0].Dynamic {
		owner.Wrapper = true
		owner.addFinding(FindDynamicScript, "the script file run by "+via+" is not known statically: "+words[0].Value)
		return
	}
	if v := words[0].Value; matchAny(stdinPaths, ProcRoot(path.Clean(v))) {
		owner.Wrapper = true
		owner.addFinding(FindStdinScript, via+" runs a script read from "+v+", which is not known statically")
		return
	} else if w.wasWritten(v) {
		if content, ok := w.knownContent(owner, v); ok {
			// bash FILE and source FILE read the file as a script,
			// whatever its first line says.
			owner.ContentKnown = true
			w.script(content, owner, via+" "+v, c, via == "source" || via == ".")
			return
		}
		owner.addFinding(FindScriptFile, via+" runs "+v+", which this command writes first")
	} else if f, ok := w.writtenEnding([]string{""}); ok {
		// a script of the project may source any file (. ./.env)
		owner.addFinding(FindScriptFile, via+" runs "+v+", which may source "+f+", a file this command writes first")
	}
	seg := w.inner(owner, words, via, c, nil, nil)
	if seg != nil && seg.ProgramPath == "" && seg.Program != "" {
		// bash FILE and source FILE look in the current directory first.
		seg.ProgramPath = words[0].Value
		seg.FunctionCall = false
	}
	if via == "source" || via == "." {
		// the file runs in this shell and may change its directory
		c.cwd.lose()
		w.dirChanges++
	}
}

// wrapper unwraps a command run by a wrapper such as sudo, env or xargs.
func (w *walker) wrapper(seg *Segment, words []wordInfo, spec *ProgramSpec, c *ctx, stdinLit *string) {
	ws := spec.Wrapper
	name := seg.Program
	i := 1
	var before []Word      // chdir options before the subcommand (pnpm -C DIR exec)
	shellBefore := false   // pnpm -c exec CMD: a shell runs CMD
	var scriptBefore *Word // npm -c CMD exec: CMD runs
	if len(ws.Subcommands) > 0 {
		// npm exec, pnpm dlx: a wrapper only after its subcommand.
		for i < len(words) && !words[i].Dynamic && isOption(words[i].Value) {
			name, val, attached := strings.Cut(words[i].Value, "=")
			shellBefore = shellBefore || contains(ws.ShellOptions, name)
			dynamic := false
			if !attached && spec.takesValue(name) {
				i++
				if i < len(words) {
					val, attached, dynamic = words[i].Value, true, words[i].Dynamic
				}
			}
			if contains(ws.ChdirOptions, name) {
				before = append(before, Word{Value: val, Dynamic: !attached || dynamic})
			}
			if contains(ws.ScriptOptions, name) && attached {
				scriptBefore = &Word{Value: val, Dynamic: dynamic}
			}
			i++
		}
		// a subcommand of more words (npm run env) matches them all
		n := 0
		for _, sub := range ws.Subcommands {
			fs := strings.Fields(sub)
			if i+len(fs) <= len(words) && !slices.ContainsFunc(words[i:i+len(fs)], func(w wordInfo) bool { return w.Dynamic }) &&
				slices.Equal(fs, wordValues(words[i:i+len(fs)])) && len(fs) > n {
				n = len(fs)
			}
		}
		if n == 0 {
			return
		}
		name += " " + strings.Join(wordValues(words[i:i+n]), " ")
		i += n
	}
	var assigns []Assign
	scriptVal := scriptBefore
	var splitVal *Word
	// the words of the split option (env -S STRING) and the flags
	// clustered before it (-iS): the string's words take their place
	splitStart, splitEnd, splitFlags := 0, 0, ""
	shellMode, noExec, commandMode := shellBefore, false, false
	quoted := false // parallel -q: the command's words stay words
	placeholders := append([]string(nil), ws.Placeholders...)
	permute := spec.Getopt != nil && !spec.Getopt.posix
	// operands holds the operands read before the command when options
	// are permuted (su USER -c cmd); otherwise they start at i.
	var operands []wordInfo
	chdirs := before // directories the command runs in (env -C DIR)
	unknown := false
	separated := false // the wrapper's options ended at "--"
	// readOptions reads option words from i up to the first operand (or,
	// when options are permuted, up to "--" or a dynamic word, keeping the
	// operands) and returns the index after them.
	// assign takes v for an assignment when the wrapper takes them: env
	// takes any word with "=" for one (a-b=1, BASH_FUNC_ls%%=...), not
	// only NAME=VALUE.
	assign := func(v string) bool {
		n, val, ok := strings.Cut(v, "=")
		if !ws.Assignments || !ok || n == "" {
			return false
		}
		assigns = append(assigns, Assign{Name: n, Value: val})
		return true
	}
	readOptions := func(i int) int {
		for i < len(words) {
			wd := words[i]
			if wd.Dynamic {
				// env FOO=$PWD CMD: a word whose literal start is NAME= is
				// an assignment, its value known at run time
				if n, v, ok := strings.Cut(wd.Value, "="); ok && ws.Assignments && n != "" && optionPrefix(wd.Value) != n && strings.HasPrefix(optionPrefix(wd.Value), n+"=") && !strings.HasPrefix(n, "-") {
					assigns = append(assigns, Assign{Name: n, Value: v, Dynamic: true})
					i++
					continue
				}
				return i // could be an option or the command: the inner command is dynamic
			}
			v := wd.Value
			if v == "--" {
				i++
				separated = true
				// env -- NAME=VALUE cmd: assignments still come first
				for i < len(words) && !words[i].Dynamic && assign(words[i].Value) {
					i++
				}
				return i
			}
			if !isOption(v) {
				if assign(v) {
					i++
					continue
				}
				if permute {
					operands = append(operands, wd)
					i++
					continue
				}
				return i
			}
			start := i
			var names []string
			var val string
			var attached, needsNext bool
			if spec.Getopt != nil {
				r := spec.Getopt.read(v)
				if r.unknown != "" {
					seg.addFinding(FindUnknownOption, name+" is given "+r.unknown+", an option gate does not know: what it runs cannot be checked")
					unknown = true
					return len(words)
				}
				names, val, attached, needsNext = r.names, r.value, r.attached, r.needsNext
			} else {
				names, val, attached = optionNames(v, spec)
				needsNext = !attached && spec.takesValue(names[len(names)-1])
				if needsNext && spec.abbreviatesValue(v) {
					// parallel --tag CMD: an option the entry does not list
					// may be what --tag is; read as --tagstring, CMD would
					// be its value
					seg.addFinding(FindUnknownOption, name+" is given "+v+", which may be "+names[len(names)-1]+" (taking the next word) or an option gate does not know: what it runs cannot be checked")
					unknown = true
					return len(words)
				}
			}
			for _, n := range names {
				switch {
				case contains(ws.ShellOptions, n):
					shellMode = true
				case contains(ws.QuoteOptions, n):
					quoted = true
				case contains(ws.NoExecOptions, n):
					noExec = true
				case contains(ws.CommandOptions, n):
					commandMode = true
				case contains(ws.CodeOptions, n):
					seg.addFinding(FindUnknownOption, name+" "+n+" makes it load or run code that cannot be checked")
				}
			}
			last := names[len(names)-1]
			if needsNext && i+1 < len(words) {
				i++
				val = words[i].Value
				if words[i].Dynamic {
					cp := words[i].Word
					if contains(ws.ScriptOptions, last) {
						scriptVal = &cp
					}
					if contains(ws.SplitOptions, last) {
						splitVal = &cp
						splitStart, splitEnd, splitFlags = start, i+1, clusterBefore(v, last)
					}
					if contains(ws.ChdirOptions, last) {
						chdirs = append(chdirs, cp)
					}
					i++
					continue
				}
				attached = true
			}
			if attached && contains(ws.ChdirOptions, last) {
				chdirs = append(chdirs, Word{Value: val})
			}
			if attached {
				word := Word{Value: val}
				switch {
				case contains(ws.ScriptOptions, last):
					scriptVal = &word
				case contains(ws.SplitOptions, last):
					splitVal = &word
					splitStart, splitEnd, splitFlags = start, i+1, clusterBefore(v, last)
				case contains(ws.PlaceholderOptions, last):
					placeholders = append(placeholders, val)
				}
			} else if contains(ws.PlaceholderOptions, last) {
				placeholders = append(placeholders, "{}")
			}
			i++
		}
		return i
	}
	i = readOptions(i)
	seg.Wrapper = true
	seg.Transparent = ws.Transparent
	if unknown {
		return
	}
	if permute {
		operands = append(operands, words[i:]...)
	} else {
		operands = words[i:]
	}
	if ws.LoginDash && len(operands) > 0 && !operands[0].Dynamic && operands[0].Value == "-" {
		operands = operands[1:]
	}
	skip := ws.SkipOperands
	if commandMode || ws.SkipUnlessOption && len(words) > 1 && !words[1].Dynamic && isOption(words[1].Value) {
		skip = 0
	}
	if skip > len(operands) {
		skip = len(operands)
	}
	if ws.ChdirOperand && skip > 0 {
		chdirs = append(chdirs, operands[0].Word)
	}
	operands = operands[skip:]
	if ws.OptionsAfterSkip && !permute && len(operands) > 0 {
		sub := append([]wordInfo{words[0]}, operands...)
		saved := words
		words = sub
		j := readOptions(1)
		words = saved
		if unknown {
			return
		}
		operands = sub[j:]
	}
	c = chdirCtx(c, chdirs) // for whatever runs the command
	if scriptVal != nil {
		if !scriptVal.Dynamic {
			// su -c, flock -c, sg -c: run by a shell that may be sh
			posixAgrees(seg, scriptVal.Value, name+" -c")
		}
		w.scriptWord(*scriptVal, seg, name+" -c", c, false)
		return
	}
	if splitVal != nil {
		w.splitString(seg, words, spec, *splitVal, splitStart, splitEnd, splitFlags, name, c, stdinLit)
		return
	}
	if noExec {
		seg.Wrapper = false
		seg.Transparent = false
		return
	}
	if ws.ShellArgs && !commandMode {
		if len(operands) > 0 {
			w.scriptFile(seg, operands, name, c)
		}
		return
	}
	rest := operands
	if len(ws.ArgSeparators) > 0 && !shellMode {
		w.argCommands(seg, rest, ws, name, c, quoted)
		return
	}
	if shellMode || ws.Joined && !(name == "watch" && watchExec(words)) {
		if len(rest) == 0 {
			return
		}
		if j := joinWords(rest); !j.Dynamic {
			posixAgrees(seg, j.Value, name) // watch and sudo -s may run sh
		}
		w.scriptWord(joinWords(rest), seg, name, c, false)
		if len(rest) > 1 && (quoted || shellMode) && needsQuoting(rest) {
			// the words kept as words: parallel -q quotes them, sudo -s
			// escapes them for the shell it runs
			w.scriptWord(Word{Value: quoteWords(rest), Dynamic: joinWords(rest).Dynamic}, seg, name, c, false)
		}
		return
	}
	if len(rest) == 0 {
		if len(ws.DefaultCommand) == 0 {
			if len(assigns) == 0 {
				seg.Wrapper = false
				seg.Transparent = false
			}
			return
		}
		for _, d := range ws.DefaultCommand {
			rest = append(rest, wordInfo{Word: Word{Value: d}, raw: d})
		}
	}
	if ws.DropsSeparator && !separated {
		// npm exec node -- -e CODE: npm takes the first "--" of all its
		// arguments for its own, and node is given -e CODE
		if k := slices.IndexFunc(rest, func(w wordInfo) bool { return !w.Dynamic && w.Value == "--" }); k > 0 {
			rest = append(slices.Clip(rest[:k]), rest[k+1:]...)
		}
	}
	innerWords := make([]wordInfo, 0, len(rest)+1)
	for _, wd := range rest {
		if !wd.Dynamic && len(placeholders) > 0 {
			for _, p := range placeholders {
				if p != "" && strings.Contains(wd.Value, p) {
					wd.Dynamic = true
				}
			}
		}
		innerWords = append(innerWords, wd)
	}
	if ws.AppendsInput && len(placeholders) == 0 {
		// with a placeholder (xargs -I {}), input replaces it instead.
		// Input the command spells out (echo '-c k=v status' | xargs
		// git) or wrote is its own: the words may be any option.
		innerWords = append(innerWords, wordInfo{Word: Word{Value: inputWord, Dynamic: true}, raw: inputWord,
			local: w.ownInput(words[:i], c, stdinLit)})
	}
	w.innerIn(seg, innerWords, name, c, stdinLit, assigns, ws.SameShell)
}

// ownInput reports whether the input a wrapper reads its arguments from
// (xargs, its -a FILE) is data this command spells out or wrote.
func (w *walker) ownInput(opts []wordInfo, c *ctx, stdinLit *string) bool {
	if stdinLit != nil || c.authored || w.overflow {
		return true
	}
	if slices.ContainsFunc(c.stdinFrom, w.wasWritten) {
		return true
	}
	if len(w.dashNames) > 0 || w.eqNames {
		// touch -- -x 'a=b' && find . | xargs make: names the command
		// made reach the input of a lister
		return true
	}
	for k, wd := range opts {
		v := wd.Value
		switch {
		case wd.Dynamic:
		case strings.HasPrefix(v, "--arg-file="):
			if w.wasWritten(strings.TrimPrefix(v, "--arg-file=")) {
				return true
			}
		case v == "--arg-file" || v == "-a":
			if k+1 < len(opts) && (opts[k+1].Dynamic || w.wasWritten(opts[k+1].Value)) {
				return true
			}
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "a"):
			// -0a FILE, -aFILE
			_, f, _ := strings.Cut(v, "a")
			if f == "" && k+1 < len(opts) {
				f = opts[k+1].Value
			}
			if w.wasWritten(f) {
				return true
			}
		}
	}
	return false
}

// gitCommitted reports whether segs include a git command that makes
// commits, moves refs or sets index entries (git rm --cached, commit,
// reset, branch, update-index): a tree a later command writes may be one
// the command made.
func gitCommitted(segs []*Segment) bool {
	for _, s := range segs {
		if s.Program == "git" && (len(s.Path) < 2 || gitCommitting[s.Path[1]]) {
			return true
		}
	}
	return false
}

var gitCommitting = toSet(strings.Fields(`commit commit-tree rm update-index hash-object mktree mktag read-tree reset branch
	update-ref symbolic-ref tag replace fast-import apply am notes merge cherry-pick rebase revert filter-branch filter-repo`))

// segmentsBefore returns the segments recorded before seg.
func (w *walker) segmentsBefore(seg *Segment) []*Segment {
	if k := slices.Index(w.prog.Segments, seg); k >= 0 {
		return w.prog.Segments[:k]
	}
	return w.prog.Segments
}

// gitIndexMade returns the subcommand of a git command run before seg in
// this command that puts entries of its choosing into the index or object
// store (GitSpec.IndexSubcommands), or one whose subcommand is not known.
func (w *walker) gitIndexMade(seg *Segment, gs *GitSpec) (string, bool) {
	for _, s := range w.segmentsBefore(seg) {
		if s.Program != "git" {
			continue
		}
		if len(s.Path) < 2 {
			return "with a subcommand only known at run time", true
		}
		if contains(gs.IndexSubcommands, s.Path[1]) {
			return s.Path[1], true
		}
	}
	return "", false
}

// subOptionValues returns the values of a long option in words: attached
// (--opt=V) or in the next word.
func subOptionValues(words []wordInfo, opt string) []Word {
	var vs []Word
	for k, wd := range words {
		if v, ok := strings.CutPrefix(wd.Value, opt+"="); ok {
			vs = append(vs, Word{Value: v, Dynamic: wd.Dynamic})
		} else if wd.Value == opt && k+1 < len(words) {
			vs = append(vs, words[k+1].Word)
		}
	}
	return vs
}

// gitEditorInput reports a git subcommand that may start an editor (see
// EditorSubcommands) and is given the command's input.
func (w *walker) gitEditorInput(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult) {
	gs := spec.Git
	k := subcommandAt(words, sc, spec, nil)
	if k < 0 || k >= len(sc.operands) {
		return
	}
	sub := words[sc.operands[k]]
	if sub.Dynamic {
		return // a subcommand not known statically is its own finding
	}
	when, ok := gs.EditorSubcommands[sub.Value]
	if !ok {
		return
	}
	// an option as the scan read it (clustered, abbreviated), or a word of
	// the subcommand's own (git notes add)
	after := words[sc.operands[k]+1:]
	given := func(o string) bool {
		if isOption(o) {
			return sc.hasOption(o) || longAbbreviated(after, o)
		}
		return slices.ContainsFunc(sc.operands[k+1:], func(i int) bool { return !words[i].Dynamic && words[i].Value == o })
	}
	msg := "git " + sub.Value + " may start an editor (vi by default), which reads the keys typed from this command's input"
	// -e / --edit open the editor whatever else is given (commit -m x -e,
	// -em x); so do commit --fixup=amend:X and reword:X, and pull's
	// interactive rebase (--rebase=interactive, pull.rebase=interactive)
	for _, wd := range after {
		v := strings.ToLower(wd.Value)
		switch {
		case wd.Dynamic:
		case (slices.Contains(when, "-e") || sub.Value == "commit") && (v == "-e" || len(v) > 2 && v[1] != '-' && strings.ContainsRune(v[1:], 'e') && shortCluster(v)),
			(slices.Contains(when, "--edit") || sub.Value == "commit") && longAbbreviated([]wordInfo{wd}, "--edit"),
			sub.Value == "commit" && (strings.HasPrefix(v, "--fixup=amend:") || strings.HasPrefix(v, "--fixup=reword:") || strings.HasPrefix(v, "amend:") || strings.HasPrefix(v, "reword:")),
			sub.Value == "pull" && strings.HasPrefix(v, "--reb") && strings.Contains(v, "=i"),
			strings.Contains(v, "pull.rebase=i") && sub.Value == "pull":
			seg.addFinding(FindInlineCode, msg)
			return
		}
	}
	for _, wd := range words[:sc.operands[k]] {
		if !wd.Dynamic && sub.Value == "pull" && strings.Contains(strings.ToLower(wd.Value), "pull.rebase=i") {
			seg.addFinding(FindInlineCode, msg)
			return
		}
	}
	needed, any := false, false
	for _, o := range when {
		if neg, ok := strings.CutPrefix(o, "!"); ok {
			if given(neg) {
				return
			}
			continue
		}
		needed = true
		any = any || given(o)
	}
	if needed && !any {
		return
	}
	seg.addFinding(FindInlineCode, msg)
}

// longAbbreviated reports whether words give the long option o or an
// abbreviation of it git accepts (--ed for --edit, --inter for
// --interactive): at least two letters after the dashes.
func longAbbreviated(words []wordInfo, o string) bool {
	if !strings.HasPrefix(o, "--") {
		return false
	}
	for _, wd := range words {
		if wd.Dynamic || !strings.HasPrefix(wd.Value, "--") {
			continue
		}
		name, _, _ := strings.Cut(wd.Value, "=")
		if len(name) >= 4 && strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
}

// shortCluster reports whether v is a cluster of one-letter options (-em):
// letters only after the dash.
func shortCluster(v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for _, c := range v[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// fileWord stands for the file name a program gives an editor command at
// run time: a path known only then, not an option.
const fileWord = ` ./"$@"`

// withFileWord returns the command line an editor variable or key (see
// EditorCommands) holds with the file name it is given at run time; any
// other command line as it is.
func (c *Catalogue) withFileWord(name, cmd string) string {
	if matchAny(c.EditorCommands, name) {
		return cmd + fileWord
	}
	return cmd
}

// gitWord finds git named as a command word in a shell alias's text.
var gitWord = regexp.MustCompile(`(^|[^A-Za-z0-9_.-])git($|[^A-Za-z0-9_.-])`)

// wordValues returns the words' values.
func wordValues(ws []wordInfo) []string {
	vs := make([]string, len(ws))
	for i, w := range ws {
		vs[i] = w.Value
	}
	return vs
}

// watchExec reports whether watch is given -x (--exec): it then runs its
// operands as a command, not joined into a shell's script.
func watchExec(words []wordInfo) bool {
	for _, wd := range words[1:] {
		v := wd.Value
		if wd.Dynamic || !isOption(v) || v == "--" {
			return wd.Dynamic // a dynamic word may be -x
		}
		if strings.HasPrefix(v, "--") {
			if len(v) > 3 && strings.HasPrefix("--exec", v) {
				return true
			}
			continue
		}
		for _, l := range v[1:] {
			if l == 'x' {
				return true
			}
			if strings.ContainsRune("nqsd", l) {
				break // the rest is a value
			}
		}
	}
	return false
}

// chdirCtx returns c, or a copy of it in the directories chdirs name in
// turn (cmake -E chdir DIR CMD, env -C DIR CMD, parallel --wd DIR: CMD's
// relative paths resolve in DIR). parallel's --wd ... is a directory it
// makes at run time.
func chdirCtx(c *ctx, chdirs []Word) *ctx {
	if len(chdirs) == 0 {
		return c
	}
	in := c.copy()
	in.cwd = c.cwd.clone()
	for _, d := range chdirs {
		in.cwd.changes++
		if d.Dynamic || d.Value == "" || d.Value == "..." {
			in.cwd.unknown = true
			continue
		}
		in.cwd.dirs = append(in.cwd.dirs, d.Value)
	}
	return in
}

// findStartOptions are find's options before its paths (find -L DIR).
var findStartOptions = []string{"-H", "-L", "-P", "-D", "-O"}

// literalPrefix is the text a dynamic word's value starts with before its
// first expansion, quote or pattern character.
func literalPrefix(v string) string {
	if i := strings.IndexAny(v, "$`\\'\"*?[{~"); i >= 0 {
		return v[:i]
	}
	return v
}

// mayStartWith reports whether a dynamic word may expand to text that starts
// with prefix: not when it starts with other literal text or is a process
// substitution (a /dev/fd path).
func mayStartWith(wd wordInfo, prefix string) bool {
	raw := strings.TrimLeft(wd.raw, `"`)
	if raw == inputWord {
		return true // words read at run time (xargs)
	}
	if strings.HasPrefix(raw, "<(") || strings.HasPrefix(raw, ">(") {
		return false
	}
	if raw == "" || strings.ContainsRune("$`\\'*?[{~", rune(raw[0])) {
		return true
	}
	return strings.HasPrefix(raw, prefix)
}

// joinWords joins words with spaces into the text of a script, dynamic when
// any of them is.
func joinWords(words []wordInfo) Word {
	parts := make([]string, len(words))
	dynamic := false
	for i, wd := range words {
		parts[i] = wd.Value
		dynamic = dynamic || wd.Dynamic
	}
	return Word{Value: strings.Join(parts, " "), Dynamic: dynamic}
}

// inputWord stands for the words a wrapper appends from its input (xargs).
const inputWord = "<input>"

// maxArgCommands bounds the commands read from parallel's ::: arguments.
const maxArgCommands = 32

// newBranchHere reports git checkout -b NAME and git switch -c NAME with
// no start point: a new branch at HEAD, the work tree as it is.
func newBranchHere(sub string, rest []wordInfo) bool {
	if sub != "checkout" && sub != "switch" {
		return false
	}
	create, names := false, 0
	for k := 0; k < len(rest); k++ {
		wd := rest[k]
		switch {
		case wd.Dynamic:
			return false
		case wd.Value == "-b" || wd.Value == "-B" || wd.Value == "-c" || wd.Value == "-C" || wd.Value == "--create" || wd.Value == "--force-create":
			create = true
		case wd.Value == "-q" || wd.Value == "--quiet" || wd.Value == "--no-track" || wd.Value == "--track":
		case strings.HasPrefix(wd.Value, "-"):
			return false
		default:
			names++
		}
	}
	return create && names == 1
}

// splitString reads env -S STRING as env does: STRING's words, split by
// env's own rules (envSplit), take the place of the option in argv, and
// env reads that argv again: more options, assignments, then the command
// with the operands that followed the option (env -S 'git\_push' origin
// runs git push origin).
func (w *walker) splitString(seg *Segment, words []wordInfo, spec *ProgramSpec, v Word, start, end int, flags, name string, c *ctx, stdinLit *string) {
	if w.splits >= maxDepth {
		seg.addFinding(FindNestingTooDeep, name+" -S strings nest more than "+itoa(maxDepth)+" levels deep")
		return
	}
	if v.Dynamic {
		seg.addFinding(FindDynamicScript, "the string split by "+name+" -S is not known statically: "+v.Value)
		return
	}
	parts, ok := envSplit(v.Value)
	if !ok {
		seg.addFinding(FindDynamicScript, name+" -S is given a string whose splitting gate does not model (an environment variable, an escape env rejects): "+clip(v.Value))
		return
	}
	argv := append([]wordInfo{}, words[:start]...)
	if flags != "" {
		argv = append(argv, wordInfo{Word: Word{Value: flags}, raw: flags})
	}
	for _, p := range parts {
		argv = append(argv, wordInfo{Word: Word{Value: p}, raw: p, quoted: true})
	}
	w.splits++
	w.wrapper(seg, append(argv, words[end:]...), spec, c, stdinLit)
}

// clusterBefore returns the flags clustered before a short option in its
// word ("-iS" gives "-i"), or "".
func clusterBefore(word, opt string) string {
	if len(opt) != 2 || strings.HasPrefix(word, "--") {
		return ""
	}
	if k := strings.IndexByte(word, opt[1]); k > 1 {
		return word[:k]
	}
	return ""
}

// envSplit splits an env -S string as GNU env does: blanks separate words
// outside quotes; '...' is literal but for \\ and \'; "..." and unquoted
// text take the escapes \\ \" \' \# \$ \_ (a blank: a separator unquoted)
// \t \n \v \f \r, and unquoted \c ends the string; # at the start of a
// word starts a comment to the end. It reports false for what it does not
// model or env rejects (${VAR}, whose value comes from the environment;
// other escapes; an unterminated quote).
func envSplit(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	const (
		unquoted = iota
		single
		double
	)
	q := unquoted
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch q {
		case single:
			switch {
			case ch == '\'':
				q = unquoted
			case ch == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
				i++
				cur.WriteByte(s[i])
			default:
				cur.WriteByte(ch)
			}
			continue
		case double:
			if ch == '"' {
				q = unquoted
				continue
			}
		default:
			switch ch {
			case ' ', '\t', '\n', '\v', '\f', '\r':
				flush()
				continue
			case '#':
				if !inWord {
					return words, true
				}
			case '\'':
				q, inWord = single, true
				continue
			case '"':
				q, inWord = double, true
				continue
			}
		}
		switch ch {
		case '$':
			return nil, false
		case '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			switch e := s[i]; e {
			case 'c':
				if q == double {
					return nil, false
				}
				flush()
				return words, true
			case '_':
				if q == unquoted {
					flush()
					continue
				}
				cur.WriteByte(' ')
			case 't':
				cur.WriteByte('\t')
			case 'n':
				cur.WriteByte('\n')
			case 'v':
				cur.WriteByte('\v')
			case 'f':
				cur.WriteByte('\f')
			case 'r':
				cur.WriteByte('\r')
			case '\\', '"', '\'', '#', '$':
				cur.WriteByte(e)
			default:
				return nil, false
			}
		default:
			cur.WriteByte(ch)
		}
		inWord = true
	}
	if q != unquoted {
		return nil, false
	}
	flush()
	return words, true
}

// argCommands reads the commands of a wrapper that takes its arguments
// after separators (parallel CMD ::: A B runs CMD A and CMD B; parallel :::
// "CMD A" runs CMD A; with no command, parallel reads commands from stdin).
func (w *walker) argCommands(seg *Segment, rest []wordInfo, ws *WrapperSpec, name string, c *ctx, quoted bool) {
	cut := len(rest)
	for k, wd := range rest {
		if !wd.Dynamic && contains(ws.ArgSeparators, wd.Value) {
			cut = k
			break
		}
	}
	cmd := rest[:cut]
	var args []Word
	fromFiles := false
	for _, wd := range rest[cut:] {
		if !wd.Dynamic && contains(ws.ArgSeparators, wd.Value) {
			fromFiles = strings.HasPrefix(wd.Value, "::::")
			continue
		}
		if fromFiles {
			args = append(args, Word{Value: "<lines of " + wd.Value + ">", Dynamic: true})
			continue
		}
		args = append(args, wd.Word)
	}
	if len(cmd) == 0 && len(args) == 0 {
		seg.addFinding(FindStdinScript, name+" without a command runs the commands it reads from its input")
		return
	}
	if len(args) > maxArgCommands {
		seg.addFinding(FindDynamicScript, name+" is given more than "+strconv.Itoa(maxArgCommands)+" arguments, each of which completes the command it runs")
		return
	}
	joined := joinWords(cmd)
	base, dynamic := joined.Value, joined.Dynamic
	var literal []Word
	runtime := len(args) == 0
	for _, a := range args {
		if a.Dynamic {
			runtime = true
		} else {
			literal = append(literal, a)
		}
	}
	if len(cmd) == 0 {
		for _, a := range args {
			w.scriptWord(a, seg, name, c, false)
		}
		return
	}
	// The command's words are joined as text, or kept as words (-q,
	// --quote); each argument goes in as text or quoted as one word
	// (parallel quotes what it substitutes): every reading is checked.
	bases := []string{base}
	if len(cmd) > 1 && quoted && needsQuoting(cmd) {
		bases = append(bases, quoteWords(cmd))
	}
	for _, b := range bases {
		for _, a := range literal {
			vs := []string{a.Value}
			if needsQuoting([]wordInfo{{Word: a}}) {
				vs = append(vs, shellQuote(a.Value))
			}
			for _, v := range vs {
				text := b + " " + v
				if replacementStrings.MatchString(b) {
					text = strings.ReplaceAll(b, "{}", v)
				}
				w.scriptWord(Word{Value: replacementStrings.ReplaceAllLiteralString(text, parallelInput), Dynamic: dynamic}, seg, name, c, false)
			}
		}
		if runtime {
			// Arguments read from stdin or -a FILE at run time complete the
			// command: they replace its replacement strings, or are appended.
			text := b + " " + parallelInput
			if replacementStrings.MatchString(b) {
				text = replacementStrings.ReplaceAllLiteralString(b, parallelInput)
			}
			w.scriptWord(Word{Value: text, Dynamic: dynamic}, seg, name, c, false)
		}
	}
}

// plainTyped reports whether text reads the same typed into an interactive
// shell as read from a file: no control characters readline acts on (tab
// completes, C-t transposes), no history expansion (!, ^), and none of the
// builtins that change how lines are read (bind, histchars, history, fc).
func plainTyped(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 && c != '\n' || c == 0x7f || c == '!' || c == '^' || c >= 0x80 {
			return false
		}
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) {
		switch f {
		case "bind", "histchars", "history", "fc", "shopt", "set", "HISTFILE", "INPUTRC", "enable":
			return false
		}
	}
	return true
}

// needsQuoting reports whether a word of words reads differently as shell
// text than as a word: it holds blanks, quotes or shell syntax.
func needsQuoting(words []wordInfo) bool {
	return slices.ContainsFunc(words, func(wd wordInfo) bool {
		return !wd.Dynamic && strings.ContainsAny(wd.Value, " \t\n'\"\\$`;&|<>(){}[]*?!~#=%^")
	})
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replacementStrings matches parallel's replacement strings ({}, {.}, {/},
// {#}, {= perl =}), and parallelInput stands for the text that replaces
// them at run time: an unquoted expansion, any number of words.
var replacementStrings = regexp.MustCompile(`\{[^{}]*\}`)

const parallelInput = "$__gate_parallel_input__"

// shell unwraps bash -c SCRIPT, bash FILE and bash reading a script from
// stdin.
func (w *walker) shell(seg *Segment, words []wordInfo, spec *ProgramSpec, c *ctx, stdinLit *string) {
	ss := spec.Shell
	name := seg.Program
	cmdOpt, stdinOpt := false, false
	interactive, login, noRc := false, false, false
	var rcFile *Word
	i := 1
	for i < len(words) {
		wd := words[i]
		if wd.Dynamic {
			seg.Wrapper = true
			seg.addFinding(FindDynamicScript, name+" is given a dynamic argument "+wd.Value+" that may be its script")
			return
		}
		v := wd.Value
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') {
			// Values of options come after the option word (-o pipefail,
			// -O extglob, --rcfile f); an option given last has none,
			// which the shell refuses, and then there are no operands.
			values := 0
			if strings.HasPrefix(v, "--") {
				name, val, eq := strings.Cut(v, "=")
				switch {
				case contains(ss.RcOptions, name) && eq:
					rcFile = &Word{Value: val}
				case contains(ss.RcOptions, name) && i+1 < len(words):
					rcFile = &words[i+1].Word
				case contains(ss.NoRcOptions, name):
					noRc = true
				case name == "--login":
					login = true
				}
				if spec.takesValue(v) {
					values++
				}
			} else {
				for _, l := range v[1:] {
					letter := string(l)
					switch {
					case v[0] == '-' && letter == "i":
						interactive = true
					case v[0] == '-' && letter == "l":
						login = true
					}
					switch {
					case letter == ss.CommandOption:
						cmdOpt = true
					case ss.StdinOption != "" && letter == ss.StdinOption:
						stdinOpt = true
					case spec.takesValue("-" + letter):
						if k := i + 1 + values; k < len(words) {
							w.shellOptionValue(seg, name, v[:1]+letter, words[k])
						}
						values++
					case !strings.Contains(shellInvocationLetters, letter) && !strings.ContainsRune(w.p.cat.ShellOptions.SetLetters, l),
						v[0] == '+' && letter == "B":
						// bash -k, -h...: the set options gate does not
						// model, as set -k is checked
						seg.addFinding(FindRebindsCommands, name+" "+v[:1]+letter+" changes how the shell reads commands in a way gate does not model")
					}
				}
			}
			i = min(i+1+values, len(words))
			continue
		}
		break
	}
	operands := words[i:]
	seg.Wrapper = true
	seg.Transparent = true
	// bash --rcfile F -ic CMD sources F first, -l the login files
	for _, f := range ss.EnvFiles {
		w.programFile(seg, Word{Value: f}, name, c)
	}
	if interactive && !noRc {
		if rcFile != nil {
			w.programFile(seg, *rcFile, name+" --rcfile", c)
		} else {
			for _, f := range ss.RcFiles {
				w.programFile(seg, Word{Value: f}, name+" (interactive)", c)
			}
		}
	}
	if login {
		for _, f := range ss.LoginFiles {
			w.programFile(seg, Word{Value: f}, name+" (login)", c)
		}
	}
	if ss.Language != "" && (cmdOpt && len(operands) > 0 || !cmdOpt && len(operands) > 0 && !stdinOpt ||
		(stdinOpt || len(operands) == 0) && (stdinLit != nil || c.stdin)) {
		// zsh -c 'zmodload zsh/files; zf_rm x', zsh -c '=rm x': what
		// the script runs as bash read it is still shown and decided
		seg.addFinding(FindUnsupportedShell, name+" runs a script written in "+ss.Language+", a language gate does not read")
	}
	switch {
	case cmdOpt:
		if len(operands) == 0 {
			return
		}
		if posixShells[name] && !operands[0].Dynamic {
			posixAgrees(seg, operands[0].Value, name+" -c")
		}
		w.scriptWord(operands[0].Word, seg, name+" -c", c, false)
	case stdinOpt || len(operands) == 0:
		switch {
		case stdinLit != nil && interactive && !plainTyped(*stdinLit):
			// bash -i <<< TEXT: an interactive shell puts its input
			// through readline (keys that edit the line, bind) and
			// history expansion (!:1-2) before it reads a command
			seg.addFinding(FindStdinScript, name+" -i reads its input as typed lines, edited by readline and history expansion, which gate does not model")
		case stdinLit != nil:
			if posixShells[name] {
				posixAgrees(seg, *stdinLit, name+" reading stdin")
			}
			w.script(*stdinLit, seg, name+" reading stdin", c, false)
		case c.stdin:
			seg.addFinding(FindStdinScript, name+" reads its script from standard input, which is not known statically")
		default:
			seg.Wrapper = false
		}
	default:
		w.scriptFile(seg, operands, name, c)
	}
}

// posixShells read scripts with the POSIX grammar, not bash's (sh is dash
// on Debian); git runs ! aliases with sh too.
var posixShells = map[string]bool{"sh": true, "dash": true, "ash": true, "posh": true}

// posixParsers parse scripts with mvdan's POSIX grammar.
var posixParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangPOSIX)) }}

// posixAgrees reports an sh script that the POSIX grammar reads otherwise
// than bash's, whose reading gate walks: dash runs "ls &>f rm x" as "ls &"
// and ">f rm x", has no $'...' quoting, and keeps single quotes inside
// "${x-'...'}" as text, where bash reads quotes.
func posixAgrees(seg *Segment, text, via string) {
	if len(text) > maxPOSIXCheck {
		seg.addFinding(FindUnsupportedShell, "the script run by "+via+" is too long to check against the sh grammar")
		return
	}
	bp := parsers.Get().(*syntax.Parser)
	bf, berr := bp.Parse(strings.NewReader(text), "")
	parsers.Put(bp)
	if berr != nil {
		return // the bash reading reports it
	}
	pp := posixParsers.Get().(*syntax.Parser)
	pf, perr := pp.Parse(strings.NewReader(text), "")
	posixParsers.Put(pp)
	if perr != nil {
		seg.addFinding(FindUnsupportedShell, "the script run by "+via+" is not sh (POSIX) syntax, which it is run as: "+perr.Error())
		return
	}
	var a, b strings.Builder
	pr := syntax.NewPrinter()
	if pr.Print(&a, bf) != nil || pr.Print(&b, pf) != nil || a.String() != b.String() {
		seg.addFinding(FindUnsupportedShell, "the script run by "+via+" reads differently as sh (POSIX) and as bash")
		return
	}
	quoted := false
	syntax.Walk(pf, func(n syntax.Node) bool {
		dq, ok := n.(*syntax.DblQuoted)
		if !ok || quoted {
			return !quoted
		}
		for _, part := range dq.Parts {
			pe, ok := part.(*syntax.ParamExp)
			if !ok || pe.Exp == nil || pe.Exp.Word == nil {
				continue
			}
			for _, wp := range pe.Exp.Word.Parts {
				if _, ok := wp.(*syntax.SglQuoted); ok {
					quoted = true
				}
			}
		}
		return !quoted
	})
	if quoted {
		seg.addFinding(FindUnsupportedShell, "the script run by "+via+" has single quotes inside \"${x-...}\": quotes for bash, text for sh")
	}
	// sh (dash) does not expand braces: {a,b} is a name there, where bash
	// reads two words
	braces := false
	syntax.Walk(bf, func(n syntax.Node) bool {
		if word, ok := n.(*syntax.Word); ok && syntax.SplitBraces(word) {
			for _, part := range word.Parts {
				if be, ok := part.(*syntax.BraceExp); ok && (be.Sequence || len(be.Elems) > 1) {
					braces = true
				}
			}
		}
		return !braces
	})
	if braces {
		seg.addFinding(FindUnsupportedShell, "the script run by "+via+" has a brace expansion, which sh does not make: {a,b} is one name for it")
	}
}

// maxPOSIXCheck bounds the scripts posixAgrees parses again.
const maxPOSIXCheck = 64 << 10

// shellInvocationLetters are a shell's options that are not set options:
// -c, -s, -i, -l, -r, -D, and -o/-O, whose values shellOptionValue checks.
const shellInvocationLetters = "cilrsDoO"

// shellOptionValue checks the value of a shell's -o NAME or -O NAME (and
// +o, +O) as set -o and shopt -s would be checked.
func (w *walker) shellOptionValue(seg *Segment, name, opt string, wd wordInfo) {
	inert := w.p.cat.ShellOptions
	switch opt[1:] {
	case "o":
		if wd.Dynamic || !contains(inert.SetNames, wd.Value) || opt[0] == '+' && wd.Value == "braceexpand" {
			seg.addFinding(FindRebindsCommands, name+" "+opt+" "+wd.Value+" changes how the shell reads commands in a way gate does not model")
		}
	case "O":
		if wd.Dynamic || !contains(inert.Shopt, wd.Value) {
			seg.addFinding(FindRebindsCommands, name+" "+opt+" "+wd.Value+" changes how the shell reads commands in a way gate does not model")
		}
	}
}

// onlyReads reports whether the words after index at give one of the
// options of reads and no other option, none of them only known at run
// time: a code module's mode that only reads (zipfile -l).
func onlyReads(words []wordInfo, at int, reads []string) bool {
	if at < 0 || len(reads) == 0 {
		return false
	}
	given := false
	for _, wd := range words[at+1:] {
		switch {
		case wd.Dynamic:
			return false
		case contains(reads, wd.Value):
			given = true
		case strings.HasPrefix(wd.Value, "-"):
			return false
		}
	}
	return given
}

// inlineCode reports interpreters given code as text, read from stdin, or
// read from a file the command itself provides.
func (w *walker) inlineCode(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult, c *ctx, stdinLit *string) {
	ic := spec.InlineCode
	var code []Word
	for _, o := range ic.Options {
		code = append(code, sc.values[o]...)
		if sc.hasOption(o) && len(sc.values[o]) == 0 {
			code = append(code, Word{Value: "", Dynamic: true})
		}
	}
	fileGiven := false
	for _, o := range ic.FileOptions {
		fileGiven = fileGiven || (sc.hasOption(o) && !contains(ic.LibraryOptions, o))
		for _, v := range sc.values[o] {
			if contains(ic.ModuleOptions, o) && !v.Dynamic {
				seg.RunsModule = true
				w.moduleFile(seg, v.Value, seg.Program+" "+o)
				if values, ok := ic.CompileModules[v.Value]; ok {
					w.compileModule(seg, words, o, v.Value, values)
					continue
				}
				ws := ic.ModuleWrites[v.Value]
				if ws != nil {
					w.moduleWrites(seg, words, o, v.Value, ws)
				}
				if (contains(ic.CodeModules, v.Value) || contains(ic.CodeModules, strings.SplitN(v.Value, ".", 2)[0])) &&
					!onlyReads(words, moduleAt(words, o, v.Value), ic.CodeModuleReads[v.Value]) {
					seg.addFinding(FindInlineCode, seg.Program+" "+o+" "+v.Value+" runs code given in its arguments or standard input")
				} else if ws == nil {
					w.moduleProgram(seg, words, ic, o, v.Value, c, stdinLit)
				}
				continue
			}
			w.programFile(seg, v, seg.Program+" "+o, c)
			for _, suf := range ic.FileSuffixes {
				if !v.Dynamic && !strings.HasSuffix(v.Value, suf) {
					w.programFile(seg, Word{Value: v.Value + suf}, seg.Program+" "+o, c)
				}
			}
		}
	}
	idx := ic.OperandIndex
	if ic.Operand && !fileGiven && len(code) == 0 && len(sc.operands) > idx {
		code = append(code, words[sc.operands[idx]].Word)
		if ic.OperandsFrom {
			for _, i := range sc.operands[idx+1:] {
				code = append(code, words[i].Word)
			}
		}
	}
	if ic.OperandPrefix != "" {
		for _, i := range sc.operands {
			if v := words[i]; (v.Dynamic && mayStartWith(v, ic.OperandPrefix)) || (!v.Dynamic && strings.HasPrefix(v.Value, ic.OperandPrefix)) {
				code = append(code, Word{Value: strings.TrimPrefix(v.Value, ic.OperandPrefix), Dynamic: v.Dynamic})
			}
		}
	}
	readsStdin := len(sc.operands) <= idx || (!words[sc.operands[idx]].Dynamic && words[sc.operands[idx]].Value == "-")
	stdinCommands := false
	textOperand := ic.StdinTextOperand != "" && slices.ContainsFunc(sc.operands, func(i int) bool { return !words[i].Dynamic && words[i].Value == ic.StdinTextOperand })
	for _, o := range ic.StdinCommands {
		stdinCommands = stdinCommands || (o == "*" && !textOperand) || (o != "*" && sc.hasOption(o))
	}
	if stdinCommands || (ic.Stdin && len(code) == 0 && !fileGiven && readsStdin) {
		switch {
		case stdinLit != nil:
			code = append(code, Word{Value: *stdinLit})
		case c.stdin:
			code = append(code, Word{Value: "<stdin>", Dynamic: true})
		}
	}
	// An interpreter that takes no code operand runs its first operand as
	// a program file (python3 x.py, node /dev/stdin, perl x.pl; perl -d
	// too, which reads debugger commands besides).
	if ic.Stdin && !ic.Operand && !contains(ic.StdinCommands, "*") && len(code) == 0 && !fileGiven && len(sc.operands) > 0 {
		w.programFile(seg, words[sc.operands[0]].Word, seg.Program, c)
	}
	if ic.FileOperand && len(code) == 0 && !fileGiven && len(sc.operands) > 0 {
		k := 0
		if v := words[sc.operands[0]]; !v.Dynamic && contains(ic.FileSubcommands, v.Value) {
			k = 1
		}
		if k < len(sc.operands) {
			w.programFile(seg, words[sc.operands[k]].Word, seg.Program, c)
		}
	}
	re := w.p.cat.inlineRe[seg.Program]
	for _, v := range code {
		if !v.Dynamic && ic.Prover == "python" {
			if r := pythonCheck(v.Value); r.inert {
				seg.ImportsCode = seg.ImportsCode || r.imports
				seg.ProvenCode = true
				seg.Reads = append(seg.Reads, r.reads...)
				continue
			}
		}
		if !v.Dynamic && ic.Prover == "sed" {
			writes, ok := sedRead(v.Value)
			if !ok {
				seg.addFinding(FindInlineCode, seg.Program+" runs a script that gate cannot prove runs no command: "+clip(v.Value))
			}
			for _, f := range writes {
				// w FILE, s///w FILE: the path rules decide (/dev/stdout
				// is sed's own standard output)
				seg.Writes = append(seg.Writes, Word{Value: f})
			}
			continue
		}
		switch {
		case v.Dynamic:
			seg.addFinding(FindInlineCode, seg.Program+" runs code that is not known statically")
		case re == nil:
			seg.addFinding(FindInlineCode, seg.Program+" runs inline code, which gate cannot check: "+clip(v.Value))
		case re.MatchString(stripStrings(v.Value, ic.StripStrings)) || re.MatchString(stripStrings(strings.ReplaceAll(v.Value, "\\\n", ""), ic.StripStrings)):
			// (awk and others join a line ending in a backslash with the
			// next: system\<newline>("cmd"))
			seg.addFinding(FindInlineCode, seg.Program+" runs inline code that can run commands: "+clip(v.Value))
		}
	}
}

// stripStrings blanks the double-quoted strings of code ("a|b" gives ""),
// when strip is set and the code holds no '/' or '#' and every string ends
// on its line; otherwise it returns code as it is.
func stripStrings(code string, strip bool) string {
	if !strip || strings.ContainsAny(code, "/#") {
		return code
	}
	var b strings.Builder
	for i := 0; i < len(code); i++ {
		if code[i] != '"' {
			b.WriteByte(code[i])
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != '"' {
			if code[j] == '\\' {
				j++
			}
			if j < len(code) && code[j] == '\n' {
				return code
			}
			j++
		}
		if j >= len(code) {
			return code
		}
		b.WriteString(`""`)
		i = j
	}
	return b.String()
}

// stdinPaths are files that name the process's own input: a program read
// from one is whatever the command feeds it.
var stdinPaths = []string{"/dev/stdin", "/dev/fd/*", "/proc/self/fd/*", "/proc/*/fd/*", "/dev/tty", "-"}

// programFile checks a file of code a program runs: read from stdin or a
// process substitution, not known statically, or written earlier in the
// same command, its content is not the file on disk gate could trust.
func (w *walker) programFile(seg *Segment, v Word, via string, c *ctx) {
	switch {
	case v.Dynamic:
		seg.addFinding(FindInlineCode, via+" runs a program file that is not known statically: "+v.Value)
	case matchAny(stdinPaths, ProcRoot(path.Clean(v.Value))) || v.Value == "-":
		seg.addFinding(FindInlineCode, via+" runs a program read from "+v.Value+", which is not known statically")
	case w.wasWritten(v.Value):
		if ic := w.p.cat.program(seg.Program).InlineCode; ic != nil && ic.Prover == "python" && via == seg.Program {
			if content, ok := w.knownContent(seg, v.Value); ok {
				if r := pythonCheck(content); r.inert {
					seg.ContentKnown, seg.ProvenCode = true, true
					seg.ImportsCode = seg.ImportsCode || r.imports
					seg.Reads = append(seg.Reads, r.reads...)
					return
				}
			}
		}
		seg.addFinding(FindInlineCode, via+" runs "+v.Value+", which this command writes first")
	default:
		w.scriptLoads(seg, seg.Program, v.Value)
	}
}

// scriptLoads reports an existing script that interp runs after the
// command wrote a file the script may load (catalogue script_loads).
func (w *walker) scriptLoads(seg *Segment, interp, script string) {
	for _, f := range seg.Findings {
		if f.Code == FindScriptFile || f.Code == FindInlineCode {
			return // already unprovable for its code
		}
	}
	endings, ok := w.p.cat.ScriptLoads[interp]
	if !ok {
		endings = w.p.cat.ScriptLoads[w.p.cat.versioned(interp)]
	}
	if f, ok := w.writtenEnding(endings); ok {
		seg.addFinding(FindScriptFile, interp+" runs "+script+", which may load "+f+", a file this command writes first")
	}
}

// moduleFile reports a module run by name (python3 -m pkg.mod) whose files
// the same command writes first.
func (w *walker) moduleFile(seg *Segment, module, via string) {
	top, _, _ := strings.Cut(module, ".")
	rel := strings.ReplaceAll(module, ".", "/")
	for _, f := range []string{top + ".py", top + "/__init__.py", rel + ".py", rel + "/__main__.py", rel + "/__init__.py"} {
		if w.wasWritten(f) {
			seg.addFinding(FindInlineCode, via+" runs the module "+module+", which this command writes first ("+f+")")
			return
		}
	}
	// A module that finds and runs the project's code (-m pytest, -m
	// unittest, -m pip) as the program of its name does.
	endings := w.p.cat.ProjectRunners[top]
	if spec := w.p.cat.program(top); spec != nil {
		endings = append(append([]string{}, endings...), spec.ConfigFiles...)
	}
	if f, ok := w.writtenEnding(endings); ok {
		seg.addFinding(FindScriptFile, via+" "+module+" finds and runs code such as "+f+", which this command writes first")
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// execActions unwraps find -exec CMD ; and its relatives.
func (w *walker) execActions(seg *Segment, words []wordInfo, spec *ProgramSpec, c *ctx) {
	expr := false // find's expression has started (after its paths)
	for i := 1; i < len(words); i++ {
		if words[i].Dynamic {
			// -exec$IFS, -exec${IFS}rm, -exe?, or $a in the expression: a
			// word that becomes an action only when bash expands it (not
			// an option's value: -mtime -$n)
			prev := ""
			if i > 1 && !words[i-1].Dynamic {
				prev = words[i-1].Value
			}
			isValue := spec.takesValue(prev) || strings.HasPrefix(prev, "-newer")
			lit := literalPrefix(words[i].Value)
			if expr && lit == "" && !isValue && !words[i].quoted {
				seg.addFinding(FindDynamicScript, seg.Program+" is given "+clip(words[i].Value)+", which may expand to an action and a command it runs")
				continue
			}
			if strings.HasPrefix(lit, "-") && !isValue {
				for _, action := range slices.Sorted(maps.Keys(spec.ExecActions)) {
					if strings.HasPrefix(action, lit) || strings.HasPrefix(lit, action) {
						seg.addFinding(FindDynamicScript, seg.Program+" is given "+clip(words[i].Value)+", which may expand to "+action+" and a command it runs")
						break
					}
				}
			}
			continue
		}
		if v := words[i].Value; (strings.HasPrefix(v, "-") || v == "(" || v == "!") && !contains(findStartOptions, v) {
			expr = true
		}
		terms, ok := spec.ExecActions[words[i].Value]
		if !ok {
			continue
		}
		action := words[i].Value
		var cmd []wordInfo
		j := i + 1
		for ; j < len(words); j++ {
			if !words[j].Dynamic && contains(terms, words[j].Value) {
				break
			}
			wd := words[j]
			if !wd.Dynamic && strings.Contains(wd.Value, "{}") {
				wd.Dynamic = true
			}
			cmd = append(cmd, wd)
		}
		if len(cmd) > 0 {
			ac := c
			if strings.HasSuffix(action, "dir") {
				// -execdir runs its command in the directory of each file
				// (find . -name HEAD -execdir touch hooks/x \; writes .git/hooks/x)
				ac = c.elsewhere()
			}
			w.inner(seg, cmd, seg.Program+" "+action, ac, nil, nil)
		}
		i = j
	}
}

// git unwraps commands that git runs because of its configuration: -c
// KEY=VALUE with command keys, aliases, and subcommands that run scripts.
// gitPlanted are file names through which git runs code: a repository's
// config and hooks, and a .git file naming another repository.
var gitPlanted = map[string]bool{
	"config": true, "config.worktree": true, ".git": true, ".gitconfig": true,
	"applypatch-msg": true, "pre-applypatch": true, "post-applypatch": true, "pre-commit": true,
	"pre-merge-commit": true, "prepare-commit-msg": true, "commit-msg": true, "post-commit": true,
	"pre-rebase": true, "post-checkout": true, "post-merge": true, "pre-push": true,
	"pre-receive": true, "update": true, "proc-receive": true, "post-receive": true,
	"post-update": true, "reference-transaction": true, "push-to-checkout": true, "pre-auto-gc": true,
	"post-rewrite": true, "sendemail-validate": true, "fsmonitor-watchman": true, "p4-changelist": true,
	"p4-prepare-changelist": true, "p4-post-changelist": true, "p4-pre-submit": true, "post-index-change": true,
}

// inGitDir reports whether a path given to git is .git or inside it (or not
// known statically).
func inGitDir(v Word) bool {
	if v.Dynamic {
		return strings.Contains(v.Value, ".git")
	}
	p := path.Clean(strings.TrimPrefix(v.Value, "./"))
	return p == ".git" || strings.HasPrefix(p, ".git/") || strings.HasSuffix(p, "/.git") || strings.Contains(p, "/.git/")
}

func (w *walker) git(seg *Segment, words []wordInfo, spec *ProgramSpec, sc *scanResult, c *ctx) {
	gs := spec.Git
	aliases := map[string]Word{}
	var cdirs []Word   // git -C DIR, in order
	var gitDir *Word   // git --git-dir DIR
	var workTree *Word // git --work-tree DIR
	i := 1
	for i < len(words) {
		wd := words[i]
		if lit := optionPrefix(wd.Value); wd.Dynamic && (lit == "" || strings.HasPrefix(lit, "-") || wd.Value == inputWord) {
			// git $X status, git -c"$X" log: -c KEY=VALUE may make git
			// run a command
			seg.addFinding(FindGitConfigCode, "git is given "+clip(wd.Value)+" where it reads its options, only known at run time: it may be -c KEY=VALUE, which makes git run a command")
			break
		}
		if wd.Dynamic || !isOption(wd.Value) {
			break
		}
		names, val, attached := optionNames(wd.Value, spec)
		last := names[len(names)-1]
		value := Word{Value: val}
		if !attached && spec.takesValue(last) && i+1 < len(words) {
			i++
			value = words[i].Word
			attached = true
		}
		i++
		if last == "-C" && attached {
			cdirs = append(cdirs, value)
		}
		if last == "--git-dir" && attached {
			gitDir = &Word{Value: value.Value, Dynamic: value.Dynamic}
		}
		if last == "--work-tree" && attached {
			workTree = &Word{Value: value.Value, Dynamic: value.Dynamic}
		}
		switch {
		case last == "--exec-path" && attached:
			seg.addFinding(FindGitConfigCode, "git --exec-path=DIR runs its subcommands from DIR")
		case (last == "-C" || last == "--work-tree") && attached && inGitDir(value):
			seg.addFinding(FindGitConfigCode, "git "+last+" "+value.Value+" works inside .git, where what it writes lands in hooks and config")
		}
		if !attached || !contains(gs.ConfigOptions, last) {
			if last == "--config-env" {
				seg.addFinding(FindGitConfigCode, "git --config-env takes configuration from the environment")
			}
			continue
		}
		if value.Dynamic {
			seg.addFinding(FindGitConfigCode, "git "+last+" is given configuration that is not known statically: "+value.Value)
			continue
		}
		key, v, _ := strings.Cut(value.Value, "=")
		w.gitConfig(seg, strings.ToLower(key), Word{Value: v}, aliases, c)
	}
	if i >= len(words) {
		return
	}
	// A repository configuration or hook this command wrote (in a bare
	// repository it made, a --git-dir, a gitdir file) is what git runs.
	if f, ok := w.writtenName(gitPlanted); ok {
		seg.addFinding(FindGitConfigCode, "git may read configuration or run hooks from "+f+", which this command writes first")
	}
	sub := words[i]
	if sub.Dynamic {
		return // the subcommand is unknown: Path is cut there
	}
	if longs, ok := gs.SubcommandOptions[sub.Value]; ok {
		words = w.gitLongOptions(seg, words, i+1, longs)
	}
	for k := i + 1; k < len(words); k++ {
		// --prefix=.git/ (checkout-index, archive, read-tree) puts what
		// git writes inside .git.
		wd := words[k]
		if v, ok := strings.CutPrefix(wd.Value, "--prefix="); ok && inGitDir(Word{Value: v, Dynamic: wd.Dynamic}) {
			seg.addFinding(FindGitConfigCode, "git "+sub.Value+" "+wd.Value+" writes inside .git, where hooks and config live")
		} else if wd.Value == "--prefix" && k+1 < len(words) && inGitDir(words[k+1].Word) {
			seg.addFinding(FindGitConfigCode, "git "+sub.Value+" --prefix "+words[k+1].Value+" writes inside .git, where hooks and config live")
		}
	}
	if (sub.Value == "remote-ext" || sub.Value == "remote-fd") && len(words) > i+2 {
		// git remote-ext REMOTE CMD runs CMD as its transport.
		w.scriptWord(words[i+2].Word, seg, "git "+sub.Value, c, false)
	}
	// ext::CMD ARGS is a remote whose transport is a local command (git
	// runs it where protocol.ext.allow lets it): % escapes a space.
	for _, wd := range words[i+1:] {
		if cmd, ok := strings.CutPrefix(wd.Value, "ext::"); ok && !wd.Dynamic {
			cmd = strings.NewReplacer("% ", " ", "%%", "%", "%s", "git-upload-pack", "%S", "git-upload-pack", "%G", "").Replace(cmd)
			w.scriptWord(Word{Value: cmd}, seg, "git "+sub.Value+" ext::", c, false)
		}
	}
	alias, ok := aliases[strings.ToLower(sub.Value)]
	if !ok {
		// not an alias of -c: maybe a misspelling git corrects
		gitAutocorrect(seg, gs)
	}
	if ok {
		seg.Wrapper = true
		seg.Transparent = true
		switch {
		case alias.Dynamic:
			seg.addFinding(FindGitConfigCode, "git alias "+sub.Value+" is not known statically")
		case strings.HasPrefix(alias.Value, "!"):
			// git runs sh -c 'ALIAS "$@"' ALIAS ARGS: the words after the
			// alias's name are arguments of its last command (!env: env
			// rm x)
			text := alias.Value[1:]
			for _, wd := range words[i+1:] {
				if wd.Dynamic {
					text += " " + wd.raw
				} else {
					text += " '" + strings.ReplaceAll(wd.Value, "'", `'\''`) + "'"
				}
			}
			posixAgrees(seg, text, "git alias "+sub.Value) // git runs it with sh
			if len(aliases) > 1 && gitWord.MatchString(alias.Value[1:]) {
				// git -c alias.x='!git y' -c alias.y='!cmd' x: git hands
				// its -c configuration down (GIT_CONFIG_PARAMETERS), so
				// the git the alias runs has the other aliases too
				seg.addFinding(FindGitConfigCode, "git alias "+sub.Value+" runs git, which gets this command's other -c aliases: what they run is not followed")
			}
			w.script(text, seg, "git alias "+sub.Value, c, false)
		default:
			aliasWords := w.splitWords(alias.Value, seg)
			if aliasWords == nil {
				return
			}
			inner := append([]wordInfo{words[0]}, words[1:i]...)
			inner = append(inner, aliasWords...)
			inner = append(inner, words[i+1:]...)
			w.inner(seg, inner, "git alias "+sub.Value, c, nil, nil)
		}
		return
	}
	rest := words[i+1:]
	if elsewhere := len(cdirs) > 0 || gitDir != nil || seg.ChdirUnknown || len(seg.Chdir) > 0; elsewhere && !contains(gs.ReadOnlySubcommands, sub.Value) && !contains(gs.NewRepositorySubcommands, sub.Value) {
		// git -C ../remote.git branch evil: the repository it changes is
		// written, wherever it is.
		repo := Word{Value: "."}
		if gitDir != nil {
			repo = *gitDir
		}
		repo = inDirs(repo, cdirs)
		own := !repo.Dynamic && len(seg.Chdir) == 0 && !seg.ChdirUnknown && (path.Clean(repo.Value) == "." || path.Clean(repo.Value) == ".git")
		if !own { // the root's own repository is git's to write
			seg.Writes = append(seg.Writes, repo)
		}
	}
	if workTree != nil && !contains(gs.ReadOnlySubcommands, sub.Value) {
		// git --work-tree=.. reset --hard, stash -u, checkout: the
		// subcommand writes (or deletes) files in that tree.
		if wt := inDirs(*workTree, cdirs); wt.Dynamic || path.Clean(wt.Value) != "." {
			seg.Writes = append(seg.Writes, wt)
		}
	}
	if ws, ok := gs.SubcommandWrites[sub.Value]; ok {
		w.gitWrites(seg, sub, rest, ws, cdirs)
	}
	if contains(gs.LinkSubcommands, sub.Value) && !newBranchHere(sub.Value, rest) {
		// git checkout x && cp h x/pre-commit: x may now be a link
		seg.Relinks = true
	}
	if contains(gs.LinkSubcommands, sub.Value) && !contains(gs.NewRepositorySubcommands, sub.Value) && !newBranchHere(sub.Value, rest) {
		if gitCommitted(w.segmentsBefore(seg)) || slices.ContainsFunc(rest, func(wd wordInfo) bool { return wd.Dynamic && strings.Contains(wd.raw, "git") }) {
			// (a commit made by a substitution: switch "$(git commit-tree …)")
			seg.addFinding(FindGitOwnTree, "git "+sub.Value+" writes the work tree from commits or index entries git commands earlier in this command made, which may lack files it then deletes")
		}
		if f, ok := w.gitIndexMade(seg, gs); ok {
			// git update-index --add --cacheinfo 100644,H,.qwen/settings.json
			// && git checkout .: the file lands in the work tree
			seg.addFinding(FindGitConfigCode, "git "+sub.Value+" writes the work tree from what git "+f+" put in the index or object store earlier in this command: the files it writes are not known statically")
		}
	}
	if sub.Value == "checkout-index" {
		// --prefix=.gi makes .gi + t/hooks/x: the prefix is joined to each
		// path as text, a directory only when it ends with /
		for _, v := range subOptionValues(rest, "--prefix") {
			if v.Dynamic || !strings.HasSuffix(v.Value, "/") {
				seg.addFinding(FindGitConfigCode, "git checkout-index --prefix="+clip(v.Value)+" writes files named by the prefix joined to each path in the index, which are not known statically")
			}
		}
	}
	if sub.Value == "push" || sub.Value == "send-pack" {
		// a refspec +SRC:DST, --force-with-lease and --mirror force the
		// update as --force does: the push is read with -f too
		force := false
		for _, wd := range rest {
			force = force || (!wd.Dynamic && len(wd.Value) > 1 && wd.Value[0] == '+')
		}
		for _, o := range seg.Options {
			force = force || o == "--force-with-lease" || o == "--mirror"
		}
		if force && !contains(seg.Options, "-f") {
			seg.Options = append(seg.Options, "-f")
		}
	}
	if sub.Value == "apply" || sub.Value == "am" {
		// git apply writes the files the patch names, as patch does
		reportOnly := false
		for _, wd := range rest {
			switch wd.Value {
			case "--check", "--stat", "--numstat", "--summary":
				reportOnly = true
			case "--apply":
				reportOnly = false
			}
		}
		if !reportOnly {
			w.extracts(seg, words, c, scan(words, nil))
		}
	}
	if opts := append(append([]string{}, gs.SubcommandConfig[sub.Value]...), gs.SubcommandCode[sub.Value]...); len(opts) > 0 {
		subScan := scan(append([]wordInfo{sub}, rest...), &ProgramSpec{OptionsWithValue: opts})
		for _, o := range gs.SubcommandConfig[sub.Value] {
			for _, v := range subScan.values[o] {
				if v.Dynamic {
					seg.addFinding(FindGitConfigCode, "git "+sub.Value+" "+o+" is given configuration that is not known statically: "+v.Value)
					continue
				}
				key, val, _ := strings.Cut(v.Value, "=")
				w.gitConfig(seg, strings.ToLower(key), Word{Value: val}, aliases, c)
				if len(gs.InertKeys) == 0 || !matchAcross(gs.InertKeys, strings.ToLower(key)) {
					// git clone -c alias.x='!cmd' . c keeps the key in
					// the new repository's config: git there runs it
					// later (git -C c x), as after a config this command
					// wrote.
					w.noteWritten("config")
				}
			}
		}
		for _, o := range gs.SubcommandCode[sub.Value] {
			if subScan.hasOption(o) {
				seg.addFinding(FindGitConfigCode, "git "+sub.Value+" "+o+" makes git run code it loads from elsewhere")
			}
		}
	}
	if scripts, ok := gs.SubcommandScripts[sub.Value]; ok {
		subScan := scan(append([]wordInfo{sub}, rest...), &ProgramSpec{OptionsWithValue: scripts})
		for _, o := range scripts {
			for _, v := range subScan.values[o] {
				if n := gs.SubcommandScriptArgs[sub.Value+" "+o]; n > 0 && !v.Dynamic {
					// git grep -Ogit -- push runs git push: the words git
					// appends are only known at run time
					v.Value += strings.Repeat(` "$(exit)"`, min(n, 8))
				}
				w.scriptWord(v, seg, "git "+sub.Value+" "+o, c, false)
			}
		}
	}
	for _, form := range gs.SubcommandCommands {
		fw := strings.Fields(form)
		if len(fw) == 0 || fw[0] != sub.Value {
			continue
		}
		// git submodule --quiet foreach --recursive CMD: the forms' own
		// options (flags all) may come before and after each word.
		k := 0
		skipOptions := func() {
			for k < len(rest) && !rest[k].Dynamic && isOption(rest[k].Value) {
				k++
				if rest[k-1].Value == "--" {
					return
				}
			}
		}
		match, dynamic := true, false
		for _, f := range fw[1:] {
			skipOptions()
			if !match || k >= len(rest) || rest[k].Dynamic || rest[k].Value != f {
				dynamic = dynamic || (match && k < len(rest) && rest[k].Dynamic)
				match = false
			}
			k++
		}
		if dynamic {
			seg.addFinding(FindDynamicScript, "git "+sub.Value+" is given a word not known statically where "+form+" may read a command to run")
		}
		if !match {
			continue
		}
		skipOptions()
		if k >= len(rest) {
			continue
		}
		w.scriptWord(joinWords(rest[k:]), seg, "git "+form, c, false)
		if len(rest[k:]) > 1 && (form == "bisect run" || form == "submodule foreach") && needsQuoting(rest[k:]) {
			// bisect run and foreach with more than one word run them as
			// words, not as text
			w.scriptWord(Word{Value: quoteWords(rest[k:]), Dynamic: joinWords(rest[k:]).Dynamic}, seg, "git "+form, c, false)
		}
	}
	if contains(gs.GitSubcommands, sub.Value) {
		k := 0
		for k < len(rest) && !rest[k].Dynamic && isOption(rest[k].Value) {
			k++
			if rest[k-1].Value == "--" {
				break
			}
			if rest[k-1].Value == "--config" {
				k++ // --config KEY
			}
		}
		if k < len(rest) {
			argv := append([]wordInfo{{Word: Word{Value: "git"}, raw: "git"}}, rest[k:]...)
			w.inner(seg, argv, "git "+sub.Value, c, nil, nil)
		}
	}
	if sub.Value == "clone" {
		// git clone -c KEY=VALUE writes KEY into the new repository's
		// configuration, which later git commands there run
		for k := 0; k < len(rest); k++ {
			wd := rest[k]
			var kv Word
			switch {
			case !wd.Dynamic && (wd.Value == "-c" || wd.Value == "--config") && k+1 < len(rest):
				k++
				kv = rest[k].Word
			case !wd.Dynamic && strings.HasPrefix(wd.Value, "--config="):
				kv = Word{Value: strings.TrimPrefix(wd.Value, "--config=")}
			case !wd.Dynamic && strings.HasPrefix(wd.Value, "-c") && len(wd.Value) > 2:
				kv = Word{Value: wd.Value[2:]}
			default:
				continue
			}
			key, _, _ := strings.Cut(strings.ToLower(kv.Value), "=")
			if kv.Dynamic || strings.HasPrefix(key, gs.AliasPrefix) || matchAcross(gs.CommandKeys, key) || matchAcross(gs.CodeKeys, key) || matchAcross(gs.BangCommandKeys, key) ||
				len(gs.InertKeys) > 0 && !matchAcross(gs.InertKeys, key) {
				seg.addFinding(FindGitConfigPlants, "git clone -c "+clip(kv.Value)+" sets configuration in the new repository that makes git run code later")
			}
		}
	}
	if gs.ConfigSubcommand != "" && sub.Value == gs.ConfigSubcommand {
		if f, ok := gitConfigFile(rest); ok {
			seg.Writes = append(seg.Writes, inDirs(f, cdirs)) // git config -f .gitmodules KEY VALUE
		}
		if slices.ContainsFunc(rest, func(wd wordInfo) bool {
			return !wd.Dynamic && (wd.Value == "--rename-section" || wd.Value == "rename-section")
		}) {
			// git config x.st '!CMD' && git config --rename-section x
			// alias: the keys moved into the new section are not read
			seg.addFinding(FindGitConfigPlants, "git config --rename-section moves keys into another section, where they may make git run code later")
		}
		for k := 0; k < len(rest); k++ {
			wd := rest[k]
			if wd.Dynamic {
				seg.addFinding(FindGitConfigPlants, "git config is given a key that is not known statically: "+wd.Value)
				break
			}
			if contains(gitConfigValueOptions, wd.Value) {
				k++ // -f FILE: the file is no key
				continue
			}
			if isOption(wd.Value) || !strings.Contains(wd.Value, ".") {
				continue
			}
			key := strings.ToLower(wd.Value)
			bang := matchAcross(gs.BangCommandKeys, key) && k+1 < len(rest) &&
				(rest[k+1].Dynamic || strings.HasPrefix(strings.TrimLeft(rest[k+1].Value, " \t"), "!"))
			if (strings.HasPrefix(key, gs.AliasPrefix) || matchAcross(gs.CommandKeys, key) || matchAcross(gs.CodeKeys, key) || bang) && !gitConfigReads(rest, k) {
				seg.addFinding(FindGitConfigPlants, "git config sets "+wd.Value+", which makes git run code later")
			}
			break
		}
	}
}

// gitLongOptions returns words with the subcommand's option words from
// index k on spelled out: git accepts any unambiguous abbreviation of a long
// option (git config --fil F is --file F). The options they abbreviate join
// the segment's options.
func (w *walker) gitLongOptions(seg *Segment, words []wordInfo, k int, longs []string) []wordInfo {
	var out []wordInfo
	for j := k; j < len(words); j++ {
		wd := words[j]
		if wd.Value == "--" && !wd.Dynamic {
			break
		}
		name, val, eq := strings.Cut(wd.Value, "=")
		if !strings.HasPrefix(name, "--") || len(name) < 3 || (wd.Dynamic && !plainOptionName(name)) {
			continue
		}
		full := expandGitLong(name, longs)
		if full == name {
			continue
		}
		if out == nil {
			out = append([]wordInfo(nil), words...)
		}
		if eq {
			out[j].Value = full + "=" + val
		} else {
			out[j].Value = full
		}
		seg.Options = uniqueSorted(append(seg.Options, full))
	}
	if out == nil {
		return words
	}
	return out
}

// expandGitLong returns the long option (or its --no- form) that name
// abbreviates among longs: name itself when it is one, abbreviates none,
// or abbreviates several (git refuses it).
func expandGitLong(name string, longs []string) string {
	found := ""
	for _, l := range longs {
		for _, cand := range []string{l, "--no-" + strings.TrimPrefix(l, "--")} {
			switch {
			case cand == name:
				return name
			case strings.HasPrefix(cand, name) && cand != found:
				if found != "" {
					return name
				}
				found = cand
			}
		}
	}
	if found == "" {
		return name
	}
	return found
}

// gitWrites records the files a git subcommand writes (clone's
// directory, worktree add's path, format-patch -o), relative to the
// directories git -C moved to.
func (w *walker) gitWrites(seg *Segment, sub wordInfo, rest []wordInfo, ws *SubcommandWritesSpec, cdirs []Word) {
	words := append([]wordInfo{sub}, rest...)
	if ws.Verb != "" {
		if len(rest) == 0 || !rest[0].Dynamic && rest[0].Value != ws.Verb {
			return
		}
		words = rest // the verb stands where the subcommand stood
	}
	ps := &ProgramSpec{OptionsWithValue: ws.OptionsWithValue, Writes: &ws.WritesSpec}
	n := len(seg.Writes)
	w.writes(seg, words, ps, scan(words, ps))
	for j := n; j < len(seg.Writes); j++ {
		seg.Writes[j] = inDirs(seg.Writes[j], cdirs)
	}
}

// inDirs is a path relative to the directories git -C moved to.
func inDirs(wd Word, cdirs []Word) Word {
	for k := len(cdirs) - 1; k >= 0 && !path.IsAbs(wd.Value) && !strings.HasPrefix(wd.Value, "~"); k-- {
		wd.Value = path.Join(cdirs[k].Value, wd.Value)
		wd.Dynamic = wd.Dynamic || cdirs[k].Dynamic
	}
	return wd
}

// gitConfigFile returns the file git config -f FILE writes: none when the
// invocation only reads (--get, --list, a key alone, git config get).
func gitConfigFile(words []wordInfo) (Word, bool) {
	var file *Word
	var plain []string // words that are neither options nor their values
	read, write := false, false
	for k := 0; k < len(words); k++ {
		wd := words[k]
		v, isOpt := wd.Value, !wd.Dynamic && isOption(wd.Value)
		switch {
		case isOpt && (v == "-f" || v == "--file") && k+1 < len(words):
			k++
			file = &words[k].Word
		case isOpt && strings.HasPrefix(v, "--file="):
			file = &Word{Value: strings.TrimPrefix(v, "--file=")}
		case isOpt && contains(gitConfigValueOptions, v):
			k++
		case isOpt:
			read = read || contains(gitConfigOnlyReads, v)
			write = write || contains(gitConfigWrites, v)
		default:
			plain = append(plain, wd.Value)
		}
	}
	if file == nil {
		return Word{}, false
	}
	if len(plain) > 0 && (plain[0] == "get" || plain[0] == "list") {
		read = true
	}
	return *file, write || !read && len(plain) > 1
}

// gitConfigOnlyReads are git config options that make it only read;
// gitConfigWrites those that make it write without a value.
var (
	gitConfigOnlyReads = []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"}
	gitConfigWrites    = []string{"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit"}
)

// gitConfigValueOptions are git config options that take the next word as
// their value.
var gitConfigValueOptions = []string{"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"}

// gitConfigReadOptions are git config options with which a key and no
// value reads, lists or removes it.
var gitConfigReadOptions = []string{"--global", "--local", "--system", "--worktree", "--get", "--get-all", "--get-regexp",
	"--unset", "--unset-all", "-l", "--list", "--show-origin", "--show-scope", "--null", "-z", "--name-only", "--includes", "--no-includes"}

// gitConfigReads reports whether git config given words, whose key is at
// index k, only reads or removes the key: no word follows the key, and
// every option is a reading one (git config alias.st, git config --unset
// alias.st).
func gitConfigReads(words []wordInfo, k int) bool {
	if k != len(words)-1 {
		return false
	}
	for _, wd := range words[:k] {
		if wd.Dynamic || !contains(gitConfigReadOptions, wd.Value) {
			return false
		}
	}
	return true
}

// gitConfig applies one configuration pair given on the command line.
func (w *walker) gitConfig(seg *Segment, key string, value Word, aliases map[string]Word, c *ctx) {
	gs := w.p.cat.program(seg.Program).Git
	switch {
	case gs.AliasPrefix != "" && strings.HasPrefix(key, gs.AliasPrefix):
		aliases[strings.TrimPrefix(key, gs.AliasPrefix)] = value
	case matchAcross(gs.CommandKeys, key):
		// credential.helper=!CMD (and the like) runs CMD in a shell
		if !value.Dynamic {
			value.Value = strings.TrimPrefix(strings.TrimLeft(value.Value, " \t"), "!")
		}
		if value.Value != "" {
			if !value.Dynamic {
				value.Value = w.p.cat.withFileWord(strings.ToLower(key), value.Value)
			}
			w.scriptWord(value, seg, "git -c "+key, c, false)
		}
	case matchAcross(gs.BangCommandKeys, key):
		// submodule.x.update=!CMD runs CMD; rebase, merge... name a mode
		switch v := strings.TrimLeft(value.Value, " \t"); {
		case value.Dynamic:
			seg.addFinding(FindGitConfigCode, "git -c "+key+" is set to a value that is not known statically: it may be a command")
		case strings.HasPrefix(v, "!") && len(v) > 1:
			w.scriptWord(Word{Value: v[1:]}, seg, "git -c "+key, c, false)
		}
	case matchAcross(gs.CodeKeys, key):
		seg.addFinding(FindGitConfigCode, "git -c "+key+" makes git run code that cannot be checked")
	case len(gs.InertKeys) > 0 && !matchAcross(gs.InertKeys, strings.ToLower(key)):
		seg.addFinding(FindGitConfigCode, "git -c "+key+" is not known to be inert: it may make git run a program")
	}
}

// splitWords splits text into words as the shell would, for git aliases.
func (w *walker) splitWords(text string, owner *Segment) []wordInfo {
	file, src, err := parseBash(text)
	if err != nil || len(file.Stmts) != 1 {
		owner.addFinding(FindGitConfigCode, "git alias "+clip(text)+" cannot be read as one command")
		return nil
	}
	child := w.child(src)
	var out []wordInfo
	if ce, ok := file.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Assigns) == 0 && len(file.Stmts[0].Redirs) == 0 {
		for _, arg := range ce.Args {
			fs, _ := child.fields(arg)
			out = append(out, fs...)
		}
	}
	if len(out) == 0 {
		owner.addFinding(FindGitConfigCode, "git alias "+clip(text)+" cannot be read as one command")
		return nil
	}
	return out
}

// contentUse is a segment that ran a file whose content the command wrote
// (base is the file's base name).
type contentUse struct {
	owner *Segment
	base  string
}

// contentKey is the path a segment names p by: p after the directories the
// segment changed into, or "" when they are not known.
func contentKey(seg *Segment, p string) string {
	if seg.ChdirUnknown || p == "" {
		return ""
	}
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	dir := "."
	for _, d := range seg.Chdir {
		if path.IsAbs(d) {
			dir = d
		} else {
			dir = path.Join(dir, d)
		}
	}
	return path.Join(dir, p)
}

// recordContent remembers what cat writes from a literal here-document or
// here-string (cat <<'EOF' > x.sh) to one file, when it surely runs to
// completion before what follows it (not in the background, a pipeline or
// a substitution).
func (w *walker) recordContent(seg *Segment, words []wordInfo, stdinLit *string) {
	if seg.ProgramPath != "" || seg.FunctionCall || seg.Background || contextHas(seg.Context, "pipe", "cmdsubst", "procsubst", "coproc", "function") {
		return
	}
	var content string
	switch {
	case seg.Program == "cat" && stdinLit != nil && len(words) == 1:
		content = *stdinLit
	case seg.Program == "echo" && stdinLit == nil:
		c, ok := echoContent(words)
		if !ok {
			return
		}
		content = c
	default:
		return
	}
	target := ""
	for _, r := range seg.Redirects {
		if !r.Write || r.Dup {
			continue
		}
		if target != "" || r.Dynamic || r.Inherited || (r.Op != ">" && r.Op != ">|") || (r.FD != "" && r.FD != "1") {
			return
		}
		target = r.Target
	}
	if key := contentKey(seg, target); key != "" && len(w.contents) < maxWritten {
		w.contents[key] = content
	}
}

// echoContent returns what echo ARGS prints when every argument is
// literal, none is an option (-n, -e, -E) and none holds a backslash
// (which echo -e, or xpg_echo, reads as an escape).
func echoContent(words []wordInfo) (string, bool) {
	args := make([]string, 0, len(words))
	for i, wd := range words[1:] {
		if wd.Dynamic || strings.Contains(wd.Value, `\`) || i == 0 && strings.HasPrefix(wd.Value, "-") {
			return "", false
		}
		args = append(args, wd.Value)
	}
	return strings.Join(args, " ") + "\n", true
}

// knownContent returns the content the command wrote to the file p that
// owner runs, and records the use for finish.
func (w *walker) knownContent(owner *Segment, p string) (string, bool) {
	content, ok := w.contents[contentKey(owner, p)]
	if !ok {
		return "", false
	}
	w.contentUses = append(w.contentUses, contentUse{owner: owner, base: path.Base(path.Clean(p))})
	owner.ContentFile = p
	return content, true
}

// runContent reads a program file the command wrote from a here-document
// and runs (./x.sh) as what its first line says: a shell script (no #!
// line, or bash or sh) or a python3 program the prover checks.
func (w *walker) runContent(seg *Segment, p string, c *ctx) bool {
	content, ok := w.contents[contentKey(seg, p)]
	if !ok {
		return false
	}
	switch interpreterOf(content) {
	case "sh":
		w.knownContent(seg, p)
		seg.ContentKnown = true
		w.script(content, seg, p, c, false)
		return true
	case "python":
		r := pythonCheck(content)
		if !r.inert {
			return false
		}
		w.knownContent(seg, p)
		seg.ContentKnown, seg.ProvenCode = true, true
		seg.ImportsCode = seg.ImportsCode || r.imports
		seg.Reads = append(seg.Reads, r.reads...)
		return true
	}
	return false
}

// interpreterOf returns "sh" for a script without a #! line or whose #!
// line names bash or sh (directly or through env), "python" for python3
// or python, and "" otherwise.
func interpreterOf(content string) string {
	if !strings.HasPrefix(content, "#!") {
		return "sh"
	}
	line, _, _ := strings.Cut(content[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	name := path.Base(f[0])
	if name == "env" && len(f) == 2 {
		name = f[1]
	} else if name == "env" || len(f) > 1 && name != "bash" && name != "sh" {
		return ""
	}
	switch name {
	case "bash", "sh":
		return "sh"
	case "python3", "python":
		return "python"
	}
	return ""
}

func contextHas(context []string, names ...string) bool {
	for _, c := range context {
		for _, n := range names {
			if c == n {
				return true
			}
		}
	}
	return false
}

// hasDotDot reports whether the path p has a ".." element.
func hasDotDot(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "..")
}

// finish reports arithmetic and indirect expansions of tainted variables,
// scripts written more than once, and alias definitions something may read
// after.
// bashSetsFromData reports whether bash gives the variable name a value
// taken from the command's data, which no assignment in it shows: the
// positional parameters (a function's or bash -c's arguments, set --), $_
// (the last argument), BASH_REMATCH, OPTARG, REPLY, MAPFILE, the working
// directories, the directory stack and BASH_ARGV. Arithmetic on such a
// value may evaluate a subscript that runs commands.
func bashSetsFromData(name string) bool {
	if name == "" {
		return false
	}
	if name[0] >= '0' && name[0] <= '9' {
		return true
	}
	switch name {
	case "@", "*", "_", "BASH_REMATCH", "OPTARG", "REPLY", "MAPFILE", "PWD", "OLDPWD", "DIRSTACK", "BASH_ARGV", "BASH_ARGV0", "COMP_WORDS", "COMP_LINE", "READLINE_LINE",
		// the command's own text: a comment or a quoted word of it
		"BASH_EXECUTION_STRING", "BASH_COMMAND", "HISTFILE", "PS1", "PS2", "PS4":
		return true
	}
	return false
}

func (w *walker) finish() {
	// cd l/.. leaves l the way bash does only when no symlink is on the
	// way (the engine checks the disk); a command that may make one (ln,
	// mv, cp -a, an archive, git checkout: Relinks) makes the directory
	// after such a cd unknown
	relinks := false
	for _, s := range w.prog.Segments {
		relinks = relinks || s.Relinks || w.p.cat.Extractor(s.Program)
	}
	for _, s := range w.prog.Segments {
		if relinks && slices.ContainsFunc(s.Chdir, hasDotDot) {
			s.ChdirUnknown, s.Chdir = true, nil
		}
	}
	traps := false
	for _, s := range w.prog.Segments {
		traps = traps || s.Program == "trap" || strings.HasPrefix(s.Via, "trap")
	}
	for _, a := range w.aliases {
		last := a.ID == len(w.prog.Segments)-1
		if !last || traps || a.Background || contextHas(a.Context, "while", "until", "for", "function") {
			a.addFinding(FindRebindsCommands, "alias changes what a command name runs for the commands read after it")
		}
	}
	for _, u := range w.contentUses {
		if w.overflow || w.writeCount[u.base] != 1 {
			u.owner.addFinding(FindScriptFile, "runs "+u.base+", which this command writes more than once or in a way gate does not see")
		}
	}
	// A substitution taken for numbers prints data when its program's
	// name may run something else: a function of that name, an alias,
	// hash or enable, BASH_CMDS, a PATH the command changes, or a file
	// sourced, whose functions gate does not read.
	rebound := len(w.aliases) > 0
	for _, s := range w.prog.Segments {
		rebound = rebound || s.Program == "hash" || s.Program == "enable" || s.Program == "source" || s.Program == "."
		// a shell that sources start-up files first (bash --rcfile F -i)
		if spec := w.p.cat.program(s.Program); spec != nil && spec.Shell != nil {
			for _, o := range s.Options {
				rebound = rebound || o == "-i" || o == "-l" || o == "--login" || o == "--rcfile" || o == "--init-file" || o == "--interactive"
			}
		}
		for _, a := range s.Assigns {
			rebound = rebound || a.Name == "PATH" || strings.HasPrefix(a.Name, "BASH_CMDS") || strings.HasPrefix(a.Name, "BASH_ALIASES")
		}
	}
	for _, u := range w.numericUses {
		if !rebound && !w.declared[u.prog] {
			continue
		}
		if u.name != "" {
			w.tainted[u.name] = true
		} else {
			u.owner().addFinding(FindArithInjection, "arithmetic evaluates the output of "+u.prog+", a name this command may bind to something else")
		}
	}
	if slices.ContainsFunc(w.prog.Segments, func(s *Segment) bool { return s.Program == "source" || s.Program == "." }) {
		w.assocUnknown = true // a file sourced may declare or unset anything
	}
	for _, k := range w.keyLoops {
		// the keys of an associative array are any text: one declared
		// -A here, or by a name not known
		if w.assoc[k.array] || w.assocUnknown {
			w.tainted[k.name] = true
		}
	}
	// Taint flows from b to every a assigned a=b, and on from there.
	from := map[string][]string{}
	for a, bs := range w.names {
		for _, b := range bs {
			from[b] = append(from[b], a)
		}
	}
	for r, ys := range w.refs {
		for _, y := range ys {
			// assigning to r assigns to y, and reading r reads y
			from[r] = append(from[r], y)
			from[y] = append(from[y], r)
		}
	}
	var queue []string
	for name := range w.tainted {
		queue = append(queue, name)
	}
	for len(queue) > 0 {
		b := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, a := range from[b] {
			if !w.tainted[a] {
				w.tainted[a] = true
				queue = append(queue, a)
			}
		}
	}
	declared := w.assocDeclared()
	for _, u := range w.arith {
		if u.array != "" && w.surelyAssoc(u.array, u.at, declared) {
			continue // ${m[$k]}: the key of an associative array is text
		}
		if special := w.namesSpecial(u.name); special != "" {
			// x='PATH=0'; ((x)): the value is evaluated as arithmetic
			u.owner().addFinding(FindEnvCode, "arithmetic evaluates "+u.name+", whose value names "+special+", which changes what runs when assigned")
		}
		if !w.tainted[u.name] && !bashSetsFromData(u.name) {
			continue
		}
		msg := "arithmetic evaluates " + u.name + ", whose value is not known statically and may hold a subscript that runs commands"
		if u.code == FindIndirectExpand {
			msg = "${!" + u.name + "} expands a variable named by a value that is not known statically"
		}
		u.owner().addFinding(u.code, msg)
	}
	for _, t := range w.traps {
		// a trap's action runs in the directory the shell is in when it
		// fires: after a later cd, that is not known (trap 'touch x' EXIT;
		// cd ..)
		if w.dirChanges != t.dirChanges {
			for _, s := range w.prog.Segments {
				if s != t.seg && descends(w.prog.Segments, s, t.seg.ID) {
					s.ChdirUnknown, s.Chdir = true, nil
				}
			}
		}
	}
	for _, f := range w.funcBodies {
		// a function's body runs where it is called: after a later cd
		// anywhere (in a subshell, an eval, a spelling of cd no pattern
		// knows), that is not known
		if w.dirChanges != f.dirChanges {
			dirUnknown(w.prog.Segments[f.first:min(f.end, len(w.prog.Segments))])
		}
	}
	for _, s := range w.prog.Segments {
		s.MayBeFunction = s.Program != "" && (w.declared[s.Program] || len(w.declared) >= maxWritten)
	}
	// a trap's action runs after the writes that follow the trap: one that
	// runs files may run what they wrote (trap 'python3 x.py' EXIT)
	for _, t := range w.traps {
		if w.writeSeq <= t.seq && !w.overflow {
			continue
		}
		for _, s := range w.prog.Segments {
			_, function := w.funcRuns[s.Program]
			if s != t.seg && descends(w.prog.Segments, s, t.seg.ID) && (w.runsFiles(s) || function) {
				t.seg.addFinding(FindScriptFile, "the trap's action runs programs that may run code this command writes after the trap is set")
				break
			}
		}
	}
	// bash gives RANDOM, SRANDOM, OPTIND and HISTCMD the integer attribute
	// from the start: a value given to them in any way (assignment, read,
	// for, mapfile, printf -v, a nameref) is evaluated as arithmetic
	for _, name := range bashIntegerVars {
		if w.tainted[name] && len(w.prog.Segments) > 0 {
			w.prog.Segments[0].addFinding(FindArithInjection, "bash evaluates a value given to "+name+" as arithmetic, and this one is not known statically and may hold a subscript that runs commands")
		}
	}
}

// namesSpecial returns a variable with a meaning (PATH, HOME, ...) that
// the values assigned to name name, directly or through other variables,
// or "".
func (w *walker) namesSpecial(name string) string {
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 && len(seen) < maxWritten {
		n := queue[0]
		queue = queue[1:]
		for _, m := range w.names[n] {
			if seen[m] {
				continue
			}
			if w.meaningful(m) {
				return m
			}
			seen[m] = true
			queue = append(queue, m)
		}
	}
	return ""
}

// descends reports whether s was unwrapped, directly or not, from the
// segment id.
func descends(segs []*Segment, s *Segment, id int) bool {
	for depth := 0; s != nil && s.Parent >= 0 && depth <= len(segs); depth++ {
		if s.Parent == id {
			return true
		}
		if s.Parent >= len(segs) {
			return false
		}
		s = segs[s.Parent]
	}
	return false
}

// bashIntegerVars are bash's own variables with the integer attribute
// whose assignment evaluates the value (SECONDS and BASHPID do not).
var bashIntegerVars = []string{"RANDOM", "SRANDOM", "OPTIND", "HISTCMD"}
