package runner

import (
	"strconv"
	"strings"
	"time"

	"github.com/gate-dev/gate/layers"
)

// Result is the outcome of a run_shell_command call, with the fields Qwen
// Code's tool reports.
type Result struct {
	Command string `json:"command"`
	// Directory is the directory argument as given; empty means the root.
	Directory string `json:"directory"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	// Error describes a command that could not start, timed out or was
	// cancelled.
	Error string `json:"error"`
	// ExitCode is nil when the command did not exit by itself.
	ExitCode *int `json:"exit_code"`
	// Signal is the number of the signal that ended the command.
	Signal *int `json:"signal"`
	// BackgroundPIDs are processes the command left running (or, for a
	// background call, the started process).
	BackgroundPIDs []int `json:"background_pids"`
	// PGID is the command's process group.
	PGID            int  `json:"pgid,omitempty"`
	Background      bool `json:"background,omitempty"`
	TimedOut        bool `json:"timed_out,omitempty"`
	Cancelled       bool `json:"cancelled,omitempty"`
	StdoutTruncated bool `json:"stdout_truncated,omitempty"`
	StderrTruncated bool `json:"stderr_truncated,omitempty"`
	// Blocked are the execs the supervisor killed before they ran.
	Blocked []Blocked `json:"blocked"`
	// Layers are the enforcement layers active for this run (static,
	// exec, fs); LayersMissing says why each other one is not.
	Layers        []string          `json:"layers"`
	LayersMissing map[string]string `json:"layers_missing,omitempty"`
	Duration      time.Duration     `json:"-"`
}

// Outcome classifies a result for metrics: ok, failed, signaled, timeout,
// cancelled, background or error.
func (r *Result) Outcome() string {
	switch {
	case r.Background && r.Error == "":
		return "background"
	case r.TimedOut:
		return "timeout"
	case r.Cancelled:
		return "cancelled"
	case r.Signal != nil:
		return "signaled"
	case r.ExitCode == nil:
		return "error"
	case *r.ExitCode == 0:
		return "ok"
	default:
		return "failed"
	}
}

// Text renders the result in the reference's layout for agents: one
// "Field: value" line per field, absent values as (empty) or (none).
func (r *Result) Text() string {
	if r.Background && r.Error == "" && len(r.BackgroundPIDs) > 0 {
		pid := strconv.Itoa(r.BackgroundPIDs[0])
		return "Background command started. PID: " + pid + " (Use kill -- -" + pid + " or gate's background stop to stop it)"
	}
	var b strings.Builder
	line := func(k, v string) {
		b.WriteString(k)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	or := func(s, absent string) string {
		if s == "" {
			return absent
		}
		return s
	}
	line("Command", r.Command)
	line("Directory", or(r.Directory, "(root)"))
	line("Stdout", or(strings.TrimRight(r.Stdout, "\n"), "(empty)"))
	line("Stderr", or(strings.TrimRight(r.Stderr, "\n"), "(empty)"))
	line("Error", or(r.Error, "(none)"))
	line("Exit Code", intOr(r.ExitCode))
	line("Signal", intOr(r.Signal))
	pids := make([]string, len(r.BackgroundPIDs))
	for i, p := range r.BackgroundPIDs {
		pids[i] = strconv.Itoa(p)
	}
	line("Background PIDs", or(strings.Join(pids, ", "), "(none)"))
	pgid := "(none)"
	if r.PGID > 0 {
		pgid = strconv.Itoa(r.PGID)
	}
	line("Process Group PGID", pgid)
	line("Blocked", blockedText(r.Blocked))
	b.WriteString("Layers: " + r.layersText())
	return b.String()
}

func intOr(p *int) string {
	if p == nil {
		return "(none)"
	}
	return strconv.Itoa(*p)
}

// layersText is the Layers line: the active layers, then each missing one
// with its reason.
func (r *Result) layersText() string {
	rep := layers.Report{Active: r.Layers, Missing: r.LayersMissing}
	if len(rep.Active) == 0 {
		rep.Active = []string{layers.Static}
	}
	return rep.String()
}
