// Package supervise runs a command tree under an exec supervisor: every
// program any process of the tree is about to run is shown to a Decider
// before its first instruction, and killed there when denied.
//
// # Design
//
// Wrap rewrites a prepared exec.Cmd so that gate starts itself as a small
// helper ("gate __supervise", dispatched from package initialisation by a
// blank import of supervise/helper, before gate's heavy packages
// initialise). The helper is the ptrace tracer of the tree: a separate
// process, so that it can wait4(-1, __WALL) without taking the children of
// gate's own process. On one locked OS thread it starts the real command
// (path, argv, extra files from the parent; environment, directory,
// standard files, process group and session inherited) with
// PTRACE_TRACEME, which stops it after its exec. It then detaches with
// SIGSTOP pending, waits for the stop, attaches again with PTRACE_SEIZE and
// the options TRACEEXEC, TRACEFORK, TRACEVFORK, TRACECLONE and EXITKILL,
// and resumes it with a SIGCONT that it swallows: no instruction of the
// command ran untraced, and SEIZE gives group-stops as PTRACE_EVENT_STOP,
// which the helper answers with PTRACE_LISTEN so that job control (a
// stopped job stays stopped until SIGCONT) works under supervision.
// Options are inherited: every process and thread the tree creates is
// traced from its creation, setsid or not.
//
// Events, handled on the tracer thread:
//   - fork, vfork, clone: the new task is registered (a thread shares its
//     process's record; a new process gets ppid, depth+1, the parent's
//     program and its "copy of the shell" flag) and both run on. A new
//     task whose first stop comes before its creator's event waits for it.
//   - exec (PTRACE_EVENT_EXEC): the helper reads /proc/PID/exe, cmdline
//     and cwd, finds the #! script or the program ld.so loads, and sends
//     the Exec to the parent. The process stays stopped until the verdict:
//     allow resumes it, deny kills it with SIGKILL. Other processes keep
//     running meanwhile (pending execs are a map; the loop blocks in wait4
//     when none is pending, else in poll on the verdict socket, a
//     SOCK_SEQPACKET pair on which the parent writes one packet a verdict
//     and which the tracer thread reads itself; a SIGCHLD, which the
//     kernel delivers to the tracer thread and Go's handler drops, ends
//     that poll at each new wait event).
//   - signal-delivery-stops: the signal is delivered; group-stops: LISTEN.
//   - exits: the root's status goes to the parent at once (Tree.Wait
//     returns: the command ends when its shell does); the helper lives on
//     while any traced process lives (Tree.PIDs, Tree.Done) and then exits
//     with the root's status (its exit code, or its signal raised again).
//
// Once the root is attached the helper makes itself non-dumpable
// (PR_SET_DUMPABLE 0): the tree runs as the same user, and could otherwise
// write the tracer's memory through /proc/PID/mem, attach to it or copy
// its descriptors where Yama allows ptrace between any processes of one
// user.
//
// Killing the helper (Tree.Kill, SIGKILL to its process group, the end of
// a CommandContext) kills every traced process through PTRACE_O_EXITKILL:
// that is how timeouts, cancel and shutdown reach setsid and double-forked
// children. Tree.Signal sends a signal to every traced process (a graceful
// stop first). The helper survives SIGTERM, SIGINT, SIGQUIT, SIGHUP and the
// terminal stop signals (a group kill reaches the command directly; SIGHUP
// and, when the root left the helper's process group, SIGTERM/SIGINT/
// SIGQUIT are passed on to the root); the command starts with them at
// their defaults, or ignored if the helper inherited them ignored. A
// parent that goes away (socket closed) ends the helper and so the tree:
// nobody is left to decide.
//
// # Why the exec stop is race-free
//
// At PTRACE_EVENT_EXEC the kernel has replaced the image: the new program
// is mapped, the other threads of the process are gone, and argv sits on
// the new stack, which nothing else can write until the process runs
// again. /proc/PID/exe names the executed file (what argv[0] claims does
// not matter: BASH_CMDS[ls]=/bin/rm gives exe /usr/bin/rm). Exec.Program,
// the identity a policy matches, is the script for a #! script and the
// loaded program for ld.so, otherwise exe.
//
// #! scripts: the kernel runs the interpreter with argv = interpreter (as
// written on the #! line), the line's optional argument, the script path,
// then the original arguments. Script is set when argv has that shape:
// argv[1] (or argv[2] when the #! line has an argument) names a regular
// file whose #! line names exactly argv[0] (and that argument); nested
// scripts are followed to the outermost. Running an interpreter by the
// same name on a script by hand (/bin/sh ./x.sh for a "#!/bin/sh" x.sh)
// gives the same argv and the same Script, and runs the same code;
// "python3 x.py" does not (Program is python3, x.py is an argument). The
// file is read (its first 256 bytes, never a FIFO or device) after the
// exec, through /proc/PID/root and /proc/PID/cwd; it may change later, as
// the interpreter reads it by name anyway.
//
// ld.so run as a program (ld-linux*.so*, ld-musl-*.so*, ld.so): Loaded is
// its first argument after glibc's options (--library-path, --preload,
// --audit, --argv0, --inhibit-rpath, --glibc-hwcaps-*, which take a value;
// --list, --verify, --inhibit-cache, ...), resolved against cwd when it
// has a slash.
//
// Arguments longer than 3 MiB (beyond the default ARG_MAX) and execs whose
// file cannot be read are denied without asking (fail closed), as are
// execs beyond Options.MaxPending waiting at once, and a Decider panic.
//
// # Cost
//
// Each fork or thread is two stops (the parent's event, the child's first
// stop), each exec one stop plus a round trip to the parent (a frame on
// the socket, a packet back on the verdict socket), each signal a stop
// (SIGCHLD to a parent, Go's preemption signals), and each exit a
// notification the tracer takes before the real parent learns of it. The
// cost is less the tracer's work than the time stopped tracees wait for
// it, so the helper keeps its own wake-ups to one a stop:
//   - the tracer sleeps in wait4 as a raw system call while no exec waits
//     for a verdict, keeping its P, so that Go's sysmon does not wake
//     every 20 µs to take it back; since the world cannot be stopped
//     meanwhile, the helper's garbage collector is off and the tracer
//     collects between two events;
//   - SIGCHLD is at its default action then (the kernel drops it), and
//     Go's handler, which drops it too, is back only while an exec waits,
//     to end the poll;
//   - the tracer thread asks for a 100 µs scheduler slice (EEVDF, Linux
//     6.12+), so that on a busy machine a woken tracer runs before the
//     compilers around it.
//
// Options.Prefilter lets the helper allow, with no round trip, execs of
// programs the caller's policy cannot deny. The benchmarks compare bare,
// supervised and prefiltered runs of bash -c true, 300 execs, make -j2 of
// 60 C files and go build of 200 packages, alternating the modes, and
// report the ratios to bare:
//
//	go test ./supervise -run '^$' -bench . -benchtime 8x
//
// # Limits
//
// Linux only: Available reports false elsewhere, and where ptrace is
// refused (kernel.yama.ptrace_scope 3, a seccomp filter, gate itself
// traced by a debugger or strace: a process has one tracer) or seccomp
// filters are not available: the helper installs one before the command
// starts, which no process of the tree can remove, so that none can make
// a child the tracer is not attached to (clone with CLONE_UNTRACED; clone3,
// whose flags a filter cannot read) or type into a terminal (TIOCSTI,
// TIOCLINUX): see seccomp_linux.go. Only execs
// are decided: code a process loads without exec (dlopen, an interpreter
// reading a file) runs as that process, and work handed to a process
// outside the tree (a system service, cron, ssh to localhost, a container
// runtime) is not traced. ParentProgram is the parent's program when it
// forked. Paths are as the helper's mount namespace sees them.
package supervise
