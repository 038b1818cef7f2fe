package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/gate-dev/gate/shellparse"
	"github.com/gate-dev/gate/supervise"
)

// ExecQuery is the exec-time entrypoint: the decision on one program a
// supervised command is about to run.
const ExecQuery = "data.gate.exec.decision"

// Exec is a program a supervised command tree is about to run, read when
// the kernel has loaded it and before its first instruction: the
// supervisor's record (program, exe, argv, cwd, pid, ppid, depth, script,
// loaded, parent_program, by_shell).
type Exec = supervise.Exec

// ExecFacts are an exec with what the rules match, computed by gate.
type ExecFacts struct {
	Exec
	// Name is the program's name: the base name of Program.
	Name string `json:"name"`
	// Names are the names the program is matched by: Name, and argv[0]'s
	// name when the command word found that same file on PATH (python3
	// for /usr/bin/python3.11); never a name argv[0] claims for another
	// file (BASH_CMDS[ls]=/bin/rm runs rm, not ls).
	Names []string `json:"names"`
	// Identity is the excluded program this file is a link to or a copy of.
	Identity string `json:"identity,omitempty"`
	// Words are the program's name, then its own arguments (after the
	// interpreter's for a script, after ld.so's for the loaded program).
	Words []string `json:"words"`
	// Options, Path, Keys, PathKeys are read from Words as a command's
	// segment is (the catalogue's options, subcommands and aliases).
	Options  []string `json:"options"`
	Path     []string `json:"path"`
	Keys     []string `json:"keys"`
	PathKeys []string `json:"path_keys"`
	// Transparent is set for a wrapper that needs no permission of its own
	// (env, nice, timeout, bash -c): what it runs is decided in turn.
	Transparent bool `json:"transparent"`
}

// ExecInput is the input of data.gate.exec.decision.
type ExecInput struct {
	Exec ExecFacts `json:"exec"`
	// Call is the policy input of the call whose command runs the program.
	Call        *Input   `json:"call,omitempty"`
	Layers      []string `json:"layers"`
	SettingsKey string   `json:"settings_key,omitempty"`
}

// ExecCall holds what every exec-time decision of one call shares: the
// call's input, converted once.
type ExecCall struct {
	in  *Input
	val *ast.Term
}

// ExecCall prepares exec-time decisions for the programs a call's command
// runs; in may be nil (gate eval --exec).
func (e *Engine) ExecCall(in *Input) (*ExecCall, error) {
	ec := &ExecCall{in: in}
	if in == nil {
		return ec, nil
	}
	v, err := inputValue(in)
	if err != nil {
		return nil, err
	}
	ec.val = ast.NewTerm(v)
	return ec, nil
}

// Transparent lists the programs that run other programs on behalf of
// whoever ran them (wrappers, shells, find -exec): what they run by the
// shell's hand is judged as the shell's own.
func (e *Engine) Transparent() []string {
	var names []string
	for name, spec := range e.cat.Programs {
		if spec.Wrapper != nil || spec.Shell != nil || len(spec.ExecActions) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// ExecFacts computes what the exec-time rules match for x.
func (e *Engine) ExecFacts(x Exec) ExecFacts { return e.execFacts(context.Background(), x) }

// execFacts is ExecFacts reading the argv within ctx.
func (e *Engine) execFacts(ctx context.Context, x Exec) ExecFacts {
	f := ExecFacts{Exec: x}
	if f.Argv == nil {
		f.Argv = []string{}
	}
	prog, args := x.Program, []string(nil)
	switch {
	case x.Script != "":
		args = after(x.Argv, x.Script, x.Cwd)
	case x.Loaded != "":
		args = after(x.Argv, x.Loaded, x.Cwd)
	default:
		if len(x.Argv) > 1 {
			args = x.Argv[1:]
		}
	}
	if prog == "" {
		prog = x.Exe
	}
	f.Name = filepath.Base(prog)
	f.Names = []string{f.Name}
	if len(x.Argv) > 0 && x.Script == "" && x.Loaded == "" {
		if alt := filepath.Base(x.Argv[0]); alt != f.Name && sameProgram(x.Argv[0], prog) {
			f.Names = append(f.Names, alt)
		}
	}
	f.Identity = e.ids.identify(identityPath(x, prog))
	f.Words = append([]string{f.Name}, args...)
	f.Options, f.Path, f.Keys, f.PathKeys = []string{}, []string{}, []string{}, []string{}
	seen := map[string]bool{}
	for i, name := range f.Names {
		words := append([]string{name}, args...)
		seg := e.execSegment(ctx, words)
		if i == 0 {
			f.Options, f.Path, f.Transparent = seg.Options, seg.Path, seg.Transparent
		}
		si := &SegmentInput{Segment: seg, Identity: f.Identity}
		if si.Identity == name {
			si.Identity = ""
		}
		keys, _ := segmentPathKeys(si, e.idx.maxPath)
		for _, k := range literalKeys(words, nil, e.idx.maxWords) {
			if !seen["k"+k] {
				seen["k"+k] = true
				f.Keys = append(f.Keys, k)
			}
		}
		for _, k := range keys {
			if !seen["p"+k] {
				seen["p"+k] = true
				f.PathKeys = append(f.PathKeys, k)
			}
		}
	}
	return f
}

// execSegment reads words as the parser reads a simple command: the
// catalogue's options, subcommands and aliases give its path and options.
// Words the parser cannot take (a NUL byte, limits, ctx's end) are read
// literally: the path is every word, options those that start with a dash.
func (e *Engine) execSegment(ctx context.Context, words []string) *shellparse.Segment {
	prog := e.execParser.ParseArgv(ctx, words)
	if prog.Error == nil && prog.TooComplex == nil && len(prog.Segments) > 0 && prog.Segments[0].Kind == shellparse.KindCommand {
		return prog.Segments[0]
	}
	seg := &shellparse.Segment{Parent: -1, PipedFrom: -1, Kind: shellparse.KindCommand, Program: words[0], Argv: words, Path: words, Options: []string{}, PathComplete: true}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") && w != "-" {
			seg.Options = append(seg.Options, w)
		}
	}
	return seg
}

// after returns the words of argv after the one naming file (a script or
// the program ld.so loads), relative words resolved against cwd.
func after(argv []string, file, cwd string) []string {
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if !filepath.IsAbs(w) {
			w = filepath.Join(cwd, w)
		}
		if filepath.Clean(w) == filepath.Clean(file) {
			return argv[i+1:]
		}
	}
	if len(argv) > 1 {
		return argv[1:]
	}
	return nil
}

// sameProgram reports whether the command word word, looked up on PATH
// (or as a path), names the file prog.
func sameProgram(word, prog string) bool {
	p := word
	if !strings.Contains(word, "/") {
		var err error
		if p, err = exec.LookPath(word); err != nil {
			return false
		}
	}
	a, err1 := os.Stat(p)
	b, err2 := os.Stat(prog)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// execQuery is the prepared exec-time query, compiled on first use: only
// commands that run programs under supervision need it.
type execQuery struct {
	once  sync.Once
	query rego.PreparedEvalQuery
	err   error
}

// DecideExec decides one exec of a call's command with
// data.gate.exec.decision. Every failure is a deny naming its cause.
//
// For a #! script (and a program ld.so loads) the program is the script,
// but the file the kernel runs is its interpreter, with the script's path
// and arguments as its own: "#!/bin/rm" makes ./x victim.txt run rm ./x
// victim.txt (rt29). The interpreter is decided too, as a program the
// script runs (not by the shell): the stricter answer wins.
func (e *Engine) DecideExec(ctx context.Context, ec *ExecCall, x Exec) (d Decision) {
	defer func() {
		if v := recover(); v != nil {
			d = PanicDecision(v)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	d = e.decideExec(ctx, ec, x)
	if d.Decision == Deny || x.Exe == "" || x.Program == x.Exe || x.Script == "" && x.Loaded == "" {
		return d
	}
	ix := x
	ix.Program, ix.Script, ix.Loaded, ix.ByShell = x.Exe, "", "", false
	if id := e.decideExec(ctx, ec, ix); id.Decision == Deny || id.Decision == Ask && d.Decision == Allow {
		return id
	}
	return d
}

// decideExec decides x as it is.
func (e *Engine) decideExec(ctx context.Context, ec *ExecCall, x Exec) Decision {
	in := ExecInput{Exec: e.execFacts(ctx, x), Layers: e.layers, SettingsKey: e.settingsKeyFor()}
	if ec != nil {
		in.Call = ec.in
	}
	if e.remote != nil {
		return e.remote.evaluateExec(ctx, e, &in)
	}
	e.exec.once.Do(func() { e.exec.query, e.exec.err = e.prepareQuery(context.Background(), ExecQuery) })
	if e.exec.err != nil {
		return DenyWith(CodePolicyError, "compiling "+ExecQuery+": "+e.exec.err.Error())
	}
	val, err := execInputValue(&in, ec)
	if err != nil {
		return DenyWith(CodeInternal, "cannot encode the exec-time policy input: "+err.Error())
	}
	rs, err := evalQuery(ctx, e.exec.query, val)
	return e.result(ctx, ExecQuery, rs, err)
}

// execInputValue converts an ExecInput to the value policies see, built
// directly (the JSON names of ExecFacts; TestExecInputValueMatchesJSON).
func execInputValue(in *ExecInput, ec *ExecCall) (ast.Value, error) {
	f := &in.Exec
	x := newObject(24)
	x.str("program", f.Program)
	x.str("exe", f.Exe)
	x.set("argv", stringsTerm(f.Argv))
	x.str("cwd", f.Cwd)
	x.int("pid", f.PID)
	x.int("ppid", f.PPID)
	x.int("depth", f.Depth)
	x.str("script", f.Script)
	x.strOmit("loaded", f.Loaded)
	x.str("parent_program", f.ParentProgram)
	x.bool("by_shell", f.ByShell)
	x.str("name", f.Name)
	x.set("names", stringsTerm(f.Names))
	x.strOmit("identity", f.Identity)
	x.set("words", stringsTerm(f.Words))
	x.set("options", stringsTerm(f.Options))
	x.set("path", stringsTerm(f.Path))
	x.set("keys", stringsTerm(f.Keys))
	x.set("path_keys", stringsTerm(f.PathKeys))
	x.bool("transparent", f.Transparent)
	b := newObject(4)
	b.set("exec", x.term())
	if ec != nil && ec.val != nil {
		b.set("call", ec.val)
	}
	b.set("layers", stringsTerm(in.Layers))
	b.strOmit("settings_key", in.SettingsKey)
	return b.o, nil
}

// result turns an evaluation's outcome into a decision, failing closed.
func (e *Engine) result(ctx context.Context, query string, rs rego.ResultSet, err error) Decision {
	// A context that ended during (or before) evaluation may have cut it
	// short, whatever it returned.
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return DenyWith(CodeEvalTimeout, fmt.Sprintf("policy evaluation did not finish within %s", e.timeout))
		}
		return DenyWith(CodeEvalTimeout, "policy evaluation was cancelled: "+cerr.Error())
	}
	if err != nil {
		return DenyWith(CodePolicyError, "policy evaluation failed: "+err.Error())
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return DenyWith(CodePolicyUndefined, query+" is undefined for this input")
	}
	if len(rs) > 1 {
		return DenyWith(CodePolicyError, query+" has more than one result")
	}
	d, err := decodeDecisionOf(query, rs[0].Expressions[0].Value)
	if err != nil {
		return DenyWith(CodePolicyError, err.Error())
	}
	return d
}

// identityPath is where the executed file is read to recognise it: the
// process's /proc/PID/exe when the program is the executed file, which
// names the file the kernel loaded even after the path was renamed over
// or deleted (nothing can write a file being executed); the path
// otherwise, or when /proc cannot say.
func identityPath(x Exec, prog string) string {
	if !x.Live || x.PID <= 0 || prog != x.Exe {
		return prog
	}
	p := "/proc/" + strconv.Itoa(x.PID) + "/exe"
	if _, err := os.Stat(p); err != nil {
		return prog
	}
	return p
}
