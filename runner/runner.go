package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/supervise"
)

// Defaults of Options.
const (
	DefaultKillGrace   = time.Second
	DefaultOutputDelay = 200 * time.Millisecond
	DefaultPager       = "cat"
)

// Options configure a Runner.
type Options struct {
	// Root is the workspace root; commands run there or in a directory
	// inside it.
	Root string
	// Env is the environment commands start from; nil means gate's own.
	Env []string
	// Pager becomes PAGER and GIT_PAGER (tools.shell.pager); empty means
	// DefaultPager.
	Pager string
	// ShowColor lets programs colour their output (tools.shell.showColor);
	// otherwise NO_COLOR=1 and TERM=dumb ask them not to.
	ShowColor bool
	// MaxOutput bounds what is kept of each stream, in bytes; zero means
	// DefaultMaxOutput.
	MaxOutput int
	// DefaultTimeout applies to foreground calls that give none; zero
	// means DefaultTimeout. Timeouts are capped at MaxTimeout.
	DefaultTimeout time.Duration
	// KillGrace is how long a process group has between SIGTERM and
	// SIGKILL; zero means DefaultKillGrace.
	KillGrace time.Duration
	// OutputDelay is how long output is still read after the shell exits
	// (background jobs may hold the pipes open); zero means
	// DefaultOutputDelay.
	OutputDelay time.Duration
	// IdleTimeout ends interactive sessions without input or output for
	// that long; zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// NoPTY makes interactive sessions run on pipes, as when no
	// pseudo-terminal can be opened.
	NoPTY bool
	// Sessions bound interactive sessions: how many run, their size, how
	// many ended ones are kept and for how long.
	Sessions SessionLimits
	// Interactive runs foreground commands in a pseudo-terminal
	// (tools.shell.enableInteractiveShell) of Rows x Cols; their output is
	// the text the terminal shows.
	Interactive bool
	Rows, Cols  int
	// Supervise, when set, runs every command (foreground, background,
	// PTY sessions and run_shell_command in a PTY) under the exec
	// supervisor, and confines its writes when Supervise.Confine is set.
	Supervise *Supervision
	// Layers, when set, are the enforcement layers results report;
	// otherwise the runner reports what its options enforce.
	Layers *layers.Report
	// Require lists layers that must be active: otherwise no command runs
	// (a *layers.MissingError).
	Require []string
}

var errNoPTY = errors.New("pseudo-terminals are not available")

// Runner runs shell commands. It is safe for concurrent use.
type Runner struct {
	opts     Options
	resolver *fstools.Resolver
	env      []string
	tmp      string // confined commands' temp dir, removed by Close
	bg       *Background
	sessions *Sessions

	layers      layers.Report
	confineSpec []byte // the helper's confinement spec (JSON), nil for none

	mu      sync.Mutex
	running map[int]group // foreground command trees, by process group
}

// New returns a runner for the root in opts.
func New(opts Options) (*Runner, error) {
	if opts.Root == "" {
		opts.Root = "."
	}
	res, err := fstools.NewResolver(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	opts.DefaultTimeout = min(opts.DefaultTimeout, MaxTimeout)
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
	}
	if opts.OutputDelay <= 0 {
		opts.OutputDelay = DefaultOutputDelay
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if opts.Pager == "" {
		opts.Pager = DefaultPager
	}
	r := &Runner{opts: opts, resolver: res, running: map[int]group{}}
	if err := r.prepareSupervision(); err != nil {
		return nil, err
	}
	// Confined commands are in a Landlock domain, which may not read or
	// trace a process outside it: gate. Otherwise gate shields itself. (A
	// non-dumpable gate could not start a helper in a user namespace of
	// its own: the helper's uid_map would not be gate's to write.)
	if r.confineSpec == nil || !confine.Probe().Active() {
		if err := shield(); err != nil {
			return nil, fmt.Errorf("making gate unreadable by the commands it runs: %w", err)
		}
	}
	r.layers = layerReport(opts)
	r.env = buildEnv(opts)
	if opts.Supervise != nil && opts.Supervise.Confine != nil {
		// Confined commands write temporary files in a directory of their
		// own, not in the shared temp dir: a workspace or another user's
		// files under /tmp stay out of reach.
		dir, err := os.MkdirTemp("", "gate-tmp-")
		if err != nil {
			return nil, fmt.Errorf("a temporary directory for confined commands: %w", err)
		}
		r.tmp = dir
		r.env = setEnv(r.env, map[string]string{"TMPDIR": dir, "TMP": dir, "TEMP": dir})
	}
	r.bg = newBackground(opts.KillGrace)
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	r.sessions = &Sessions{r: r, idleTimeout: opts.IdleTimeout, limits: opts.Sessions.withDefaults(), m: map[string]*Session{}}
	return r, nil
}

// Interactive reports whether foreground commands run in a pseudo-terminal.
func (r *Runner) Interactive() bool { return r.opts.Interactive }

// Sessions returns the interactive sessions.
func (r *Runner) Sessions() *Sessions { return r.sessions }

// ptyEnv is the environment of commands in a pseudo-terminal: a real
// terminal type, colours as showColor says.
func (r *Runner) ptyEnv() []string {
	env := make([]string, 0, len(r.env))
	for _, kv := range r.env {
		if !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color")
}

// Layers returns the enforcement layers the runner's commands run under.
func (r *Runner) Layers() layers.Report { return r.layers }

// Root returns the resolved workspace root.
func (r *Runner) Root() string { return r.resolver.Root() }

// Background returns the registry of background processes.
func (r *Runner) Background() *Background { return r.bg }

// buildEnv is the environment of every command: the base environment
// without gate's own variables, with gate's variables set (replacing any
// inherited value).
func buildEnv(opts Options) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	set := map[string]string{
		"QWEN_CODE": "1",
		"GATE":      "1",
		"PAGER":     opts.Pager,
		"GIT_PAGER": opts.Pager,
	}
	drop := map[string]bool{}
	if opts.ShowColor {
		set["TERM"] = "xterm-256color"
		set["CLICOLOR_FORCE"] = "1"
		set["FORCE_COLOR"] = "1"
		drop["NO_COLOR"] = true
	} else {
		set["TERM"] = "dumb"
		set["NO_COLOR"] = "1"
		drop["CLICOLOR_FORCE"] = true
		drop["FORCE_COLOR"] = true
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; ok || drop[k] || GateVariable(k) {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range []string{"QWEN_CODE", "GATE", "PAGER", "GIT_PAGER", "TERM", "NO_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR"} {
		if v, ok := set[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// GateVariable reports whether an environment variable is gate's own
// (GATE_*: its bearer token, the OPA server's token, token files, its
// configuration). Commands never inherit them: a command that could read
// GATE_TOKEN could approve its own calls through gate's API.
func GateVariable(name string) bool { return strings.HasPrefix(strings.ToUpper(name), "GATE_") }

// Dir resolves a directory argument: relative to the root, symlinks
// followed, and it must be a directory inside the root.
func (r *Runner) Dir(directory string) (string, error) {
	if directory == "" {
		return r.resolver.Root(), nil
	}
	info := r.resolver.Resolve("", directory)
	if !info.InsideRoot {
		return "", &ArgError{"directory", fmt.Sprintf("Directory %q is not within the workspace root %s", directory, r.resolver.Root())}
	}
	if !info.Exists {
		return "", &ArgError{"directory", fmt.Sprintf("Directory %q does not exist", directory)}
	}
	if !info.Dir {
		return "", &ArgError{"directory", fmt.Sprintf("Directory %q is not a directory", directory)}
	}
	return info.Resolved, nil
}

// pipe starts copying a new pipe's read end into w and returns the write end
// for the child and a function that finishes the copy: it waits up to delay
// for the end of the output, then takes what the pipe holds and gives up on
// writers still holding it (jobs left running in the background).
func pipe(w io.Writer) (*os.File, func(delay time.Duration), error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := pr.Read(buf)
			if n > 0 {
				_, _ = w.Write(buf[:n])
			}
			if err != nil {
				if errors.Is(err, os.ErrDeadlineExceeded) {
					drain(pr, w)
				}
				return
			}
		}
	}()
	finish := func(delay time.Duration) {
		select {
		case <-done:
		case <-time.After(delay):
			if pr.SetReadDeadline(time.Now()) != nil {
				_ = pr.Close() // no deadlines on this platform's pipes
			}
			<-done
		}
		_ = pr.Close()
	}
	return pw, finish, nil
}

// started is a command started by start.
type started struct {
	cmd    *exec.Cmd
	tree   *supervise.Tree // nil when not supervised
	finish func(time.Duration)
}

func (s *started) group() group { return group{pgid: s.cmd.Process.Pid, t: s.tree} }

func (s *started) wait() (supervise.Status, error) { return waitStatus(s.cmd, s.tree) }

// start starts a command with its output going to stdout and stderr, under
// the supervisor when the runner has one (d decides its execs).
func (r *Runner) start(command, dir string, d supervise.Decider, stdout, stderr io.Writer) (*started, error) {
	cmd := shellCommand(command)
	cmd.Dir = dir
	cmd.Env = r.env
	tree, err := r.supervised(cmd, d)
	if err != nil {
		return nil, err
	}
	ow, finishOut, err := pipe(stdout)
	if err != nil {
		if tree != nil {
			tree.Close()
		}
		return nil, err
	}
	ew, finishErr, err := pipe(stderr)
	if err != nil {
		ow.Close()
		finishOut(0)
		if tree != nil {
			tree.Close()
		}
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = ow, ew
	if tree != nil {
		err = tree.Start()
	} else {
		err = cmd.Start()
	}
	ow.Close()
	ew.Close()
	finish := func(delay time.Duration) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { finishOut(delay); wg.Done() }()
		go func() { finishErr(delay); wg.Done() }()
		wg.Wait()
	}
	if err != nil {
		finish(0)
		return nil, err
	}
	return &started{cmd: cmd, tree: tree, finish: finish}, nil
}

// Run runs a call. Foreground calls return when the shell exits (or is
// killed at its timeout or when ctx ends); background calls return once the
// process started. An *ArgError reports a bad directory; a
// *layers.MissingError a required enforcement layer that is not active (or,
// under supervision, a call without an exec decider): nothing ran. A
// command that cannot be started is a Result with Error set.
func (r *Runner) Run(ctx context.Context, req Request) (*Result, error) {
	dir, err := r.Dir(req.Directory)
	if err != nil {
		return nil, err
	}
	if err := r.checkLayers(); err != nil {
		return nil, err
	}
	d, err := r.decider(req.Exec)
	if err != nil {
		return nil, err
	}
	if req.IsBackground {
		return r.runBackground(req, dir, d)
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = r.opts.DefaultTimeout
	}
	timeout = min(timeout, MaxTimeout)
	if r.opts.Interactive {
		return r.runPTY(ctx, req, timeout, d)
	}
	res := r.newResult(req)
	if err := ctx.Err(); err != nil {
		res.Cancelled = true
		res.Error = "Command was cancelled before it could start."
		return res, nil
	}
	stdout := newCapture(r.opts.MaxOutput, true)
	stderr := newCapture(r.opts.MaxOutput, true)
	begun := time.Now()
	st, err := r.start(req.Command, dir, d, stdout, stderr)
	if err != nil {
		res.Error = "Command could not be started: " + err.Error()
		return res, nil
	}
	g := st.group()
	pgid := g.pgid
	res.PGID = pgid
	r.mu.Lock()
	r.running[pgid] = g
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.running, pgid)
		r.mu.Unlock()
	}()

	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	exited := make(chan struct{})
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		select {
		case <-exited:
			return
		case <-tctx.Done():
		}
		g.stop(r.opts.KillGrace)
	}()
	status, waitErr := st.wait()
	close(exited)
	ended := tctx.Err()
	if ended == nil {
		// The command finished: what is left of its tree (or group) runs
		// on in the background, as the command asked with &.
		if g.alive() {
			res.BackgroundPIDs = append(res.BackgroundPIDs, g.members()...)
		}
		if len(res.BackgroundPIDs) > 0 {
			r.bg.adopt(g, res.BackgroundPIDs, req)
		}
	}
	<-killed
	st.finish(r.opts.OutputDelay)
	res.Duration = time.Since(begun)
	res.Stdout, res.StdoutTruncated = stdout.snapshot()
	res.Stderr, res.StderrTruncated = stderr.snapshot()
	res.ExitCode, res.Signal = codes(status, waitErr)
	if waitErr != nil && res.Error == "" {
		res.Error = waitErr.Error()
	}
	res.Blocked = blockedOf(st.tree)
	switch {
	case errors.Is(ended, context.DeadlineExceeded) && ctx.Err() == nil:
		res.TimedOut = true
		res.Error = fmt.Sprintf("Command timed out after %dms before it could complete.", timeout.Milliseconds())
	case ended != nil:
		res.Cancelled = true
		res.Error = "Command was cancelled before it could complete."
	}
	return res, nil
}

// newResult is an empty result for req, with the runner's layers.
func (r *Runner) newResult(req Request) *Result {
	res := &Result{Command: req.Command, Directory: req.Directory, BackgroundPIDs: []int{}, Blocked: []Blocked{},
		Layers: slices.Clone(r.layers.Active)}
	if len(r.layers.Missing) > 0 {
		res.LayersMissing = maps.Clone(r.layers.Missing)
	}
	return res
}

// runBackground starts a background call and registers it.
func (r *Runner) runBackground(req Request, dir string, d supervise.Decider) (*Result, error) {
	p := &Process{
		Command:     req.Command,
		Description: strings.TrimSpace(req.Description + " [background]"),
		Directory:   req.Directory,
		stdout:      newCapture(r.opts.MaxOutput, false),
		stderr:      newCapture(r.opts.MaxOutput, false),
		done:        make(chan struct{}),
	}
	res := r.newResult(req)
	res.Background = true
	st, err := r.start(req.Command, dir, d, p.stdout, p.stderr)
	if err != nil {
		res.Error = "Command could not be started: " + err.Error()
		return res, nil
	}
	p.grp = st.group()
	p.PID = p.grp.pgid
	p.Started = time.Now()
	r.bg.add(p)
	go func() {
		status, err := st.wait()
		r.bg.exited(p, status, err)
		// Output of the whole tree is kept until its last writer is gone.
		st.finish(24 * time.Hour)
	}()
	res.PGID = p.PID
	res.BackgroundPIDs = []int{p.PID}
	return res, nil
}

// Shutdown stops every foreground command and background process group
// and waits until they are gone or ctx ends.
func (r *Runner) Shutdown(ctx context.Context) {
	r.mu.Lock()
	groups := make([]group, 0, len(r.running))
	for _, g := range r.running {
		groups = append(groups, g)
	}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.stop(r.opts.KillGrace)
		}()
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.bg.StopAll()
	}()
	go func() {
		defer wg.Done()
		r.sessions.KillAll()
	}()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		r.Close()
	case <-ctx.Done():
	}
}

// Close removes the temporary directory of confined commands. Call it once
// no command runs any more (Shutdown does).
func (r *Runner) Close() error {
	if r.tmp == "" {
		return nil
	}
	return os.RemoveAll(r.tmp)
}

// TempDir is where confined commands write temporary files (TMPDIR), or ""
// when they use the shared temp dir.
func (r *Runner) TempDir() string { return r.tmp }

// setEnv sets variables in env, replacing inherited values.
func setEnv(env []string, set map[string]string) []string {
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+set[k])
	}
	return out
}

// ptyScrollback is how many lines of a command run in a pseudo-terminal its
// result keeps.
const ptyScrollback = 2000

// runPTY runs a foreground command in a pseudo-terminal, as Qwen Code does
// with enableInteractiveShell, and returns what the terminal shows.
func (r *Runner) runPTY(ctx context.Context, req Request, timeout time.Duration, d supervise.Decider) (*Result, error) {
	res := r.newResult(req)
	started := time.Now()
	s, err := r.sessions.start(SessionRequest{Command: req.Command, Directory: req.Directory, Rows: r.opts.Rows, Cols: r.opts.Cols, Exec: d}, false, ptyScrollback)
	if err != nil {
		var ae *ArgError
		if errors.As(err, &ae) {
			return nil, err
		}
		res.Error = "Command could not be started: " + err.Error()
		return res, nil
	}
	res.PGID = s.PID
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !s.Wait(tctx) {
		s.Kill("killed")
		if ctx.Err() == nil {
			res.TimedOut = true
			res.Error = fmt.Sprintf("Command timed out after %dms before it could complete.", timeout.Milliseconds())
		} else {
			res.Cancelled = true
			res.Error = "Command was cancelled before it could complete."
		}
	}
	sc := s.Screen(false)
	res.Stdout = sc.Text
	if res.Stdout != "" {
		res.Stdout += "\n"
	}
	if s.Notice != "" {
		res.Stderr = "gate: " + s.Notice + "\n"
	}
	res.ExitCode, res.Signal = sc.ExitCode, sc.Signal
	res.Blocked = s.blocked()
	res.Duration = time.Since(started)
	return res, nil
}
