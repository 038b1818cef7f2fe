package runner

import "golang.org/x/sys/unix"

// shield makes the process that runs commands unreadable and untraceable
// by them: the commands run as the same user, and without it (no Yama, or
// kernel.yama.ptrace_scope 0, and no Landlock domain between them) any
// command could read gate's memory through /proc/PID/mem (the server's
// bearer token, an approval in flight) or attach to it with ptrace and run
// its code. A non-dumpable process can be neither, except by a process
// with CAP_SYS_PTRACE; it also leaves no core dump. The exec supervisor's
// helper does the same for itself. New calls it when commands are not
// confined: a Landlock domain already keeps confined ones out.
func shield() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
