//go:build linux

package supervise

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// traceOptions are set on the root and inherited by every process and
// thread it creates.
const traceOptions = unix.PTRACE_O_TRACEEXEC | unix.PTRACE_O_TRACEFORK |
	unix.PTRACE_O_TRACEVFORK | unix.PTRACE_O_TRACECLONE | unix.PTRACE_O_EXITKILL

// helperFD is the helper's end of the socket, verdictFD its end of the
// verdict socket (SOCK_SEQPACKET, one verdict a packet, read by the tracer
// thread itself); the command's extra files follow them.
const (
	helperFD  = 3
	verdictFD = 4
	firstFD   = 5
)

// pollBackstop bounds how long the tracer, while execs wait for their
// verdict, may miss a wait event: a SIGCHLD that arrives just before it
// sleeps in poll does not interrupt that sleep.
const pollBackstop = 2 // ms

// Exit statuses of the helper when the command did not run.
const (
	exitHelperFailed = 125
	exitCannotRun    = 126
	exitNotFound     = 127
)

// proc is a traced process. Threads of a process share it.
type proc struct {
	pid, ppid, depth int
	program          string // what it runs now (its parent's until it execs)
	parentProgram    string // its parent's program when it forked
	shell            bool   // a copy of the root shell that has not exec'd
	swallowCont      bool   // the SIGCONT the helper sent at attach
}

type helper struct {
	sock *os.File
	r    *bufio.Reader
	wmu  sync.Mutex
	cfg  config

	mu    sync.Mutex
	procs map[int]*proc // by PID; read by the socket reader (PIDs, signals)

	// Owned by the tracer thread.
	threads     map[int]*proc  // by TID
	early       map[int]bool   // new TIDs that stopped before their creator's event
	pending     map[uint64]int // exec seq → TID stopped at it
	pendingTID  map[int]uint64
	seq         uint64
	cmdline     []byte
	askNames    map[string]bool
	transparent map[string]bool

	root       atomic.Int64
	rootDone   bool
	rootStatus unix.WaitStatus
	vbuf       []byte // a verdict packet (and room to see a longer one)
	chld       sigchld
	events     int
	allocs     [1]metrics.Sample // bytes allocated so far
	collected  uint64            // allocs at the last collection
}

// HelperMain runs the helper process: it starts the command the parent
// sends, traces its whole tree and asks the parent about every exec. main
// calls it when os.Args[1] == HelperArg and exits with its result: the
// command's exit status, or the command's signal raised again on the
// helper itself (125 when the helper failed, 126/127 when the command
// could not start).
func HelperMain(opts HelperOptions) int {
	// Every ptrace request must come from the thread that attached.
	runtime.LockOSThread()
	h := &helper{
		sock:       os.NewFile(helperFD, "supervise"),
		procs:      map[int]*proc{},
		threads:    map[int]*proc{},
		early:      map[int]bool{},
		pending:    map[uint64]int{},
		pendingTID: map[int]uint64{},
		vbuf:       make([]byte, 64),
	}
	if h.sock == nil {
		return exitHelperFailed
	}
	syscall.CloseOnExec(helperFD)
	syscall.CloseOnExec(verdictFD)
	if unix.SetNonblock(verdictFD, true) != nil {
		return exitHelperFailed
	}
	h.r = bufio.NewReaderSize(h.sock, 64<<10)
	t, p, _, err := readFrame(h.r, nil)
	if err != nil || t != msgConfig {
		return exitHelperFailed
	}
	if h.cfg, err = decodeConfig(p); err != nil {
		return exitHelperFailed
	}
	h.askNames = map[string]bool{}
	for _, n := range h.cfg.AskNames {
		h.askNames[n] = true
	}
	h.transparent = map[string]bool{}
	for _, n := range h.cfg.Transparent {
		h.transparent[n] = true
	}
	h.signals()
	h.chld.init()
	// The tracer sleeps in a raw system call (waitIdle): no automatic
	// collection, which would wait for it, and a P for the other
	// goroutines (the socket reader, signals) while it sleeps.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(math.MaxInt64)
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
	h.allocs[0].Name = "/gc/heap/allocs:bytes"
	go h.readLoop()
	return h.run(opts)
}

// send writes a frame; a parent that is gone ends the helper, and with it
// (PTRACE_O_EXITKILL) every traced process.
func (h *helper) send(frame []byte) {
	h.wmu.Lock()
	_, err := h.sock.Write(frame)
	h.wmu.Unlock()
	if err != nil {
		os.Exit(exitHelperFailed)
	}
}

func (h *helper) fail(code int, msg string) int {
	h.send(encodeText(msgFailed, msg))
	return code
}

// readLoop serves the parent's messages on the socket: signals and PID
// lists need no ptrace request and are served here, so that they work
// while the tracer waits. Verdicts come on their own socket, read by the
// tracer thread.
func (h *helper) readLoop() {
	var buf []byte
	for {
		t, p, b, err := readFrame(h.r, buf)
		buf = b
		if err != nil {
			// The parent is gone or broken: nobody decides any more.
			os.Exit(exitHelperFailed)
		}
		switch t {
		case msgSignal:
			sig, err := decodeInt(p)
			if err != nil || sig <= 0 || sig >= 65 {
				os.Exit(exitHelperFailed)
			}
			for _, pid := range h.pids() {
				_ = unix.Kill(pid, syscall.Signal(sig))
			}
		case msgPIDs:
			h.send(encodeInts(msgPIDList, h.pids()))
		default:
			os.Exit(exitHelperFailed)
		}
	}
}

func (h *helper) pids() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	pids := make([]int, 0, len(h.procs))
	for pid := range h.procs {
		pids = append(pids, pid)
	}
	return pids
}

// signals keeps the helper alive through the signals a terminal or a
// process-group kill sends: SIGKILL is the only signal that ends the tree
// at once (PTRACE_O_EXITKILL). SIGHUP goes on to the root (the helper is
// the session leader that a hang-up reaches); SIGTERM, SIGINT and SIGQUIT
// go on to the root only when it left the helper's process group (a group
// kill reached it otherwise). The handlers are Go's, so the command starts
// with these signals at their defaults; signals the helper inherited as
// ignored stay ignored for the command too.
//
// SIGCHLD is not notified: every wait event of a tracee sends one, and a
// notification would wake a goroutine for each. loop switches it between
// the default action and Go's handler, which drops it but, delivered to
// the tracer thread (the tracees' ptrace parent), interrupts a poll.
func (h *helper) signals() {
	ch := make(chan os.Signal, 8)
	for _, s := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT,
		syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGPIPE} {
		if !signal.Ignored(s) {
			signal.Notify(ch, s)
		}
	}
	go func() {
		for s := range ch {
			sig := s.(syscall.Signal)
			root := int(h.root.Load())
			if root == 0 {
				continue
			}
			switch sig {
			case syscall.SIGHUP:
				_ = unix.Kill(root, sig)
			case syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT:
				if g, err := unix.Getpgid(root); err == nil && g != unix.Getpgrp() {
					_ = unix.Kill(root, sig)
				}
			}
		}
	}()
}

func (h *helper) run(opts HelperOptions) int {
	cmd := &exec.Cmd{
		Path:        h.cfg.Path,
		Args:        h.cfg.Args,
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Ptrace: true},
	}
	for i := range h.cfg.ExtraFiles {
		f := os.NewFile(uintptr(firstFD+i), "extra")
		if f == nil {
			return h.fail(exitHelperFailed, "extra file "+strconv.Itoa(i)+" is not open")
		}
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	}
	if opts.BeforeStart != nil {
		if err := opts.BeforeStart(h.cfg.Confine, cmd); err != nil {
			return h.fail(exitCannotRun, "confinement: "+err.Error())
		}
	}
	// no process of the tree may leave it (CLONE_UNTRACED) or type into
	// the user's terminal (seccomp_linux.go)
	if err := installSeccomp(); err != nil {
		return h.fail(exitCannotRun, "supervision: "+err.Error())
	}
	if err := cmd.Start(); err != nil {
		code := exitCannotRun
		if errors.Is(err, os.ErrNotExist) {
			code = exitNotFound
		}
		return h.fail(code, err.Error())
	}
	// The helper keeps none of the command's files: a pipe ends when the
	// command's processes close it.
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	nullStdio()
	shortSlice()
	pid := cmd.Process.Pid
	if code, ok := h.attach(pid); !ok {
		return code
	}
	h.loop()
	return h.mirror()
}

// tracerSlice is the scheduler slice the tracer thread asks for: every
// process of the tree that stops for an event waits until the tracer
// runs, and on a busy machine a woken thread with the default slice (a
// few ms) may wait behind a compiler for most of one. A shorter slice
// lets the kernel (EEVDF, Linux 6.12+) run it at once; it is used only to
// handle an event and sleep again.
const tracerSlice = 100_000 // ns, the shortest the kernel accepts

// shortSlice gives the calling thread, the tracer, the short slice. It
// runs after the command started, so the command does not inherit it;
// kernels without custom slices ignore or refuse it, and the tracer then
// runs with the default.
// Its policy and nice value stay as they were.
func shortSlice() {
	attr, err := unix.SchedGetAttr(0, 0)
	if err != nil || (attr.Policy != unix.SCHED_NORMAL && attr.Policy != unix.SCHED_BATCH) {
		return
	}
	attr.Size, attr.Runtime = unix.SizeofSchedAttr, tracerSlice
	_ = unix.SchedSetAttr(0, attr, 0)
}

// nullStdio points the helper's own 0, 1 and 2 at /dev/null.
func nullStdio() {
	fd, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	for i := range 3 {
		_ = unix.Dup3(fd, i, 0)
	}
	_ = unix.Close(fd)
}

// wait4 waits, retrying on EINTR.
func wait4(pid int, ws *unix.WaitStatus, options int) (int, error) {
	for {
		wpid, err := unix.Wait4(pid, ws, options, nil)
		if err != unix.EINTR {
			return wpid, err
		}
	}
}

// attach takes the root from its PTRACE_TRACEME stop after exec to a
// PTRACE_SEIZE, whose group-stop handling (PTRACE_LISTEN) keeps job
// control working: detach with SIGSTOP pending so that no instruction
// runs, wait for the stop, seize with the options, SIGCONT (swallowed).
func (h *helper) attach(pid int) (int, bool) {
	var ws unix.WaitStatus
	if _, err := wait4(pid, &ws, unix.WALL); err != nil {
		return h.fail(exitHelperFailed, "wait: "+err.Error()), false
	}
	if !ws.Stopped() {
		h.rootDone, h.rootStatus = true, ws
		h.send(encodeInt(msgExit, int(ws)))
		return h.mirror(), false
	}
	e := h.readExec(pid)
	e.PID, e.Root = pid, true
	h.send(encodeInt(msgStarted, pid))
	if h.cfg.DecideRoot {
		h.seq++
		h.send(encodeExec(msgExec, execMsg{Seq: h.seq, Exec: e}))
		v, ok := h.readVerdict(-1)
		if !ok || !v.Allow || v.Seq != h.seq {
			_ = unix.Kill(pid, unix.SIGKILL)
			_, _ = wait4(pid, &ws, unix.WALL)
			h.rootDone, h.rootStatus = true, ws
			h.send(encodeInt(msgExit, int(ws)))
			return h.mirror(), false
		}
	}
	if _, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(pid), 0, uintptr(unix.SIGSTOP), 0, 0); errno != 0 {
		return h.killRoot(pid, "detach: "+errno.Error()), false
	}
	if _, err := wait4(pid, &ws, unix.WALL|unix.WUNTRACED); err != nil || !ws.Stopped() {
		return h.killRoot(pid, "the command did not stop for the supervisor"), false
	}
	if _, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(pid), 0, traceOptions, 0, 0); errno != 0 {
		return h.killRoot(pid, "seize: "+errno.Error()), false
	}
	// Unreadable and untraceable by the tree from now on (same user): no
	// process of it can write the tracer's memory through /proc/PID/mem,
	// attach to it or take its descriptors (pidfd_getfd). The root was
	// attached before; every later process is attached by inheritance.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return h.killRoot(pid, "prctl(PR_SET_DUMPABLE): "+err.Error()), false
	}
	p := &proc{pid: pid, program: e.Program, shell: true, swallowCont: true}
	h.mu.Lock()
	h.procs[pid] = p
	h.mu.Unlock()
	h.threads[pid] = p
	h.root.Store(int64(pid))
	_ = unix.Kill(pid, unix.SIGCONT)
	return 0, true
}

func (h *helper) killRoot(pid int, msg string) int {
	_ = unix.Kill(pid, unix.SIGKILL)
	return h.fail(exitHelperFailed, msg)
}

// loop services the tree until no traced process is left. While no exec
// waits for a verdict it blocks in wait4, with SIGCHLD at its default
// action, which the kernel discards: a wait event costs one wake-up.
// Otherwise it drains wait events without blocking, applies the verdicts
// that came, and sleeps in poll on the verdict socket, with Go's handler
// for SIGCHLD installed so that a new wait event interrupts the poll.
func (h *helper) loop() {
	var ws unix.WaitStatus
	for {
		h.collect()
		if len(h.pending) == 0 {
			h.chld.set(false)
			pid, err := waitIdle(&ws)
			if pid > 0 {
				h.event(pid, ws)
			} else if err == unix.ECHILD {
				return
			}
			continue
		}
		// Installed before the check, so that no event between the
		// check and the poll goes unannounced.
		h.chld.set(true)
		pid, err := wait4(-1, &ws, unix.WALL|unix.WNOHANG)
		if pid > 0 {
			h.event(pid, ws)
			continue
		}
		if err == unix.ECHILD {
			return
		}
		h.drainVerdicts()
		if len(h.pending) == 0 {
			continue
		}
		if v, ok := h.readVerdict(pollBackstop); ok {
			h.verdict(v)
		}
	}
}

// waitIdle is wait4(-1, &ws, __WALL) as a raw system call: the tracer
// keeps its P while it sleeps, so that Go's sysmon, which otherwise wakes
// every 20 µs to take back the P of a thread in a long system call and
// starts again after each one, stays asleep (a third of the context
// switches of a supervised build). The price is that the world cannot be
// stopped while the tracer sleeps: the helper runs with the garbage
// collector off and collects itself, from the tracer (collect).
func waitIdle(ws *unix.WaitStatus) (int, error) {
	for {
		r, _, errno := unix.RawSyscall6(unix.SYS_WAIT4, ^uintptr(0), uintptr(unsafe.Pointer(ws)), unix.WALL, 0, 0, 0)
		switch errno {
		case 0:
			return int(r), nil
		case unix.EINTR:
			continue
		}
		return -1, errno
	}
}

// gcEvery is how many bytes the helper allocates between two collections.
const gcEvery = 16 << 20

// collect runs the garbage collector, from the tracer thread and so never
// while it sleeps in waitIdle, once the helper allocated gcEvery bytes
// since the last time.
func (h *helper) collect() {
	h.events++
	if h.events%256 != 0 {
		return
	}
	metrics.Read(h.allocs[:])
	if a := h.allocs[0].Value; a.Kind() == metrics.KindUint64 && a.Uint64()-h.collected >= gcEvery {
		runtime.GC()
		h.collected = a.Uint64()
	}
}

// sigchld switches SIGCHLD between Go's handler (which drops it) and the
// default action (which the kernel drops before any thread wakes), with
// the raw system call: Go keeps its own handler installed otherwise.
type sigchld struct {
	goAct, dflAct [4]uint64 // struct sigaction as the kernel has it
	ok, handled   bool
}

func (c *sigchld) init() {
	_, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(unix.SIGCHLD), 0, uintptr(unsafe.Pointer(&c.goAct)), 8, 0, 0)
	c.ok, c.handled = errno == 0, true
	// SIG_DFL (0), with Go's flags, restorer and mask.
	c.dflAct = [4]uint64{0, c.goAct[1], c.goAct[2], c.goAct[3]}
}

func (c *sigchld) set(handled bool) {
	if !c.ok || c.handled == handled {
		return
	}
	act := &c.dflAct
	if handled {
		act = &c.goAct
	}
	if _, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(unix.SIGCHLD), uintptr(unsafe.Pointer(act)), 0, 8, 0, 0); errno != 0 {
		// Stay with Go's handler: a wake-up more per event.
		c.ok = false
		return
	}
	c.handled = handled
}

// drainVerdicts applies the verdicts already received, late ones for
// processes that died included.
func (h *helper) drainVerdicts() {
	for {
		v, ok := h.readVerdict(0)
		if !ok {
			return
		}
		h.verdict(v)
	}
}

// readVerdict reads one verdict from the verdict socket, waiting up to
// timeout ms for it (-1: no limit; a signal ends the wait early). A
// parent that is gone, or that sends anything but a verdict, ends the
// helper: nobody is left to decide.
func (h *helper) readVerdict(timeout int) (verdictMsg, bool) {
	for {
		n, err := unix.Read(verdictFD, h.vbuf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			if timeout == 0 {
				return verdictMsg{}, false
			}
			fds := []unix.PollFd{{Fd: verdictFD, Events: unix.POLLIN}}
			if _, err := unix.Poll(fds, timeout); err != nil && err != unix.EINTR {
				os.Exit(exitHelperFailed)
			}
			if timeout > 0 {
				// Woken by a signal, the time limit or a verdict:
				// one try more, then back to the wait events.
				timeout = 0
			}
			continue
		case err != nil || n < 5 || n == len(h.vbuf):
			os.Exit(exitHelperFailed)
		}
		b := h.vbuf[:n]
		if int(binary.LittleEndian.Uint32(b)) != n-4 || msgType(b[4]) != msgVerdict {
			os.Exit(exitHelperFailed)
		}
		v, err := decodeVerdict(b[5:])
		if err != nil {
			os.Exit(exitHelperFailed)
		}
		return v, true
	}
}

func (h *helper) verdict(v verdictMsg) {
	tid, ok := h.pending[v.Seq]
	if !ok {
		return // the process died meanwhile
	}
	delete(h.pending, v.Seq)
	delete(h.pendingTID, tid)
	if v.Allow {
		_ = unix.PtraceCont(tid, 0)
		return
	}
	// Killed in its exec stop: the new program never runs.
	_ = unix.Kill(tid, unix.SIGKILL)
}

func isStopSignal(sig unix.Signal) bool {
	switch sig {
	case unix.SIGSTOP, unix.SIGTSTP, unix.SIGTTIN, unix.SIGTTOU:
		return true
	}
	return false
}

// event handles one wait status of a traced thread.
func (h *helper) event(tid int, ws unix.WaitStatus) {
	if ws.Exited() || ws.Signaled() {
		h.gone(tid, ws)
		return
	}
	if !ws.Stopped() {
		return
	}
	// The event is status>>16 whatever the signal (WaitStatus.TrapCause
	// only reads it for SIGTRAP; group-stops carry the stop signal).
	sig, ev := ws.StopSignal(), int(uint32(ws)>>16)
	switch {
	case sig == unix.SIGTRAP && (ev == unix.PTRACE_EVENT_FORK || ev == unix.PTRACE_EVENT_VFORK || ev == unix.PTRACE_EVENT_CLONE):
		msg, err := unix.PtraceGetEventMsg(tid)
		if err == nil {
			h.spawned(tid, int(msg), ev == unix.PTRACE_EVENT_CLONE)
		}
		_ = unix.PtraceCont(tid, 0)
	case sig == unix.SIGTRAP && ev == unix.PTRACE_EVENT_EXEC:
		h.exec(tid)
	case ev == unix.PTRACE_EVENT_STOP:
		if h.threads[tid] == nil {
			// A new task that stopped before its creator's event:
			// it waits until we know whose it is.
			h.early[tid] = true
			return
		}
		if isStopSignal(sig) {
			// Group-stop: stay stopped, but let SIGCONT wake us.
			_, _, _ = unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_LISTEN, uintptr(tid), 0, 0, 0, 0)
			return
		}
		_ = unix.PtraceCont(tid, 0)
	case ev == 0:
		// Signal-delivery-stop: deliver the signal.
		p := h.threads[tid]
		if p == nil {
			p = h.adopt(tid)
		}
		if sig == unix.SIGCONT && p.swallowCont {
			p.swallowCont = false
			_ = unix.PtraceCont(tid, 0)
			return
		}
		_ = unix.PtraceCont(tid, int(sig))
	default:
		_ = unix.PtraceCont(tid, 0)
	}
}

// adopt registers a traced task the helper did not see created (it should
// not happen: every task is announced by its creator's event).
func (h *helper) adopt(tid int) *proc {
	p := &proc{pid: tid}
	h.mu.Lock()
	h.procs[tid] = p
	h.mu.Unlock()
	h.threads[tid] = p
	return p
}

// spawned registers a new task: a thread shares its creator's process, a
// new process inherits its creator's program, depth+1 and shell flag.
func (h *helper) spawned(tid, child int, clone bool) {
	pp := h.threads[tid]
	if pp == nil {
		pp = h.adopt(tid)
	}
	c := pp
	if !clone || !isThread(pp.pid, child) {
		c = &proc{pid: child, ppid: pp.pid, depth: pp.depth + 1, program: pp.program,
			parentProgram: pp.program, shell: pp.shell}
		h.mu.Lock()
		h.procs[child] = c
		h.mu.Unlock()
	}
	h.threads[child] = c
	if h.early[child] {
		delete(h.early, child)
		_ = unix.PtraceCont(child, 0)
	}
}

// isThread reports whether tid is a thread of process pid.
func isThread(pid, tid int) bool {
	var st unix.Stat_t
	return unix.Stat("/proc/"+strconv.Itoa(pid)+"/task/"+strconv.Itoa(tid), &st) == nil
}

func (h *helper) gone(tid int, ws unix.WaitStatus) {
	p := h.threads[tid]
	delete(h.threads, tid)
	delete(h.early, tid)
	if seq, ok := h.pendingTID[tid]; ok {
		delete(h.pendingTID, tid)
		delete(h.pending, seq)
	}
	if p != nil && p.pid == tid {
		h.mu.Lock()
		delete(h.procs, tid)
		h.mu.Unlock()
	}
	if tid == int(h.root.Load()) && !h.rootDone {
		h.rootDone, h.rootStatus = true, ws
		h.send(encodeInt(msgExit, int(ws)))
	}
}

// exec reads an exec at its PTRACE_EVENT_EXEC stop and asks the parent,
// leaving the process stopped until the verdict.
func (h *helper) exec(tid int) {
	former, _ := unix.PtraceGetEventMsg(tid)
	p := h.threads[tid]
	if p == nil {
		p = h.adopt(tid)
	}
	if f := int(former); f != tid && f > 0 {
		// A thread exec'd: it now has the process's PID.
		if h.threads[f] == p {
			delete(h.threads, f)
		}
		if seq, ok := h.pendingTID[f]; ok {
			delete(h.pendingTID, f)
			delete(h.pending, seq)
		}
	}
	e := h.readExec(tid)
	e.PID, e.PPID, e.Depth = p.pid, p.ppid, p.depth
	e.ByShell, e.ParentProgram = p.shell, p.parentProgram
	h.mu.Lock()
	// A wrapper or shell the shell ran (env, sudo, xargs, bash -c) runs
	// what it runs on the shell's behalf: its execs are the shell's too.
	p.program, p.shell = e.Program, e.ByShell && h.transparent[path.Base(e.Program)]
	h.mu.Unlock()
	if h.cfg.Prefilter && !e.Truncated && e.Exe != "" && !(h.cfg.AskByShell && e.ByShell) &&
		!h.askNames[path.Base(e.Program)] && !h.askNames[path.Base(e.Exe)] {
		_ = unix.PtraceCont(tid, 0)
		h.send(encodeExec(msgAllowed, execMsg{Exec: e}))
		return
	}
	h.seq++
	h.pending[h.seq] = tid
	h.pendingTID[tid] = h.seq
	h.send(encodeExec(msgExec, execMsg{Seq: h.seq, Exec: e}))
}

// readExec reads what a process stopped at exec is about to run.
func (h *helper) readExec(pid int) Exec {
	dir := "/proc/" + strconv.Itoa(pid)
	exe, _ := os.Readlink(dir + "/exe")
	cwd, _ := os.Readlink(dir + "/cwd")
	raw, truncated := h.readCmdline(dir + "/cmdline")
	e := Exec{Exe: exe, Cwd: cwd, Argv: parseCmdline(raw), Truncated: truncated}
	if s := scriptOf(e.Argv, func(name string) []byte { return head(dir, name) }); s != "" {
		e.Script = resolve(cwd, s)
	} else if isLoader(exe) || isLoaderFile(dir+"/exe") {
		l := loadedProgram(e.Argv)
		if strings.Contains(l, "/") {
			l = resolve(cwd, l)
		}
		e.Loaded = l
	}
	e.Program = program(e.Exe, e.Script, e.Loaded)
	return e
}

// readCmdline reads up to maxArgv bytes of a cmdline file.
func (h *helper) readCmdline(name string) ([]byte, bool) {
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	if h.cmdline == nil {
		h.cmdline = make([]byte, 64<<10)
	}
	n := 0
	for {
		if n == len(h.cmdline) {
			if n > maxArgv {
				return h.cmdline[:maxArgv], true
			}
			h.cmdline = append(h.cmdline, make([]byte, n)...)
		}
		m, err := unix.Read(fd, h.cmdline[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	if n > maxArgv {
		return h.cmdline[:maxArgv], true
	}
	return h.cmdline[:n], false
}

// head returns the first bytes of a regular file named by a process,
// opened in the process's view (its root and cwd), or nil. It never
// blocks on a FIFO or opens a device.
func head(dir, name string) []byte {
	if name == "" {
		return nil
	}
	p := dir + "/cwd/" + name
	if name[0] == '/' {
		p = dir + "/root" + name
	}
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	buf := make([]byte, shebangBuf)
	n, err := io.ReadFull(fdReader(fd), buf)
	if n < 2 || (err != nil && err != io.ErrUnexpectedEOF && err != io.EOF) {
		return nil
	}
	return buf[:n]
}

type fdReader int

func (f fdReader) Read(b []byte) (int, error) {
	n, err := unix.Read(int(f), b)
	if n == 0 && err == nil {
		return 0, io.EOF
	}
	if n < 0 {
		n = 0
	}
	return n, err
}

// mirror ends the helper the way the root command ended: its exit code,
// or the same signal raised on itself (without a core dump).
func (h *helper) mirror() int {
	ws := h.rootStatus
	if !h.rootDone {
		return exitHelperFailed
	}
	if ws.Exited() {
		return ws.ExitStatus()
	}
	if !ws.Signaled() {
		return exitHelperFailed
	}
	sig := ws.Signal()
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// Default action for sig, set with the raw system call: Go's own
	// handler would turn some signals into a crash report.
	var act [4]uint64
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(int(sig)-1)/64] |= 1 << ((uint(sig) - 1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	return 128 + int(sig)
}
