package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/supervise"
)

// Supervision runs every command tree under the exec supervisor
// (Options.Supervise): foreground, background, PTY sessions and
// run_shell_command in a PTY.
type Supervision struct {
	// Self is the gate binary (os.Executable()), started as the tracer
	// helper ("gate __supervise").
	Self string
	// Options tune the supervisor (Transparent, Prefilter, MaxPending...);
	// Options.Confine is filled from Confine.
	Options supervise.Options
	// Confine, when set, confines the tree's writes (applied by the helper
	// before the command starts); nil: no filesystem confinement. An empty
	// Root is the runner's root.
	Confine *confine.Spec
	// Default decides the execs of a call that brings no decider of its
	// own (Request.Exec); nil: such a call is refused.
	Default supervise.Decider
}

// Blocked is an exec the supervisor killed before it ran.
type Blocked struct {
	// Program is the identity of what was about to run (the executed file,
	// a #! script, the program ld.so was asked to load).
	Program string        `json:"program"`
	Argv    []string      `json:"argv"`
	Reasons []BlockReason `json:"reasons"`
	// DecisionID names the exec-time decision in the decision log (whose
	// event names the call's decision), when the decider gives one.
	DecisionID string `json:"decision_id"`
}

// BlockReason is one reason an exec was denied: a code of gate's
// vocabulary (or a policy's own) and its message.
type BlockReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// BlockInfo is what a decider puts in supervise.Verdict.Info for the
// Blocked record of a denied exec.
type BlockInfo struct {
	DecisionID string
	Reasons    []BlockReason
}

func blockedOf(t *supervise.Tree) []Blocked {
	if t == nil {
		return nil
	}
	list, _ := t.Blocked()
	out := make([]Blocked, 0, len(list))
	for _, b := range list {
		bl := Blocked{Program: b.Exec.Program, Argv: b.Exec.Argv, Reasons: []BlockReason{{Code: "denied", Message: b.Reason}}}
		if info, ok := b.Info.(BlockInfo); ok {
			bl.DecisionID = info.DecisionID
			if len(info.Reasons) > 0 {
				bl.Reasons = info.Reasons
			}
		}
		out = append(out, bl)
	}
	return out
}

// blockedText is the value of the text layout's Blocked line.
func blockedText(list []Blocked) string {
	if len(list) == 0 {
		return "(none)"
	}
	parts := make([]string, len(list))
	for i, b := range list {
		msgs := make([]string, len(b.Reasons))
		for j, r := range b.Reasons {
			msgs[j] = r.Message
		}
		parts[i] = fmt.Sprintf("%s (%s): %s", b.Program, strings.Join(b.Argv, " "), strings.Join(msgs, ", "))
	}
	return strings.Join(parts, "; ")
}

// layerReport is what the runner enforces, from its options: static, exec
// when commands are supervised, fs when they are also confined and the
// kernel has Landlock.
func layerReport(opts Options) layers.Report {
	if opts.Layers != nil {
		return *opts.Layers
	}
	r := layers.Report{Active: []string{layers.Static}, Missing: map[string]string{}}
	if opts.Supervise == nil {
		r.Missing[layers.Exec] = "commands are not supervised"
		r.Missing[layers.FS] = "commands are not confined"
		return r
	}
	r.Active = append(r.Active, layers.Exec)
	r.Confine = confine.Probe()
	switch {
	case opts.Supervise.Confine == nil:
		r.Missing[layers.FS] = "commands are not confined"
	case !r.Confine.Active():
		r.Missing[layers.FS] = "not available: " + strings.Join(r.Confine.Missing, "; ")
	default:
		r.Active = append(r.Active, layers.FS)
	}
	return r
}

// checkLayers refuses to run when a required layer is not active.
func (r *Runner) checkLayers() error { return r.layers.Check(r.opts.Require) }

// decider is the call's exec decider, or the default; with supervision on
// and neither, the call does not run.
func (r *Runner) decider(d supervise.Decider) (supervise.Decider, error) {
	if r.opts.Supervise == nil {
		return nil, nil
	}
	if d == nil {
		d = r.opts.Supervise.Default
	}
	if d == nil {
		return nil, &layers.MissingError{Layer: layers.Exec, Reason: "the call came without an exec decider, and commands run only supervised"}
	}
	return d, nil
}

// supervised wraps a prepared command (SysProcAttr set) under the
// supervisor: its SysProcAttr gets a mount namespace of its own when
// the tree is confined. Without supervision it returns nil.
func (r *Runner) supervised(cmd *exec.Cmd, d supervise.Decider) (*supervise.Tree, error) {
	if r.opts.Supervise == nil {
		return nil, nil
	}
	if r.confineSpec != nil {
		cmd.SysProcAttr = confine.SysProcAttr(cmd.SysProcAttr)
	}
	opts := r.opts.Supervise.Options
	opts.Confine = r.confineSpec
	return supervise.Wrap(cmd, r.opts.Supervise.Self, d, &opts)
}

// prepareSupervision checks the supervision options and encodes the
// confinement spec the helper applies.
func (r *Runner) prepareSupervision() error {
	s := r.opts.Supervise
	if s == nil {
		return nil
	}
	if ok, why := supervise.Available(); !ok {
		return fmt.Errorf("%w: %s", supervise.ErrUnavailable, why)
	}
	if s.Self == "" {
		return errors.New("supervision: no helper binary (Self)")
	}
	if s.Confine != nil {
		spec := *s.Confine
		if spec.Root == "" {
			spec.Root = r.resolver.Root()
		}
		spec.ParentMountNS = confine.ParentMountNS()
		if confine.Probe().UserNS {
			spec.AsUser = &confine.IDs{UID: os.Getuid(), GID: os.Getgid()}
		}
		b, err := json.Marshal(spec)
		if err != nil {
			return err
		}
		r.confineSpec = b
	}
	return nil
}

// group is a running command tree: under the supervisor (t set), or a
// plain process group.
type group struct {
	pgid int
	t    *supervise.Tree
}

// alive reports whether any process of the tree (or group) is left.
func (g group) alive() bool {
	if g.t != nil {
		select {
		case <-g.t.Done():
			return false
		default:
			return true
		}
	}
	return groupAlive(g.pgid)
}

// members lists the live processes (the helper excluded).
func (g group) members() []int {
	if g.t != nil {
		pids, _ := g.t.PIDs()
		return pids
	}
	return groupMembers(g.pgid)
}

// gone waits up to d for the tree to end and reports whether it did.
func (g group) gone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	if g.t != nil {
		select {
		case <-g.t.Done():
		case <-time.After(d):
			return false
		}
		// The helper is gone; the tracees it killed as it died may still
		// be exiting: wait for those of its process group.
		for len(groupMembers(g.pgid)) > 0 {
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(5 * time.Millisecond)
		}
		return true
	}
	for groupAlive(g.pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// stop ends the tree: SIGTERM to every process, then, after grace, SIGKILL
// (the helper's death kills every traced process, setsid or double-forked
// ones included). It returns when the tree is gone, or after a bounded
// wait.
func (g group) stop(grace time.Duration) {
	if g.t != nil {
		if !g.alive() {
			return
		}
		// The helper's death kills the tracees asynchronously: wait for
		// the processes known now, so that none is left when stop returns.
		pids, _ := g.t.PIDs()
		defer waitPIDs(pids, 5*time.Second)
		_ = g.t.Signal(syscall.SIGTERM)
		_ = terminateGroup(g.pgid) // the root's group too, should the helper be slow to relay
		if g.gone(grace) {
			return
		}
		_ = g.t.Kill()
		g.gone(5 * time.Second)
		return
	}
	if !terminateGroup(g.pgid) {
		return
	}
	if g.gone(grace) {
		return
	}
	killGroup(g.pgid)
	g.gone(time.Second)
}

// kill ends the tree at once.
func (g group) kill() {
	if g.t != nil {
		pids, _ := g.t.PIDs()
		_ = g.t.Kill()
		g.gone(5 * time.Second)
		waitPIDs(pids, 5*time.Second)
		return
	}
	if killGroup(g.pgid) {
		g.gone(time.Second)
	}
}

// waitStatus is how the root command ended: from the supervisor, or from
// cmd.Wait.
func waitStatus(cmd *exec.Cmd, t *supervise.Tree) (supervise.Status, error) {
	if t != nil {
		return t.Wait()
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if sig := waitSignal(ee); sig != 0 {
			return supervise.Status{ExitCode: -1, Signal: syscall.Signal(sig)}, nil
		}
		return supervise.Status{ExitCode: ee.ExitCode()}, nil
	}
	if err != nil {
		return supervise.Status{ExitCode: -1}, err
	}
	return supervise.Status{ExitCode: cmd.ProcessState.ExitCode()}, nil
}

// codes turns a status into the exit code and signal of results.
func codes(st supervise.Status, err error) (code, sig *int) {
	if err != nil {
		return nil, nil
	}
	if st.Signal != 0 {
		s := int(st.Signal)
		return nil, &s
	}
	if st.ExitCode >= 0 {
		c := st.ExitCode
		return &c, nil
	}
	return nil, nil
}

// DefaultWritable are the paths outside the root that confined commands
// may write besides the temp dir, so that builds and tests work: the
// user's cache directory (~/.cache: GOCACHE, pip, ...), GOCACHE,
// GOMODCACHE and GOPATH (default ~/go), ~/.npm and ~/.cargo. Only existing
// directories are listed (a missing one cannot be created under
// confinement). getenv is os.Getenv in gate.
func DefaultWritable(getenv func(string) string) []string {
	home, _ := os.UserHomeDir()
	var cands []string
	if d, err := os.UserCacheDir(); err == nil {
		cands = append(cands, d)
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE"} {
		if v := getenv(k); v != "" && v != "off" {
			cands = append(cands, v)
		}
	}
	if gp := getenv("GOPATH"); gp != "" {
		cands = append(cands, filepath.SplitList(gp)...)
	} else if home != "" {
		cands = append(cands, filepath.Join(home, "go"))
	}
	if home != "" {
		cands = append(cands, filepath.Join(home, ".npm"), filepath.Join(home, ".cargo"))
	}
	var out []string
	for _, c := range cands {
		if !filepath.IsAbs(c) || slices.Contains(out, c) {
			continue
		}
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			out = append(out, c)
		}
	}
	return out
}

// waitPIDs waits, up to d, until none of pids is a live process.
func waitPIDs(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for _, p := range pids {
		for pidLive(p) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
}
