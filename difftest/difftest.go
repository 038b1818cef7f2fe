package difftest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/supervise"
)

// Safe are the programs the Decider lets run (by base name); every other
// exec is recorded and killed before it runs.
var Safe = []string{
	"bash", "env", "nice", "nohup", "timeout", "stdbuf", "xargs", "command",
	"echo", "printf", "cat", "true", "false", "test", "[", "ls", "grep", "egrep", "fgrep",
	"head", "tail", "wc", "sort", "uniq", "cut", "tr", "sed", "awk", "gawk", "mawk",
	"basename", "dirname", "pwd", "seq", "expr", "tee", "diff", "cmp", "comm", "paste",
	"join", "fold", "nl", "od", "md5sum", "sha256sum", "base64", "readlink", "realpath",
	"stat", "id", "whoami", "uname", "printenv", "rev", "tac", "column", "find", "mkdir",
	"touch", "cp", "mv", "ln", "date", "rmdir",
}

// Timeout bounds one run; the tree is killed after it.
const Timeout = 3 * time.Second

// MaxCommand is the longest command run (longer ones are skipped).
const MaxCommand = 2000

// ErrUnsafe is returned when the jail cannot be built here.
var ErrUnsafe = errors.New("difftest: no Landlock confinement or exec supervision on this machine: commands are not run")

var unsafeText = regexp.MustCompile(`(^|[^[:alnum:]_-])(kill|killall|pkill)([^[:alnum:]_-]|$)|/dev/(tcp|udp|zero|u?random)|:\|:|\(\)\s*\{[^}]*&`)

// Skip says why a command is not run at all ("" to run it): bash could do
// harm without an exec (the kill builtin, /dev/tcp), or loop without one.
func Skip(command string) string {
	switch {
	case len(command) > MaxCommand:
		return "longer than MaxCommand"
	case unsafeText.MatchString(command):
		return "bash could do harm or loop without an exec (kill, /dev/tcp, /dev/zero, a fork bomb)"
	}
	return ""
}

// Differential is an exec real bash made that no segment names.
type Differential struct {
	Command string   `json:"command"`
	Program string   `json:"program"`
	Argv    []string `json:"argv"`
}

// Result is one command's run.
type Result struct {
	Decision string
	// Segments are the program names gate predicts.
	Segments []string
	// Execs are the execs the command's shell made (the root excluded).
	Execs []supervise.Exec
	// Differentials are the execs no segment names.
	Differentials []Differential
	// Skipped says why the command was not run.
	Skipped string
}

// Runner decides and runs commands in one throwaway root.
type Runner struct {
	eng  *engine.Engine
	self string // the helper binary (a test binary that imports supervise/helper)
	base string // holds root, home and tmp
	root string
	// bashEnv is a BASH_ENV file, outside the root, that disables bash's
	// kill builtin in every bash of the tree (kill is then a program,
	// which the Decider kills).
	bashEnv string
}

// NewRunner builds an engine (exclude rm, yolo) on a fresh root under base.
// self is the supervisor's helper binary.
func NewRunner(ctx context.Context, base, self string) (*Runner, error) {
	if ok, why := supervise.Available(); !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnsafe, why)
	}
	if confine.Probe().Landlock == 0 {
		return nil, fmt.Errorf("%w: Landlock unavailable", ErrUnsafe)
	}
	r := &Runner{self: self, base: base, root: filepath.Join(base, "root"), bashEnv: filepath.Join(base, "bash_env")}
	if err := os.WriteFile(r.bashEnv, []byte("enable -n kill\n"), 0o644); err != nil {
		return nil, err
	}
	if err := r.reset(); err != nil {
		return nil, err
	}
	e, err := engine.New(ctx, engine.Options{Root: r.root, Home: filepath.Join(r.root, "home"),
		Settings: engine.Settings{Exclude: []string{"run_shell_command(rm)"}, ApprovalMode: engine.ApprovalYolo}})
	if err != nil {
		return nil, err
	}
	r.eng = e
	return r, nil
}

// reset empties the root and gives it a few files commands look for.
func (r *Runner) reset() error {
	if err := os.RemoveAll(r.root); err != nil {
		return err
	}
	for _, d := range []string{"home", "tmp", "src", "build"} {
		if err := os.MkdirAll(filepath.Join(r.root, d), 0o755); err != nil {
			return err
		}
	}
	for name, content := range map[string]string{"a.txt": "a\nb\n", "src/main.go": "package main\n", "file.txt": "x\n"} {
		if err := os.WriteFile(filepath.Join(r.root, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Run decides command and, when gate allows it, runs it in the jail and
// compares the execs with the segments.
func (r *Runner) Run(ctx context.Context, command string) (*Result, error) {
	res := &Result{}
	in, d, err := r.eng.DecideInput(ctx, engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command}})
	if err != nil {
		res.Decision = "error"
		return res, nil
	}
	res.Decision = d.Decision
	if d.Decision != engine.Allow {
		return res, nil
	}
	names := map[string]bool{}
	for _, s := range in.Shell.Segments {
		for _, n := range []string{s.Program, s.Identity, base(s.ProgramPath)} {
			if n != "" {
				names[n] = true
			}
		}
	}
	for n := range names {
		res.Segments = append(res.Segments, n)
	}
	slices.Sort(res.Segments)
	if res.Skipped = Skip(command); res.Skipped != "" {
		return res, nil
	}
	if err := r.reset(); err != nil {
		return nil, err
	}
	execs, err := r.trace(ctx, command)
	if err != nil {
		return nil, err
	}
	res.Execs = execs
	// A #! script run through env (#!/usr/bin/env node) is two execs in one
	// process: the script (interpreter env), then what env runs on it.
	script := map[int]bool{}
	for _, x := range execs {
		if x.Script != "" && names[base(x.Script)] {
			script[x.PID] = true
			continue
		}
		if script[x.PID] && len(x.Argv) > 1 && slices.ContainsFunc(x.Argv[1:min(3, len(x.Argv))], func(a string) bool { return names[base(a)] }) {
			continue
		}
		if !predicted(x, names) {
			res.Differentials = append(res.Differentials, Differential{Command: command, Program: x.Program, Argv: x.Argv})
		}
	}
	return res, nil
}

func base(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Base(p)
}

// predicted reports whether a segment names the exec: its program, the file
// executed, argv[0] or the script, by base name.
func predicted(x supervise.Exec, names map[string]bool) bool {
	var argv0 string
	if len(x.Argv) > 0 {
		argv0 = x.Argv[0]
	}
	for _, n := range []string{x.Program, x.Exe, argv0, x.Script, x.Loaded} {
		if n != "" && names[base(n)] {
			return true
		}
	}
	return false
}

// trace runs command in bash -c under the supervisor and the confinement,
// and returns the execs its shell made.
func (r *Runner) trace(ctx context.Context, command string) ([]supervise.Exec, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	out, err := os.Create(filepath.Join(r.base, "out"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := exec.Command("/bin/bash", "-c", command)
	cmd.Dir = r.root
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + filepath.Join(r.root, "home"), "BASH_ENV=" + r.bashEnv,
		"TMPDIR=" + filepath.Join(r.root, "tmp"), "LANG=C", "TERM=dumb"}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	spec, err := json.Marshal(confine.Spec{Root: r.root})
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var seen []supervise.Exec
	decide := func(_ context.Context, x supervise.Exec) supervise.Verdict {
		mu.Lock()
		seen = append(seen, x)
		mu.Unlock()
		// The file executed decides (a #! script runs its interpreter,
		// whose own execs come here too); argv[0] is the caller's word.
		if !slices.Contains(Safe, base(x.Exe)) || x.Loaded != "" || x.Truncated {
			return supervise.Verdict{Reason: "not on the safe list"}
		}
		// bash reads BASH_ENV (which disables its kill builtin) unless
		// in POSIX mode.
		if base(x.Exe) == "bash" && slices.ContainsFunc(x.Argv, func(a string) bool { return strings.Contains(a, "posix") }) {
			return supervise.Verdict{Reason: "bash in POSIX mode skips BASH_ENV"}
		}
		return supervise.Verdict{Allow: true}
	}
	tree, err := supervise.Wrap(cmd, r.self, decide, &supervise.Options{Confine: spec, Transparent: r.eng.Transparent()})
	if err != nil {
		return nil, err
	}
	if err := tree.Start(); err != nil {
		return nil, err
	}
	select {
	case <-tree.Done():
	case <-ctx.Done():
		_ = tree.Kill()
		<-tree.Done()
	}
	_, _ = tree.Wait()
	mu.Lock()
	defer mu.Unlock()
	var execs []supervise.Exec
	for _, x := range seen {
		if x.ByShell && !x.Root {
			execs = append(execs, x)
		}
	}
	return execs, nil
}

// ReadCommands reads the "command" of each JSON line of path (lines
// without one, and lines starting with #, are skipped).
func ReadCommands(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var v struct {
			Command string         `json:"command"`
			Tool    string         `json:"tool"`
			Args    map[string]any `json:"args"`
		}
		if json.Unmarshal([]byte(line), &v) != nil {
			continue
		}
		if c, ok := v.Args["command"].(string); ok && v.Tool == engine.ToolShell {
			v.Command = c
		}
		if v.Command != "" {
			out = append(out, v.Command)
		}
	}
	return out, sc.Err()
}

// Mutations derives commands from one: the same command nested in bash -c,
// a subshell, a group, a pipeline, a command substitution, after env and
// after a cd.
func Mutations(command string) []string {
	q := "'" + strings.ReplaceAll(command, "'", `'\''`) + "'"
	return []string{
		"bash -c " + q,
		"(" + command + "\n)",
		"{ " + command + "\n}",
		"true | { " + command + "\n}",
		"echo \"$(" + command + "\n)\"",
		"env GATE_DIFF=1 bash -c " + q,
		"cd src && " + command,
		"eval " + q,
	}
}
