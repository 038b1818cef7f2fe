package main

import (
	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/runner"
)

// registerSessions adds the flags that bound interactive sessions
// (gate serve, gate mcp).
func (o *runOptions) registerSessions(cmd *cobra.Command) {
	o.sessionFlags = true
	f := cmd.Flags()
	f.IntVar(&o.sessions.MaxOpen, runner.LimitMaxSessions, runner.DefaultMaxSessions, "interactive sessions that may run at once (more are refused with limit_reached)")
	f.IntVar(&o.sessions.MaxCells, runner.LimitMaxSessionCells, runner.DefaultMaxSessionCells, "largest rows x cols of a session's terminal, when it starts and when it is resized")
	f.IntVar(&o.sessions.MaxEnded, "max-ended-sessions", runner.DefaultMaxEndedSessions, "ended sessions whose screen is kept until deleted (the oldest are forgotten first)")
	f.DurationVar(&o.sessions.EndedTTL, "ended-session-ttl", runner.DefaultEndedSessionTTL, "how long an ended session keeps its screen")
}

// checkSessions refuses limits that are not positive (commands without
// sessions, such as exec, have no such flags and use the defaults).
func (o *runOptions) checkSessions() error {
	l := o.sessions
	if o.sessionFlags && (l.MaxOpen <= 0 || l.MaxCells <= 0 || l.MaxEnded <= 0 || l.EndedTTL <= 0) {
		return usagef("--%s, --%s, --max-ended-sessions and --ended-session-ttl must be positive", runner.LimitMaxSessions, runner.LimitMaxSessionCells)
	}
	return nil
}
