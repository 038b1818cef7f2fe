package supervise

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
)

// HelperArg is the first argument that makes gate run as the helper:
// main calls HelperMain when os.Args[1] is HelperArg, before anything else.
const HelperArg = "__supervise"

// Exec is one exec of a traced process, read at the moment the new image is
// loaded and before it runs. The JSON names are those of the exec-time
// policy input.
type Exec struct {
	// Program is the identity of what runs: Script for a #! script, Loaded
	// when the dynamic loader was executed directly, Exe otherwise.
	Program string `json:"program"`
	// Exe is /proc/PID/exe: the executed file (the interpreter of a
	// script). A deleted file ends in " (deleted)", a memfd starts with
	// "/memfd:".
	Exe string `json:"exe"`
	// Argv is /proc/PID/cmdline as the kernel built it: for a script the
	// interpreter, its optional argument, the script path, then the
	// original arguments after argv[0].
	Argv []string `json:"argv"`
	Cwd  string   `json:"cwd"`
	PID  int      `json:"pid"`
	// PPID is the traced process that forked this one (0 for the root);
	// it stays the original parent when an orphan is re-parented.
	PPID int `json:"ppid"`
	// Depth counts forks from the root process (0).
	Depth int `json:"depth"`
	// Script is the path of the #! script the kernel ran, resolved
	// against Cwd, when Exe is its interpreter.
	Script string `json:"script"`
	// Loaded is the program the dynamic loader was asked to load when
	// Exe is ld.so (ld-linux*.so*, ld-musl-*.so*) run as a program.
	Loaded string `json:"loaded,omitempty"`
	// ParentProgram is the Program of the parent when it forked this
	// process ("" for the root).
	ParentProgram string `json:"parent_program"`
	// ByShell is true when the process was, until this exec, a copy of
	// the command's own shell: the root process after its first exec, or
	// a fork of it (subshells) that had not exec'd since, or had only
	// exec'd programs listed in Options.Transparent.
	ByShell bool `json:"by_shell"`
	// Live is set on an exec the supervisor holds stopped: PID is that
	// process, and /proc/PID/exe the file the kernel loaded (not an input
	// written by hand, gate eval --exec).
	Live bool `json:"-"`
	// Root is true for the root process's first exec: the command itself.
	Root bool `json:"root,omitempty"`
	// Truncated is true when the arguments were longer than the helper
	// reads (3 MiB); such an exec is denied without asking the Decider.
	Truncated bool `json:"truncated,omitempty"`
}

// Verdict answers an exec: allowed, or killed before it runs.
type Verdict struct {
	Allow  bool
	Reason string
	// Info is the decider's own record of the verdict (its decision id,
	// reasons), kept with a Blocked exec.
	Info any
}

// Decider decides an exec. It is called concurrently, one call per exec,
// and may block as long as it needs (an approval): the process waits,
// stopped, and the rest of the tree keeps running. ctx ends when the tree
// is gone or killed.
type Decider func(ctx context.Context, e Exec) Verdict

// Blocked is an exec that was denied: the process was killed before the
// new program ran.
type Blocked struct {
	Exec   Exec
	Reason string
	// Info is the deny's Verdict.Info.
	Info any
}

// Options tune Wrap. The zero value is ready to use.
type Options struct {
	// DecideRoot asks the Decider about the root's own exec (the command
	// the caller built) too; by default it is allowed without asking.
	DecideRoot bool
	// MaxPending bounds the execs waiting for a verdict at once; more are
	// denied without asking. Zero means DefaultMaxPending.
	MaxPending int
	// MaxBlocked bounds the Blocked list kept; later ones are counted
	// only. Zero means DefaultMaxBlocked.
	MaxBlocked int
	// Confine is passed as it is to HelperOptions.BeforeStart in the
	// helper (the filesystem confinement spec).
	Confine []byte
	// Prefilter, when set, lets the helper allow at once, without a round
	// trip, every exec the caller does not need to decide: it asks only
	// about programs whose base name (of Exec.Program) is listed, and
	// about every exec by the shell when ByShell is set. Truncated or
	// unreadable execs are always asked about (and denied). The others
	// go to Observe after they were allowed. The caller must derive the
	// list from its policy so that no exec it could deny is left out:
	// with rules on program names (exclude rm, git push), those names,
	// and multi-call binaries (busybox, toybox) that can run them.
	Prefilter *Prefilter
	// Transparent lists base names of programs (wrappers and shells: env,
	// sudo, xargs, bash) that run other programs on behalf of whoever ran
	// them: a process in which the shell ran one of them stays a copy of
	// the shell for ByShell, and so do its forks.
	Transparent []string
	// Observe is called, from one goroutine and in order, with each exec
	// that Prefilter allowed without asking. It must not block.
	Observe func(Exec)
}

// Prefilter narrows the execs the Decider is asked about (Options.Prefilter).
type Prefilter struct {
	Names   []string
	ByShell bool
}

// Defaults of Options.
const (
	DefaultMaxPending = 256
	DefaultMaxBlocked = 100
)

// HelperOptions configure the helper side (HelperMain).
type HelperOptions struct {
	// BeforeStart runs in the helper after it built the command (path,
	// argv, stdio, SysProcAttr with Ptrace set) and before it starts it;
	// spec is Options.Confine. It may change cmd.SysProcAttr (name
	// spaces) or restrict the helper itself (Landlock, inherited by the
	// command). An error means the command does not run.
	BeforeStart func(spec []byte, cmd *exec.Cmd) error
}

// Status is how the root command ended.
type Status struct {
	// ExitCode is the exit status, or -1 when a signal ended the process.
	ExitCode int
	// Signal is the signal that ended the process, or 0.
	Signal syscall.Signal
}

// Signaled reports whether a signal ended the command.
func (s Status) Signaled() bool { return s.Signal != 0 }

func (s Status) String() string {
	if s.Signal != 0 {
		return "signal: " + s.Signal.String()
	}
	return fmt.Sprintf("exit status %d", s.ExitCode)
}

// ErrUnavailable is returned where exec supervision cannot work; Available
// says why.
var ErrUnavailable = errors.New("exec supervision is not available")
