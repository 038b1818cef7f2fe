package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/shellparse"
)

// Tool names.
const (
	ToolShell         = "run_shell_command"
	ToolReadFile      = "read_file"
	ToolWriteFile     = "write_file"
	ToolEdit          = "edit"
	ToolGlob          = "glob"
	ToolGrep          = "grep_search"
	ToolListDirectory = "list_directory"
)

// Tools lists gate's tools.
var Tools = []string{ToolShell, ToolListDirectory, ToolReadFile, ToolWriteFile, ToolGlob, ToolGrep, ToolEdit}

// KnownTool reports whether name is one of Tools.
func KnownTool(name string) bool {
	for _, t := range Tools {
		if t == name {
			return true
		}
	}
	return false
}

// Call is one tool call: the tool's name and its arguments as JSON values.
type Call struct {
	ID   string         `json:"id,omitempty"`
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// Session marks a shell call that starts an interactive session (a
	// pseudo-terminal a client or user types into), set by gate, never
	// read from a request.
	Session bool `json:"-"`
}

// Input is the document the policies decide on (input in Rego).
type Input struct {
	// Tool and Args are the call as given.
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	// Root is the workspace root (symlinks resolved); Cwd is where a shell
	// command runs (the directory argument, resolved).
	Root string `json:"root"`
	Cwd  string `json:"cwd"`
	Home string `json:"home,omitempty"`
	// Shell is set for run_shell_command.
	Shell *ShellInput `json:"shell,omitempty"`
	// Paths are the paths the call reads or writes.
	Paths []PathInput `json:"paths"`
	// Change is what a write_file or edit call would do: the diff, the
	// sizes before and after, whether the file is new.
	Change *fstools.Change `json:"change,omitempty"`
	// ChangeError is why an edit cannot be made (no match, several
	// matches, ...); the call then changes nothing.
	ChangeError *fstools.ToolError `json:"change_error,omitempty"`
	// Layers are the enforcement layers active when the call runs
	// (Options.Layers): "static" always; "exec" when every program a
	// command starts is decided at exec time.
	Layers []string `json:"layers"`
	// Session is set when the call starts an interactive session (a
	// pseudo-terminal someone types into) rather than running a command.
	Session bool `json:"session,omitempty"`
	// SettingsKey names the settings the decision is made with, in
	// data.gate.settings_by_key (set by Evaluate).
	SettingsKey string `json:"settings_key,omitempty"`
	// conf is what the repository's configuration names, read once for
	// the decision (see gitconfigured.go)
	conf   *configured
	nested map[string]configured // the same, for repositories below the root
}

// ShellInput is the parsed command.
type ShellInput struct {
	Command    string                 `json:"command"`
	ParseError *shellparse.ParseError `json:"parse_error,omitempty"`
	// TooComplex is set when the command is over the parser's limits; it
	// is then denied unread, without evaluating the policies.
	TooComplex *shellparse.LimitError `json:"too_complex,omitempty"`
	Segments   []SegmentInput         `json:"segments"`
}

// SegmentInput is a segment with the lookup keys policies use.
type SegmentInput struct {
	*shellparse.Segment
	// Keys are the word-boundary prefixes of argv, up to the first dynamic
	// word, that allowlist entries (tools.core, tools.allowed) match.
	Keys []string `json:"keys"`
	// PathKeys are the prefixes of Path (and AltPaths) that exclude entries
	// match.
	PathKeys []string `json:"path_keys"`
	// UncertainKeys are the known parts of paths cut short by a dynamic word:
	// an exclude entry they are a proper prefix of may match at run time.
	UncertainKeys []string `json:"uncertain_keys"`
	// MaybeKeys are the prefixes of MaybeRuns (the commands a program the
	// catalogue does not describe may run from its arguments) that exclude
	// entries match.
	MaybeKeys []string `json:"maybe_keys,omitempty"`
	// Identity is the program the command word really runs, when a path
	// names a link to or copy of another program.
	Identity string `json:"identity,omitempty"`
}

// PathInput is a path a call touches.
type PathInput struct {
	fstools.PathInfo
	// Access is "read" or "write".
	Access string `json:"access"`
	// Source says where the path came from: "redirect", "argument" (a
	// program's argument, per the catalogue), "removed" (a file the
	// program takes away from its name: mv's sources, gzip's input; access
	// "write"), or the tool's parameter name.
	Source string `json:"source"`
	// Dynamic is set when the path is only known at run time.
	Dynamic bool `json:"dynamic"`
	// Segment is the shell segment the path belongs to.
	Segment *int `json:"segment,omitempty"`
	// Replaces is set when the program puts a new file under the name, or
	// changes its mode or owner, instead of writing into the file it leads
	// to (mv, install, sed -i, chmod: Segment.Replaces): the devices of
	// data.gate.paths.writable are written in place only.
	Replaces bool `json:"replaces,omitempty"`
	// Temp is set when Resolved is below the temporary directory (not the
	// directory itself), which the fs layer lets commands write.
	Temp bool `json:"temp,omitempty"`
	// Keys are the lookup keys of data.gate.paths (see policies/gate/paths).
	Keys []string `json:"keys"`
}

func invalid(format string, args ...any) error {
	return errorf(CodeInvalidCall, fmt.Sprintf(format, args...), nil)
}

// stringArg returns a string argument; required ones must be present.
func stringArg(args map[string]any, name string, required bool) (string, bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		if required {
			return "", false, invalid("missing required parameter %q", name)
		}
		return "", false, nil
	}
	s, isString := v.(string)
	if !isString {
		return "", false, invalid("parameter %q must be a string", name)
	}
	return s, true, nil
}

// Input builds the policy input for a call. It fails with CodeInvalidCall
// when the call is malformed. Parsing a command is bounded by the
// evaluation timeout.
func (e *Engine) Input(call Call) (*Input, error) {
	ctx, cancel := context.WithTimeout(context.Background(), e.timeout)
	defer cancel()
	return e.InputContext(ctx, call)
}

// InputContext is Input within ctx: a command whose parse is still running
// when ctx ends gets an input with Shell.TooComplex set.
func (e *Engine) InputContext(ctx context.Context, call Call) (*Input, error) {
	if call.Tool == "" {
		return nil, invalid("missing tool name")
	}
	args, err := CanonicalArgs(call.Tool, call.Args)
	if err != nil {
		return nil, err
	}
	if args == nil {
		args = map[string]any{}
	}
	in := &Input{Tool: call.Tool, Args: args, Root: e.resolver.Root(), Cwd: e.resolver.Root(), Home: e.home, Paths: []PathInput{}, Layers: e.layers, Session: call.Session}
	switch call.Tool {
	case ToolShell:
		return in, e.shellInput(ctx, in, args)
	case ToolReadFile:
		p, err := firstString(args, "path", "absolute_path", "file_path")
		if err != nil {
			return nil, err
		}
		in.addPath(e, "", p, "read", "path")
	case ToolWriteFile, ToolEdit:
		p, _, err := stringArg(args, "file_path", true)
		if err != nil {
			return nil, err
		}
		required := []string{"content"}
		if call.Tool == ToolEdit {
			required = []string{"old_string", "new_string"}
		}
		for _, name := range required {
			if _, _, err := stringArg(args, name, true); err != nil {
				return nil, err
			}
		}
		pi := in.addPath(e, "", p, "write", "file_path")
		if pi.InsideRoot {
			if err := e.prepareChange(in, call.Tool, args); err != nil {
				return nil, err
			}
		}
	case ToolListDirectory:
		p, _, err := stringArg(args, "path", true)
		if err != nil {
			return nil, err
		}
		in.addPath(e, "", p, "read", "path")
	case ToolGlob, ToolGrep:
		pat, _, err := stringArg(args, "pattern", true)
		if err != nil {
			return nil, err
		}
		p, ok, err := stringArg(args, "path", false)
		if err != nil {
			return nil, err
		}
		if !ok || p == "" {
			p = "."
		}
		in.addPath(e, "", p, "read", "path")
		if call.Tool == ToolGrep {
			e.grepSecrets(in, in.Paths[0].PathInfo)
		}
		if call.Tool == ToolGlob {
			for _, base := range globBases(pat) {
				in.addPath(e, in.Paths[0].Resolved, base, "read", "pattern")
			}
			// o?t/* where out is a link to a directory elsewhere: the
			// glob lists what the link leads to
			for _, l := range globLinks(in.Paths[0].Resolved, pat) {
				in.addPath(e, in.Paths[0].Resolved, l, "read", "pattern")
			}
		}
	}
	return in, nil
}

// prepareChange computes the change a write or edit would make.
func (e *Engine) prepareChange(in *Input, tool string, args map[string]any) error {
	c, err := e.fs.Prepare(tool, args)
	var te *fstools.ToolError
	var ae *fstools.ArgError
	switch {
	case err == nil:
		in.Change = c
	case errors.As(err, &te):
		in.ChangeError = te
	case errors.As(err, &ae):
		return invalid("%s", ae.Message)
	default:
		return errorf(CodeInternal, "preparing the change", err)
	}
	return nil
}

func firstString(args map[string]any, names ...string) (string, error) {
	for _, n := range names {
		if s, ok, err := stringArg(args, n, false); err != nil {
			return "", err
		} else if ok {
			return s, nil
		}
	}
	return "", invalid("missing required parameter %q", names[0])
}

// maxGlobAlternatives bounds the patterns a glob's braces are read as; a
// pattern with more is read as reaching the whole file system.
const maxGlobAlternatives = 256

// globBases is globBase of each pattern the glob pattern's braces expand
// to, as an agent's own glob library expands them (node's glob, as bash
// does): {../../x,src}/* reaches ../../x, {/etc,src}/* /etc. A bracket
// expression that matches dots only ([.][.]) is read as the dots.
func globBases(pat string) []string {
	alts, ok := braceAlternatives(pat)
	if !ok {
		return []string{string(filepath.Separator)}
	}
	var bases []string
	for _, a := range alts {
		if b := globBase(dotBrackets(a)); b != "" && !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	return bases
}

// maxGlobLinkEntries bounds the directory entries globLinks reads.
const maxGlobLinkEntries = 4096

// globLinks returns the symbolic links among the directories the
// directory part of a glob pattern matches under base, level by level
// (a level with a pattern matches the entries it names; one with an
// extended pattern, an escape or ** any entry): the glob reads through
// them. Past maxGlobLinkEntries it returns base's root, which is read as
// leaving it.
func globLinks(base, pat string) []string {
	var links []string
	read := 0
	alts, ok := braceAlternatives(pat)
	if !ok {
		return []string{string(filepath.Separator)} // read as leaving the root, as globBases does
	}
	for _, alt := range alts {
		segs := strings.Split(filepath.ToSlash(dotBrackets(alt)), "/")
		dirs := []string{base}
		if path.IsAbs(filepath.ToSlash(alt)) {
			dirs = []string{string(filepath.Separator)}
		}
		for _, seg := range segs[:len(segs)-1] {
			if seg == "" {
				continue
			}
			if !strings.ContainsAny(seg, "*?[\\(") {
				for i := range dirs {
					dirs[i] = filepath.Join(dirs[i], seg)
				}
				continue
			}
			var next []string
			for _, d := range dirs {
				if seg == "**" {
					next = append(next, d)
				}
				entries, err := os.ReadDir(d)
				if err != nil {
					continue
				}
				read += len(entries)
				if read > maxGlobLinkEntries {
					return []string{string(filepath.Separator)}
				}
				for _, en := range entries {
					if ok, err := path.Match(seg, en.Name()); !ok && err == nil && !strings.ContainsAny(seg, "\\(") && seg != "**" {
						continue
					}
					p := filepath.Join(d, en.Name())
					if en.Type()&os.ModeSymlink != 0 {
						links = append(links, p)
					} else if en.IsDir() {
						next = append(next, p)
					}
				}
			}
			dirs = next
		}
	}
	return links
}

// braceAlternatives returns the patterns pat's braces expand to (pat
// itself when it has none); false when they cannot be expanded or are more
// than maxGlobAlternatives.
func braceAlternatives(pat string) ([]string, bool) {
	word := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: pat}}}
	if !syntax.SplitBraces(word) {
		return []string{pat}, true
	}
	var alts []string
	for w, err := range expand.BracesSeq(nil, word) {
		if err != nil || len(alts) >= maxGlobAlternatives {
			return nil, false
		}
		alts = append(alts, w.Lit())
	}
	return alts, true
}

// dotBrackets replaces each path segment of pat made of bracket
// expressions that match "." or ".." ([.][.]) by what it matches.
func dotBrackets(pat string) string {
	if !strings.Contains(pat, "[") {
		return pat
	}
	segs := strings.Split(filepath.ToSlash(pat), "/")
	for i, s := range segs {
		if !strings.Contains(s, "[") || strings.ContainsAny(s, "*?") {
			continue
		}
		for _, dots := range []string{"..", "."} {
			if ok, _ := path.Match(s, dots); ok {
				segs[i] = dots
				break
			}
		}
	}
	return filepath.FromSlash(strings.Join(segs, "/"))
}

// globBase is the directory part of a glob pattern before its first
// pattern character, when the pattern could leave the search directory. A
// ".." after a pattern character climbs back out of what it matched:
// "**/../../x/*" reaches ../../x (** may match no directory, another
// pattern segment one), so the base is read up to the last "..".
func globBase(pat string) string {
	i := strings.IndexAny(pat, "*?[{")
	if i < 0 {
		i = len(pat)
	}
	base := filepath.Dir(pat[:i] + "x")
	segs := strings.Split(filepath.ToSlash(pat), "/")
	last := -1
	for j, s := range segs {
		if s == ".." {
			last = j
		}
	}
	if i < len(pat) && last >= 0 {
		var up []string
		for _, s := range segs[:last+1] {
			switch {
			case s == "**":
			case strings.ContainsAny(s, "*?[{"):
				up = append(up, "x")
			default:
				up = append(up, s)
			}
		}
		if b := path.Clean(strings.Join(up, "/")); b == ".." || strings.HasPrefix(b, "../") {
			base = filepath.FromSlash(b)
		}
	}
	if base == "." {
		return ""
	}
	return base
}

func (in *Input) addPath(e *Engine, base, p, access, source string) *PathInput {
	info := e.resolver.Resolve(base, p)
	pi := PathInput{PathInfo: info, Access: access, Source: source}
	if e.temp != "" {
		rel, under := fstools.Within(e.temp, info.Resolved)
		pi.Temp = under && rel != "."
	}
	if in.Tool != ToolShell && info.InsideRoot {
		pi.GitIgnored = e.fs.GitIgnored(info.Rel, info.Dir)
	}
	pi.Keys = e.pathKeys(info, in)
	in.Paths = append(in.Paths, pi)
	return &in.Paths[len(in.Paths)-1]
}

func (e *Engine) shellInput(ctx context.Context, in *Input, args map[string]any) error {
	cmd, _, err := stringArg(args, "command", true)
	if err != nil {
		return err
	}
	if strings.TrimSpace(cmd) == "" {
		return invalid("Command cannot be empty.")
	}
	if dir, ok, err := stringArg(args, "directory", false); err != nil {
		return err
	} else if ok && dir != "" {
		info := e.resolver.Resolve("", dir)
		if !info.InsideRoot {
			return invalid("Directory %q is not within the workspace root %s", dir, in.Root)
		}
		if !info.Dir {
			return invalid("Directory %q does not exist", dir)
		}
		in.Cwd = info.Resolved
	}
	if hook := parseHook.Load(); hook != nil {
		(*hook)(cmd)
	}
	prog := e.parse(ctx, cmd)
	sh := &ShellInput{Command: cmd, ParseError: prog.Error, TooComplex: prog.TooComplex, Segments: make([]SegmentInput, len(prog.Segments))}
	in.Shell = sh
	for i, seg := range ownSegments(prog) {
		sh.Segments[i] = SegmentInput{Segment: seg}
	}
	written := map[string]bool{}
	after := relinkScope(sh.Segments)
	relinked := e.relinkTargets(in.Cwd, sh.Segments)
	opened := openedForReading(sh.Segments)
	for i := range sh.Segments {
		seg := &sh.Segments[i]
		base, known := e.segmentDir(in.Cwd, seg.Segment)
		id := seg.ID
		dynamic := func(raw, source string) {
			in.Paths = append(in.Paths, PathInput{PathInfo: fstools.PathInfo{Raw: raw}, Access: "write", Source: source, Dynamic: true, Segment: &id, Keys: []string{}})
		}
		// the files find gives the action ({}) or prints to xargs
		// (<input>), walked once
		findBase, findFiles, findMarker, findKnown := e.findFiles(in.Cwd, sh.Segments, seg.Segment)
		var add func(w shellparse.Word, source string)
		add = func(w shellparse.Word, source string) {
			if w.Pipe {
				return // a pipe to a command decided as its own segment
			}
			if fd, ok := shellparse.FdDevice(w.Value); ok && !w.Dynamic {
				// > /dev/fd/3 after 3<f opens f again, for writing
				for _, f := range opened[fd] {
					if f.dynamic {
						dynamic(w.Value, source)
						continue
					}
					fb, fknown := e.segmentDir(in.Cwd, sh.Segments[f.seg].Segment)
					if !fknown && !filepath.IsAbs(f.target) {
						dynamic(f.target, source)
						continue
					}
					pi := in.addPath(e, fb, f.target, "write", source)
					pi.Segment = &id
				}
			}
			if findKnown && w.Dynamic && w.Value == findMarker && source == "argument" {
				for _, f := range findFiles {
					pi := in.addPath(e, findBase, f, "write", source)
					pi.Segment = &id
					pi.Replaces = seg.Replaces
					if !seg.ModeOnly {
						written[pi.Resolved] = true
					}
				}
				findFiles = nil // one {} or many: the same files
				return
			}
			if w.Dynamic || (!known && !filepath.IsAbs(w.Value)) {
				dynamic(w.Value, source)
				return
			}
			if after[i] && relinked.leads(i, e.resolver.Resolve(base, w.Value)) {
				dynamic(w.Value, source)
				return
			}
			pi := in.addPath(e, base, w.Value, "write", source)
			pi.Segment = &id
			pi.Replaces = source == "argument" && seg.Replaces
			// chmod +x x.sh && ./x.sh runs the text x.sh had
			if source != "argument" || !seg.ModeOnly {
				written[pi.Resolved] = true
			}
		}
		for _, r := range seg.Redirects {
			if r.Write && !r.Dup {
				add(shellparse.Word{Value: r.Target, Dynamic: r.Dynamic, Pipe: r.Pipe}, "redirect")
			}
		}
		for _, w := range seg.Writes {
			add(w, "argument")
		}
		for _, w := range seg.Removes {
			// the name goes away: checked where it is, as a write that
			// replaces (mv /dev/null x), not marked as written
			if !known && !filepath.IsAbs(w.Value) {
				dynamic(w.Value, "removed")
				continue
			}
			pi := in.addPath(e, base, w.Value, "write", "removed")
			pi.Segment = &id
			pi.Replaces = true
		}
		e.secretReads(in, seg, base, known)
		e.protectedArgs(in, seg, base, known, written)
	}
	created := e.createScope(in.Cwd, sh.Segments)
	// a module run by name: files the command names that Python could
	// import (curl URL | python3 -m json.tool writes none)
	moduleBefore := scopeAfter(sh.Segments, func(i int) bool { return writesModule(sh.Segments[i].Segment) })
	for i := range sh.Segments {
		seg := &sh.Segments[i]
		if after[i] && seg.ProgramPath != "" && seg.Program != "" && e.relinkedProgram(in.Cwd, seg.Segment, relinked) {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramNotFound,
				Message: seg.ProgramPath + " may lead through a name an earlier part of the command links or moves, so what it runs is only known at run time"})
		}
		if seg.ContentKnown {
			// What runs is the content the command wrote, checked by
			// the parser, unless something may rewrite the file first.
			if rewrittenBefore(sh.Segments, i, e.cat) {
				seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramModified,
					Message: "a part of the command that may run first may rewrite the file " + seg.Program + " runs after this command wrote it"})
			} else if why := e.contentFileKept(in.Cwd, seg.Segment); why != "" {
				seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramModified,
					Message: seg.ContentFile + " " + why + ": if the command's write to it fails, its old content runs"})
			}
		} else {
			e.programFacts(in, seg, written, created[i])
		}
		if why := e.foreignGitDir(in.Cwd, seg.Segment); why != "" {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindGitConfigCode, Message: why})
		}
		if why := e.optionGlobMatch(in.Cwd, seg.Segment); why != "" {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindUnknownOption, Message: why})
		}
		if seg.ImportsCode && importedBefore(sh.Segments, i, e.cat) {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindInlineCode,
				Message: seg.Program + " runs inline code that imports modules, and a part of the command that may run first may write one of them"})
		} else if seg.RunsModule && moduleBefore[i] {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindInlineCode,
				Message: seg.Program + " runs a module, which imports modules from the directory it runs in first, and a part of the command that may run first may write one of them"})
		} else if seg.ImportsCode {
			if why := e.importShadow(in.Cwd, seg.Segment); why != "" {
				seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindInlineCode,
					Message: seg.Program + " runs inline code that imports modules, and " + why})
			}
		} else if seg.RunsModule && stdlibModule(seg.Argv) {
			// python3 -m json.tool, -m zipfile -l: the standard library's
			// tool, unless a file in the directory is imported instead
			// (argparse.py, written by an earlier call)
			if why := e.importShadow(in.Cwd, seg.Segment); why != "" {
				seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindInlineCode,
					Message: seg.Program + " runs the standard library's module, and " + why})
			}
		}
		seg.Keys = literalKeys(seg.Argv, seg.Dynamic, e.idx.maxWords)
		if argv, dyn, ok := withoutInertOptions(seg.Segment, e.cat); ok {
			// git -C src status is listed by "git status" too (before the
			// keys of argv as written, whose last is the whole command)
			seg.Keys = append(literalKeys(argv, dyn, e.idx.maxWords), seg.Keys...)
		}
		seg.PathKeys, seg.UncertainKeys = segmentPathKeys(seg, e.idx.maxPath)
		seg.MaybeKeys = pathPrefixes(seg.MaybeRuns, e.idx.maxPath)
	}
	return nil
}

// maxOptionGlobScan bounds the names optionGlobMatch reads in a directory;
// a larger directory is not proven free of names starting with "-".
const maxOptionGlobScan = 1 << 16

// optionGlobMatch checks the patterns among a segment's arguments that bash
// may replace with a name starting with "-" (Segment.OptionGlobs) against
// the names in the directory the segment runs in: tar cf x.tar * with a
// file named --checkpoint-action=exec=sh s.sh there runs s.sh.
func (e *Engine) optionGlobMatch(cwd string, seg *shellparse.Segment) string {
	if len(seg.OptionGlobs) == 0 {
		return ""
	}
	dir, known := e.segmentDir(cwd, seg)
	if !known {
		return fmt.Sprintf("the pattern %s may match a name starting with -, which %s would read as an option, in a directory only known at run time", seg.OptionGlobs[0], seg.Program)
	}
	f, err := os.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return fmt.Sprintf("the pattern %s may match a name starting with -, which %s would read as an option, and the directory cannot be read: %v", seg.OptionGlobs[0], seg.Program, err)
	}
	defer f.Close()
	for read := 0; ; {
		names, err := f.Readdirnames(1024)
		for _, name := range names {
			if !strings.HasPrefix(name, "-") {
				continue
			}
			for _, g := range seg.OptionGlobs {
				first, _, _ := strings.Cut(shellparse.OptionGlobPattern(g), "/")
				if shellparse.GlobMayMatch(first, name) {
					return fmt.Sprintf("%s may become %q, a name in %s, which %s would read as an option", g, name, dir, seg.Program)
				}
			}
		}
		if read += len(names); read > maxOptionGlobScan {
			return fmt.Sprintf("the pattern %s may match a name starting with -, which %s would read as an option, in a directory of over %d entries", seg.OptionGlobs[0], seg.Program, maxOptionGlobScan)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return ""
			}
			return fmt.Sprintf("the pattern %s may match a name starting with -, which %s would read as an option, and the directory cannot be read: %v", seg.OptionGlobs[0], seg.Program, err)
		}
	}
}

// maxImportScan bounds the directory entries importShadow reads; a larger
// directory is not proven free of modules.
const maxImportScan = 4096

// importShadow says why a module of Python's standard library that proven
// inline code imports may come from the directory it runs in, or "" when it
// cannot: Python puts that directory first on sys.path for -c and -, so a
// json.py, a package json/ (with an __init__) or a compiled json module
// there is imported instead of the standard one, by the code's own imports
// and by those of the modules it imports. (A module of another name, such
// as the project's own, is the project's code, trusted like a script it
// holds.)
func (e *Engine) importShadow(cwd string, seg *shellparse.Segment) string {
	dir, known := e.segmentDir(cwd, seg)
	if !known {
		return "the directory it runs in, which Python imports from first, is only known at run time"
	}
	f, err := os.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return "the directory it runs in, which Python imports from first, cannot be read: " + err.Error()
	}
	defer f.Close()
	entries, err := f.ReadDir(maxImportScan + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return "the directory it runs in, which Python imports from first, cannot be read: " + err.Error()
	}
	if len(entries) > maxImportScan {
		return fmt.Sprintf("the directory it runs in, which Python imports from first, holds over %d entries", maxImportScan)
	}
	for _, de := range entries {
		name := de.Name()
		if mod, ok := importableFile(name); ok {
			if pythonStdlib[mod] {
				return fmt.Sprintf("the directory it runs in holds %s, which Python imports instead of the standard module %s", name, mod)
			}
			continue
		}
		if !pythonStdlib[name] {
			continue
		}
		inits, _ := filepath.Glob(filepath.Join(dir, name, "__init__*"))
		for _, init := range inits {
			if mod, ok := importableFile(filepath.Base(init)); ok && mod == "__init__" {
				return fmt.Sprintf("the directory it runs in holds the package %s/, which Python imports instead of the standard module %s", name, name)
			}
		}
	}
	return ""
}

// importableFile reports whether Python's path finder imports a file of
// this name as a module (source, bytecode, an extension module such as
// json.cpython-311-x86_64-linux-gnu.so), and as which.
func importableFile(name string) (string, bool) {
	for _, ext := range []string{".py", ".pyc", ".pyw", ".so", ".pyd"} {
		if stem, ok := strings.CutSuffix(name, ext); ok && stem != "" {
			mod, _, _ := strings.Cut(stem, ".")
			return mod, true
		}
	}
	return "", false
}

// relinkScope reports, for each segment, whether a segment that makes or
// moves names (ln, mv, cp -s: Segment.Relinks) may run before it: every
// segment after the first such one in source order, and every segment at
// all when that one may run more than once or at the same time as others (in
// a loop, a function, a pipeline, the background); a segment that may run
// later than its place says (a function body, the background) is always in
// scope.
func relinkScope(segs []SegmentInput) []bool {
	scope := make([]bool, len(segs))
	first := -1
	all := false
	for i := range segs {
		if !segs[i].Relinks {
			continue
		}
		if first < 0 {
			first = i
		}
		all = all || segs[i].Background || hasContext(segs[i].Context, "while", "until", "for", "function", "pipe", "procsubst", "coproc")
	}
	if first < 0 {
		return scope
	}
	for i := range segs {
		scope[i] = i != first && (all || i > first || segs[i].Background || hasContext(segs[i].Context, "function", "procsubst", "coproc"))
	}
	return scope
}

// createScope reports, for each segment, whether a segment that may create
// files under names gate does not see (creates) may run before it: one
// earlier in source order, one that may run more than once or at the same
// time as others (a loop, a function, a pipeline, a substitution, the
// background), or any other one when the segment itself may run later than
// its place says (a loop, a function, a process substitution, the
// background).
//
// A program file named by a path (./x) that does not exist and that nothing
// may create before it never starts, so it creates nothing either (./x &&
// ./x): such segments are dropped and the scopes computed again.
func (e *Engine) createScope(cwd string, segs []SegmentInput) []bool {
	dead := make([]bool, len(segs))
	for round := 0; ; round++ {
		scope := scopeAfter(segs, func(i int) bool { return !dead[i] && creates(segs[i].Segment, e.cat) })
		changed := false
		for i := range segs {
			if !dead[i] && !scope[i] && e.missingProgram(cwd, segs[i].Segment) {
				dead[i], changed = true, true
			}
		}
		if !changed || round >= 8 {
			return scope
		}
	}
}

// missingProgram reports whether a segment runs a program file named by a
// path with a slash (no PATH search) that does not exist.
func (e *Engine) missingProgram(cwd string, seg *shellparse.Segment) bool {
	if seg.Program == "" || seg.ContentKnown || !strings.Contains(seg.ProgramPath, "/") {
		return false
	}
	base, known := e.segmentDir(cwd, seg)
	if !known && !filepath.IsAbs(seg.ProgramPath) {
		return false
	}
	return !e.resolver.Resolve(base, seg.ProgramPath).Exists
}

// importedBefore reports whether a segment that may run before segs[i] may
// create files under names gate does not see, or writes a file Python could
// import: any module, as the modules the code imports import others (json
// imports re, which imports enum: a written enum.py runs). The script
// segs[i] runs itself, written from a here-document and proven inert, is
// not counted: imported by name too, it runs the same proven code.
func importedBefore(segs []SegmentInput, i int, cat *shellparse.Catalogue) bool {
	own := ""
	if segs[i].ContentKnown && segs[i].ContentFile != "" {
		own = path.Clean(segs[i].ContentFile)
	}
	return scopeAfter(segs, func(j int) bool {
		return creates(segs[j].Segment, cat) || writesModuleFile(segs[j].Segment, own, true)
	})[i]
}

// writesModuleFile reports whether seg writes, through a redirection or
// its arguments, a file Python could import or a file whose name is only
// known at run time, leaving out the file own; with copies, also a name
// without a suffix that a copy may make a package directory (cp -r x json).
func writesModuleFile(seg *shellparse.Segment, own string, copies bool) bool {
	module := func(p string, dynamic bool) bool {
		if dynamic {
			return true
		}
		if own != "" && path.Clean(p) == own {
			return false
		}
		return isModuleFile(path.Base(p))
	}
	for _, r := range seg.Redirects {
		if r.Write && !r.Dup && !r.Pipe && module(r.Target, r.Dynamic) {
			return true
		}
	}
	for _, w := range seg.Writes {
		if w.Pipe {
			continue
		}
		if module(w.Value, w.Dynamic) || copies && !seg.ModeOnly && seg.Program != "mkdir" && !strings.Contains(path.Base(w.Value), ".") {
			return true
		}
	}
	return false
}

// isModuleFile reports a file name with a suffix Python imports.
func isModuleFile(name string) bool {
	for _, suffix := range moduleSuffixes {
		if strings.HasSuffix(strings.ToLower(name), suffix) {
			return true
		}
	}
	return false
}

// moduleSuffixes are the endings of files Python imports (modules,
// compiled modules, extensions, path configuration).
var moduleSuffixes = []string{".py", ".pyc", ".pyo", ".pyd", ".so", ".pth", ".pyw"}

// writesModule reports whether a segment writes, through a redirection or
// its arguments, a file Python could import, or a file whose name is only
// known at run time.
func writesModule(seg *shellparse.Segment) bool {
	return writesModuleFile(seg, "", false)
}

// scopeAfter reports, for each segment, whether a segment for which pred
// holds may run before it (see createScope).
func scopeAfter(segs []SegmentInput, pred func(int) bool) []bool {
	scope := make([]bool, len(segs))
	first, total, anywhere := -1, 0, 0
	mayCreate := make([]bool, len(segs))
	roams := make([]bool, len(segs))
	for i := range segs {
		if !pred(i) {
			continue
		}
		mayCreate[i] = true
		total++
		if first < 0 {
			first = i
		}
		roams[i] = segs[i].Background || hasContext(segs[i].Context, "while", "until", "for", "function", "pipe", "cmdsubst", "procsubst", "coproc")
		if roams[i] {
			anywhere++
		}
	}
	for i := range segs {
		others, othersAnywhere := total, anywhere
		if mayCreate[i] {
			others--
			if roams[i] {
				othersAnywhere--
			}
		}
		late := segs[i].Background || hasContext(segs[i].Context, "while", "until", "for", "function", "procsubst", "coproc")
		scope[i] = (first >= 0 && first < i) || othersAnywhere > 0 || (late && others > 0)
	}
	return scope
}

// contentFileKept says why the command's write to the file a segment runs
// (Segment.ContentFile) may fail and leave the file's old content in place:
// it exists and is not a plain regular file this process may write (a
// symlink, other hard links, read-only, a directory unknown). "" when the
// file does not exist yet or may be written.
func (e *Engine) contentFileKept(cwd string, seg *shellparse.Segment) string {
	base, known := e.segmentDir(cwd, seg)
	if !known && !filepath.IsAbs(seg.ContentFile) {
		return "is relative to a directory that is not known statically"
	}
	info := e.resolver.Resolve(base, seg.ContentFile)
	if !info.Exists {
		return ""
	}
	st, err := os.Lstat(info.Resolved)
	switch {
	case info.Symlink:
		return "is a symbolic link"
	case err != nil || !st.Mode().IsRegular():
		return "exists and is not a regular file"
	case info.Links > 1:
		return "has other hard links"
	case !writable(info.Resolved):
		return "exists and may not be written"
	}
	return ""
}

// rewrittenBefore reports whether a segment other than i and those it runs
// itself may create files under names gate does not see and may run before
// segment i (see createScope).
func rewrittenBefore(segs []SegmentInput, i int, cat *shellparse.Catalogue) bool {
	late := segs[i].Background || hasContext(segs[i].Context, "while", "until", "for", "function", "procsubst", "coproc")
	for j := range segs {
		if j == i || within(segs, j, i) || !creates(segs[j].Segment, cat) {
			continue
		}
		roams := segs[j].Background || hasContext(segs[j].Context, "while", "until", "for", "function", "pipe", "cmdsubst", "procsubst", "coproc")
		if j < i || roams || late {
			return true
		}
	}
	return false
}

// within reports whether segment j was unwrapped from segment i.
func within(segs []SegmentInput, j, i int) bool {
	for p := segs[j].Parent; p >= 0 && p < len(segs); p = segs[p].Parent {
		if p == i {
			return true
		}
	}
	return false
}

// creates reports whether a segment may create files under names gate does
// not see: it writes to a path only known at run time, its program is not
// known statically or is a file (a script), or its program is not in the
// catalogue's makes_no_files. A wrapper that runs other segments is judged
// by them, a function call by its body, a script whose content is known by
// its content.
func creates(seg *shellparse.Segment, cat *shellparse.Catalogue) bool {
	if seg.WritesUnnamed {
		return true // curl -O, wget URL
	}
	for _, r := range seg.Redirects {
		if r.Write && !r.Dup && r.Dynamic && !r.Pipe {
			return true
		}
	}
	for _, w := range seg.Writes {
		if w.Dynamic && !w.Pipe {
			return true
		}
	}
	switch {
	case seg.Kind != shellparse.KindCommand || seg.FunctionCall || seg.ContentKnown:
		// A script whose content the parser read is judged by the
		// segments it runs (proven python code creates nothing).
		return false
	case seg.ProvenCode && len(seg.Findings) == 0:
		// python3 -c CODE proven to only print, compute and read: it
		// creates no file (python3 -c 'import sys; print(sys.path)' &&
		// python3 -c 'import json; ...' imports nothing it wrote)
		return false
	case seg.Program == "" || seg.ProgramPath != "":
		return true
	case seg.Wrapper:
		return false
	case len(seg.Path) > 1 && cat.ReadOnlySubcommand(seg.Program, seg.Path[1]):
		// git status, git log: what they write (--output=F) is in Writes
		return false
	}
	return !cat.MakesNoFile(seg.Program)
}

// relinks are the names the command's relinking segments make or move, as
// absolute paths (lexical and resolved); unknown when one of them is not
// known statically (a dynamic word, a relative name after an unknown cd, a
// target implied by the source's name: ln -s /etc).
type relinks struct {
	unknown bool
	names   []string
	by      []int // the segment index of each name
}

func (e *Engine) relinkTargets(cwd string, segs []SegmentInput) *relinks {
	r := &relinks{}
	for i := range segs {
		seg := segs[i].Segment
		if !seg.Relinks {
			continue
		}
		base, known := e.segmentDir(cwd, seg)
		if len(seg.Writes) == 0 || seg.Program == "git" && len(seg.Path) > 2 && seg.Path[1] == "checkout" && !slices.Contains(seg.Argv, "--") {
			// git checkout BRANCH rewrites the whole tree: its first
			// operand may name a commit, not a path
			r.unknown = true
		}
		if r.unknown {
			continue
		}
		for _, w := range seg.Writes {
			if w.Dynamic || (!known && !filepath.IsAbs(w.Value)) {
				r.unknown = true
				continue
			}
			info := e.resolver.Resolve(base, w.Value)
			r.names = append(r.names, info.Path, info.Resolved)
			r.by = append(r.by, i, i)
		}
	}
	return r
}

// leads reports whether info, named by segment seg, may lead through a name
// another segment makes or moves: it is one of them or below one (a link
// made at a directory's name, or inside a directory named as the target).
func (r *relinks) leads(seg int, info fstools.PathInfo) bool {
	if r.unknown {
		return true
	}
	for k, n := range r.names {
		if r.by[k] == seg {
			continue
		}
		for _, p := range []string{info.Path, info.Resolved} {
			if _, ok := fstools.Within(n, p); ok {
				return true
			}
		}
	}
	return false
}

// relinkedProgram reports whether a segment's program path may lead through
// a name the command makes or moves.
func (e *Engine) relinkedProgram(cwd string, seg *shellparse.Segment, r *relinks) bool {
	base, known := e.segmentDir(cwd, seg)
	if !known && !filepath.IsAbs(seg.ProgramPath) {
		return false // programFacts reports it
	}
	return r.leads(seg.ID, e.resolver.Resolve(base, seg.ProgramPath))
}

func hasContext(ctx []string, names ...string) bool {
	for _, c := range ctx {
		for _, n := range names {
			if c == n {
				return true
			}
		}
	}
	return false
}

// segmentDir returns the directory a segment's relative paths resolve
// against, and whether it is known.
func (e *Engine) segmentDir(cwd string, seg *shellparse.Segment) (string, bool) {
	if seg.ChdirUnknown {
		return cwd, false
	}
	dir := cwd
	for _, d := range seg.Chdir {
		next, ok := physicalJoin(dir, d)
		if !ok {
			return cwd, false
		}
		dir = next
	}
	return dir, true
}

// physicalJoin is cd d from dir: filepath.Join, when a ".." in d leaves a
// directory the same way bash does. bash takes cd l/.. lexically but
// falls back to the physical path when the lexical one does not exist (cd
// l/../x, l a symlink to /ext/sub, is /ext/x), and cd -P takes it
// physically: so a ".." is only read lexically after a path with no
// symlink in it now. Its part that does not exist yet is made by the
// command (mkdir): the parser makes the directory unknown when the command
// may make a symlink (ln, mv, cp -a, an archive, git checkout). A program
// gate does not model (make, a script) that makes one is the project's
// code: the fs layer confines what it leads to.
func physicalJoin(dir, d string) (string, bool) {
	cur := dir
	if filepath.IsAbs(d) {
		cur = "/"
	}
	for _, elem := range strings.Split(d, "/") {
		switch elem {
		case "", ".":
			continue
		case "..":
			if !noSymlink(cur) {
				return "", false
			}
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, elem)
		}
	}
	return filepath.Clean(cur), true
}

// noSymlink reports whether the longest part of the absolute path p that
// exists has no symlink in it.
func noSymlink(p string) bool {
	p = filepath.Clean(p)
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return real == p
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(p) == p {
			return false
		}
		p = filepath.Dir(p)
	}
}

// programFacts checks a command word that names a file: it must not be
// written by the command itself, and must exist before the command runs
// when a part of the command that may run before it (created) may create
// files under names gate does not see; a link or copy of another program is
// identified. A program file that does not exist and that nothing in the
// command can create fails to run, like one removed after the decision.
func (e *Engine) programFacts(in *Input, seg *SegmentInput, written map[string]bool, created bool) {
	if seg.Program == "" {
		return
	}
	if seg.ProgramPath == "" {
		e.pathIdentity(seg)
		return
	}
	base, known := e.segmentDir(in.Cwd, seg.Segment)
	if !known && !filepath.IsAbs(seg.ProgramPath) {
		seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramNotFound,
			Message: seg.ProgramPath + " is relative to a directory that is not known statically"})
		return
	}
	info := e.resolver.Resolve(base, seg.ProgramPath)
	if written[info.Resolved] {
		seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramModified,
			Message: seg.ProgramPath + " is written by the same command before it runs"})
	}
	if !info.Exists {
		if created {
			seg.Findings = append(seg.Findings, shellparse.Finding{Code: shellparse.FindProgramNotFound,
				Message: seg.ProgramPath + " does not exist yet, and a part of the command that may run first may create it, so what it runs cannot be checked"})
		}
		return
	}
	if name := e.ids.identify(info.Resolved); name != "" && name != seg.Program {
		seg.Identity = name
	}
}

// pathIdentity identifies a bare command name the catalogue does not
// describe by the file PATH finds for it: python3.11 is the file python3
// links to, so an exclude of python3 judges it too. Names the catalogue
// describes or lists are the programs they say; resolving them would cost
// every decision a PATH search.
func (e *Engine) pathIdentity(seg *SegmentInput) {
	if seg.FunctionCall || !e.ids.any() || e.cat == nil || e.cat.Programs[seg.Program] != nil ||
		e.cat.DataOperand(seg.Program) || e.cat.Reader(seg.Program) {
		return
	}
	p, err := exec.LookPath(seg.Program)
	if err != nil {
		return
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if name := e.ids.identify(r); name != "" && name != seg.Program {
			seg.Identity = name
		}
	}
}

// withoutInertOptions returns argv without the leading options the
// catalogue lists as inert for the program (git --no-pager, -C .: an entry
// with a value is inert with that value only), and the
// dynamic indexes shifted to match; ok is false when there are none, or one
// of them is only known at run time.
func withoutInertOptions(seg *shellparse.Segment, cat *shellparse.Catalogue) ([]string, []int, bool) {
	spec := cat.Programs[seg.Program]
	if spec == nil || len(spec.InertGlobalOptions) == 0 || seg.FunctionCall {
		return nil, nil, false
	}
	i := 1
	for i < len(seg.Argv) && strings.HasPrefix(seg.Argv[i], "-") && seg.Argv[i] != "-" && seg.Argv[i] != "--" {
		name, _, attached := strings.Cut(seg.Argv[i], "=")
		switch {
		case i+1 < len(seg.Argv) && slices.Contains(spec.InertGlobalOptions, seg.Argv[i]+" "+seg.Argv[i+1]):
			i++ // an option inert with this value only (-C .)
		case !slices.Contains(spec.InertGlobalOptions, name):
			return nil, nil, false
		case !attached && slices.Contains(spec.OptionsWithValue, name):
			i++
		}
		i++
	}
	if i == 1 || i >= len(seg.Argv) {
		return nil, nil, false
	}
	var dyn []int
	for _, d := range seg.Dynamic {
		if d < i {
			return nil, nil, false
		}
		dyn = append(dyn, d-i+1)
	}
	return append([]string{seg.Argv[0]}, seg.Argv[i:]...), dyn, true
}

// literalKeys returns argv's word-boundary prefixes up to the first dynamic
// word, at most max words long.
func literalKeys(argv []string, dynamic []int, max int) []string {
	n := len(argv)
	if len(dynamic) > 0 && dynamic[0] < n {
		n = dynamic[0]
	}
	if n > max {
		n = max
	}
	keys := make([]string, 0, n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(argv[i])
		keys = append(keys, b.String())
	}
	return keys
}

// segmentPathKeys returns the prefixes of the segment's path readings, and the
// paths cut short by a dynamic word.
func segmentPathKeys(seg *SegmentInput, max int) ([]string, []string) {
	if seg.Program == "" || max == 0 {
		return []string{}, []string{}
	}
	paths := append([][]string{seg.Path}, seg.AltPaths...)
	if seg.Identity != "" {
		for _, p := range append([][]string(nil), paths...) {
			alt := append([]string{seg.Identity}, p[1:]...)
			paths = append(paths, alt)
		}
	}
	keys := pathPrefixes(paths, max)
	if keys == nil {
		keys = []string{}
	}
	uncertain := []string{}
	for _, p := range paths {
		if !seg.PathComplete && len(p) < max {
			uncertain = append(uncertain, strings.Join(p, " "))
		}
	}
	return keys, uncertain
}

// pathPrefixes returns the distinct word-boundary prefixes of paths, at most
// max words long.
func pathPrefixes(paths [][]string, max int) []string {
	if len(paths) == 0 || max == 0 {
		return nil
	}
	seen := map[string]bool{}
	var keys []string
	for _, p := range paths {
		var b strings.Builder
		for i, w := range p {
			if i >= max {
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			if k := b.String(); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// maxFloatingDepth bounds the path elements used for keys matched at any
// depth of the root.
const maxFloatingDepth = 32

// pathKeys returns the keys data.gate.paths entries match for a path:
// absolute prefixes ("/etc/", "/etc/passwd"), home-relative prefixes
// ("~/.ssh/") and, inside the root, every run of elements at any depth
// (".git/hooks/", ".git/hooks/pre-commit").
func (e *Engine) pathKeys(info fstools.PathInfo, in *Input) []string {
	set := map[string]bool{}
	// A path written with a trailing slash is a directory even before it
	// exists (rsync -a x/ .git/hooks/ creates it and writes into it).
	if strings.HasSuffix(info.Raw, "/") {
		info.Dir = true
	}
	for _, p := range []string{info.Resolved, info.Path} {
		if p == "" {
			continue
		}
		anchored(set, "", p, info.Dir && (p == info.Resolved || !info.Exists))
		if e.home != "" {
			if rel, ok := fstools.Within(e.home, p); ok && rel != "." {
				anchored(set, "~/", rel, info.Dir)
			}
		}
	}
	if base, rel, ok := e.workspaceRel(info); ok && rel != "." {
		elems := strings.Split(filepath.ToSlash(rel), "/")
		if len(elems) > maxFloatingDepth {
			elems = elems[len(elems)-maxFloatingDepth:]
		}
		for i := range elems {
			for j := i + 1; j <= len(elems); j++ {
				k := strings.Join(elems[i:j], "/")
				if j < len(elems) || info.Dir {
					set[k+"/"] = true
				}
				if j == len(elems) {
					set[k] = true
				}
			}
		}
		// "*.ext": a file with that name ending, at any depth
		if ext := path.Ext(elems[len(elems)-1]); ext != "" {
			set["*"+ext] = true
		}
		// a git directory by another name (a bare repository b: b/config,
		// b/hooks/) is keyed as a .git is: git runs what its files say
		all := strings.Split(filepath.ToSlash(rel), "/")
		dir := base
		for i := 0; i < len(all) && i < maxFloatingDepth; i++ {
			dir = filepath.Join(dir, all[i])
			if all[i] == ".git" || !isGitDir(dir) {
				continue
			}
			if i+1 == len(all) {
				// the git directory itself, written into (cp x/config
				// b/, tar -C b)
				set[".git"] = true
				if info.Dir {
					set[".git/"] = true
				}
				continue
			}
			k := ".git"
			set[k+"/"] = true
			for j := i + 1; j < len(all); j++ {
				k += "/" + all[j]
				if j+1 < len(all) || info.Dir {
					set[k+"/"] = true
				}
			}
			set[k] = true
		}
	}
	e.configuredKeys(set, info, in)
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// fdFile is a file a redirection of the command opens for reading on a
// descriptor (3<f, <f, 3<>f), in segment seg.
type fdFile struct {
	seg     int
	target  string
	dynamic bool
}

// openedForReading maps each descriptor to the files redirections of the
// command (any segment, exec's too) open on it for reading: a write to
// /dev/fd/N opens that file again, for writing.
func openedForReading(segs []SegmentInput) map[string][]fdFile {
	out := map[string][]fdFile{}
	for i, s := range segs {
		for _, r := range s.Redirects {
			if r.Dup || r.Pipe || (r.Op != "<" && r.Op != "<>") {
				continue
			}
			fd := r.FD
			if fd == "" {
				fd = "0"
			}
			if fd != "" && fd[0] == '{' {
				fd = "*" // {v}<f: a number bash picks
			}
			out[fd] = append(out[fd], fdFile{seg: i, target: r.Target, dynamic: r.Dynamic})
		}
	}
	for _, f := range out["*"] {
		for fd := range out {
			out[fd] = append(out[fd], f)
		}
	}
	return out
}

// workspaceRel returns the directory a resolved path is keyed under, and
// the path relative to it: the root, or else the temporary directory,
// which commands write without asking and whose files are keyed alike
// (.git/hooks/ and .git/config are protected in a repository there too).
func (e *Engine) workspaceRel(info fstools.PathInfo) (string, string, bool) {
	if info.InsideRoot {
		return e.resolver.Root(), info.Rel, true
	}
	if e.temp != "" {
		if rel, ok := fstools.Within(e.temp, info.Resolved); ok {
			return e.temp, rel, true
		}
	}
	return "", "", false
}

// anchored adds prefix+each leading run of p's elements: directories with a
// trailing slash, the whole path without (and with, for a directory).
func anchored(set map[string]bool, prefix, p string, dir bool) {
	p = filepath.ToSlash(p)
	lead := ""
	if strings.HasPrefix(p, "/") {
		lead = "/"
		p = p[1:]
	}
	if p == "" {
		set[prefix+lead] = true
		return
	}
	elems := strings.Split(p, "/")
	for j := 1; j <= len(elems); j++ {
		k := prefix + lead + strings.Join(elems[:j], "/")
		if j < len(elems) || dir {
			set[k+"/"] = true
		}
		if j == len(elems) {
			set[k] = true
		}
	}
}

// parseHook, when set, runs before each command is parsed.
var parseHook atomic.Pointer[func(command string)]

// SetParseHook makes f run before each shell command is parsed; nil removes
// it. It exists for tests that check how a failing parser is contained (f
// panics as a parser bug would); nothing else sets it.
func SetParseHook(f func(command string)) {
	if f == nil {
		parseHook.Store(nil)
		return
	}
	parseHook.Store(&f)
}

// stdlibModule reports whether argv runs a module of Python's standard
// library (-m json.tool), or one whose name it cannot find.
func stdlibModule(argv []string) bool {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return true
		}
		if j := strings.IndexByte(a, 'm'); j > 0 && !strings.HasPrefix(a, "--") {
			mod := a[j+1:]
			if mod == "" && i+1 < len(argv) {
				mod = argv[i+1]
			}
			top, _, _ := strings.Cut(mod, ".")
			return top == "" || pythonStdlib[top]
		}
	}
	return true
}
