package supervise

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
)

// Tree is a command running under a supervisor helper. Its methods are
// safe for concurrent use.
type Tree struct {
	cmd    *exec.Cmd
	conn   *os.File // the parent's end of the socket
	child  *os.File // the helper's end, closed once it started
	vconn  *os.File // the parent's end of the verdict socket
	vchild *os.File // the helper's end
	decide Decider
	opts   Options
	cfg    config

	ctx    context.Context
	cancel context.CancelFunc
	wmu    sync.Mutex

	attached atomic.Bool
	started  chan struct{}
	startErr error
	rootPID  int

	rootDone  chan struct{}
	rootOnce  sync.Once
	status    Status
	statusErr error

	helperExited chan struct{}
	helperErr    error
	done         chan struct{}

	pidsMu sync.Mutex
	pidsCh chan []int

	pending atomic.Int64
	mu      sync.Mutex
	blocked []Blocked
	dropped int
}

// Wrap rewrites a prepared, not yet started cmd so that it runs under a
// supervisor helper: self (the gate binary, os.Executable()) started as
// "self __supervise", which starts the original Path and Args with the
// same environment, directory, standard files and extra files, and asks d
// about every exec in the command's tree. cmd's SysProcAttr (Setpgid,
// Setsid, Setctty) applies to the helper, and the command inherits it: the
// helper leads the process group or session, the command is in it.
//
// Start the command with Tree.Start, or start cmd yourself (pty.Start) and
// call Tree.Attach. Then wait with Tree.Wait (the root command), not
// cmd.Wait: the helper lives on while processes the command left behind
// run, and the Tree reaps it. Killing the helper (Tree.Kill, a SIGKILL to
// its process group, a CommandContext's end) kills every process of the
// tree, whatever its process group or session.
func Wrap(cmd *exec.Cmd, self string, d Decider, opts *Options) (*Tree, error) {
	if ok, why := Available(); !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, why)
	}
	switch {
	case cmd.Process != nil:
		return nil, errors.New("supervise: command already started")
	case cmd.Err != nil:
		return nil, cmd.Err
	case d == nil:
		return nil, errors.New("supervise: no decider")
	case self == "":
		return nil, errors.New("supervise: no helper binary")
	}
	t := &Tree{cmd: cmd, decide: d, started: make(chan struct{}), rootDone: make(chan struct{}),
		helperExited: make(chan struct{}), done: make(chan struct{}), pidsCh: make(chan []int, 1)}
	if opts != nil {
		t.opts = *opts
	}
	if t.opts.MaxPending <= 0 {
		t.opts.MaxPending = DefaultMaxPending
	}
	if t.opts.MaxBlocked <= 0 {
		t.opts.MaxBlocked = DefaultMaxBlocked
	}
	var err error
	if t.conn, t.child, err = socketPair(syscall.SOCK_STREAM); err != nil {
		return nil, fmt.Errorf("supervise: %w", err)
	}
	if t.vconn, t.vchild, err = socketPair(syscall.SOCK_SEQPACKET); err != nil {
		t.conn.Close()
		t.child.Close()
		return nil, fmt.Errorf("supervise: %w", err)
	}
	args := cmd.Args
	if len(args) == 0 {
		args = []string{cmd.Path}
	}
	t.cfg = config{Path: cmd.Path, Args: args, ExtraFiles: len(cmd.ExtraFiles),
		DecideRoot: t.opts.DecideRoot, Confine: t.opts.Confine, Transparent: t.opts.Transparent}
	if pf := t.opts.Prefilter; pf != nil {
		t.cfg.Prefilter, t.cfg.AskNames, t.cfg.AskByShell = true, pf.Names, pf.ByShell
	}
	cmd.Path = self
	cmd.Args = []string{self, HelperArg}
	cmd.ExtraFiles = append([]*os.File{t.child, t.vchild}, cmd.ExtraFiles...)
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t, nil
}

// Start starts the command and attaches to it (cmd.Start, then Attach).
func (t *Tree) Start() error {
	if err := t.cmd.Start(); err != nil {
		t.Close()
		return err
	}
	return t.Attach()
}

// Attach begins supervising once cmd was started (by Start, or by the
// caller, as pty.Start does). It returns when the command runs, or with
// the reason it could not start (then the helper has exited).
func (t *Tree) Attach() error {
	if t.cmd.Process == nil {
		return errors.New("supervise: command not started")
	}
	if t.attached.Swap(true) {
		return errors.New("supervise: already attached")
	}
	t.child.Close()
	t.vchild.Close()
	go func() {
		t.helperErr = t.cmd.Wait()
		close(t.helperExited)
	}()
	go t.readLoop()
	if err := t.send(encodeConfig(t.cfg)); err != nil {
		_ = t.cmd.Process.Kill()
	}
	<-t.started
	return t.startErr
}

// Close releases a Tree whose command was never started.
func (t *Tree) Close() {
	if !t.attached.Load() {
		t.child.Close()
		t.conn.Close()
		t.vchild.Close()
		t.vconn.Close()
		t.cancel()
	}
}

// Wait waits for the root command to end and returns how it ended. Its
// background processes may still run (PIDs lists them, Done tells when
// they are gone). An error means the supervisor failed: the command's
// status is unknown.
func (t *Tree) Wait() (Status, error) {
	if !t.attached.Load() {
		return Status{}, errors.New("supervise: command not started")
	}
	<-t.rootDone
	return t.status, t.statusErr
}

// Done is closed when the helper has exited: every process of the tree
// has ended.
func (t *Tree) Done() <-chan struct{} { return t.done }

// HelperPID is the helper's process ID: the process group (or session)
// leader when cmd asked for one. 0 before the start.
func (t *Tree) HelperPID() int {
	if t.cmd.Process == nil {
		return 0
	}
	return t.cmd.Process.Pid
}

// RootPID is the process ID of the command itself, once started.
func (t *Tree) RootPID() int {
	select {
	case <-t.started:
		return t.rootPID
	default:
		return 0
	}
}

// Kill kills the helper and, with it, every process of the tree.
func (t *Tree) Kill() error {
	if t.cmd.Process == nil {
		return errors.New("supervise: command not started")
	}
	err := t.cmd.Process.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

// Signal sends sig to every live process of the tree (a graceful stop
// before Kill, say), whatever its process group.
func (t *Tree) Signal(sig syscall.Signal) error {
	e := newEnc(msgSignal)
	e.int(int(sig))
	return t.send(e.frame())
}

// PIDs lists the live processes of the tree (the helper excluded); nil
// once the tree is gone.
func (t *Tree) PIDs() ([]int, error) {
	t.pidsMu.Lock()
	defer t.pidsMu.Unlock()
	select {
	case <-t.done:
		return nil, nil
	default:
	}
	if err := t.send(newEnc(msgPIDs).frame()); err != nil {
		return nil, err
	}
	select {
	case l := <-t.pidsCh:
		return l, nil
	case <-t.done:
		return nil, nil
	}
}

// Blocked returns the execs denied so far (at most Options.MaxBlocked)
// and how many more were denied but not kept.
func (t *Tree) Blocked() ([]Blocked, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Blocked(nil), t.blocked...), t.dropped
}

func (t *Tree) send(frame []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.conn.Write(frame)
	return err
}

func (t *Tree) endRoot(s Status, err error) {
	t.rootOnce.Do(func() {
		t.status, t.statusErr = s, err
		close(t.rootDone)
	})
}

// readLoop serves the helper until it exits, then settles whatever it
// left unsaid.
func (t *Tree) readLoop() {
	startedOnce := sync.OnceFunc(func() { close(t.started) })
	var failure error
	r := bufio.NewReaderSize(t.conn, 64<<10)
	var buf []byte
	for failure == nil {
		typ, p, b, err := readFrame(r, buf)
		buf = b
		if err != nil {
			break // EOF: the helper exited
		}
		switch typ {
		case msgStarted:
			if t.rootPID, err = decodeInt(p); err == nil {
				startedOnce()
			}
		case msgFailed:
			var msg string
			if msg, err = decodeText(p); err == nil {
				failure = errors.New(msg)
			}
		case msgExec:
			var m execMsg
			if m, err = decodeExec(p); err == nil {
				m.Exec.Live = true
				go t.decideExec(m)
			}
		case msgAllowed:
			var m execMsg
			if m, err = decodeExec(p); err == nil && t.opts.Observe != nil {
				t.opts.Observe(m.Exec)
			}
		case msgExit:
			var ws int
			if ws, err = decodeInt(p); err == nil {
				t.endRoot(statusOf(ws), nil)
			}
		case msgPIDList:
			var l []int
			if l, err = decodeInts(p); err == nil {
				select {
				case t.pidsCh <- l:
				default:
				}
			}
		default:
			err = fmt.Errorf("%w: unexpected type %d", errFrame, typ)
		}
		if err != nil {
			// A helper that speaks nonsense is not trusted with the tree.
			failure = fmt.Errorf("supervisor protocol: %w", err)
			_ = t.cmd.Process.Kill()
		}
	}
	<-t.helperExited
	t.conn.Close()
	t.vconn.Close()
	select {
	case <-t.started:
	default:
		if failure == nil {
			failure = fmt.Errorf("supervisor exited before the command started: %v", t.helperErr)
		}
		t.startErr = failure
		startedOnce()
	}
	switch {
	case failure != nil:
		t.endRoot(Status{ExitCode: -1}, failure)
	case t.cmd.ProcessState != nil && helperSignal(t.cmd.ProcessState) != 0:
		// The helper was killed: so was the command (PTRACE_O_EXITKILL).
		t.endRoot(Status{ExitCode: -1, Signal: syscall.SIGKILL}, nil)
	default:
		t.endRoot(Status{ExitCode: -1}, fmt.Errorf("supervisor ended (%v) before the command", t.helperErr))
	}
	t.cancel()
	close(t.done)
}

func (t *Tree) decideExec(m execMsg) {
	n := t.pending.Add(1)
	defer t.pending.Add(-1)
	var v Verdict
	switch {
	case n > int64(t.opts.MaxPending):
		v.Reason = fmt.Sprintf("more than %d execs wait for a decision", t.opts.MaxPending)
	case m.Exec.Truncated:
		v.Reason = fmt.Sprintf("its arguments are longer than %d bytes", maxArgv)
	case m.Exec.Exe == "":
		v.Reason = "the executed file could not be read"
	default:
		v = t.call(m.Exec)
	}
	if !v.Allow {
		if v.Reason == "" {
			v.Reason = "denied"
		}
		t.mu.Lock()
		if len(t.blocked) < t.opts.MaxBlocked {
			t.blocked = append(t.blocked, Blocked{Exec: m.Exec, Reason: v.Reason, Info: v.Info})
		} else {
			t.dropped++
		}
		t.mu.Unlock()
	}
	// One packet on the verdict socket, which the helper's tracer thread
	// reads itself.
	_, _ = t.vconn.Write(encodeVerdict(verdictMsg{Seq: m.Seq, Allow: v.Allow}))
}

// call runs the decider; a panic is a deny.
func (t *Tree) call(e Exec) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Reason: fmt.Sprintf("exec decision failed: %v", r)}
		}
	}()
	return t.decide(t.ctx, e)
}
