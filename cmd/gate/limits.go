package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/server"
)

// limitOptions are the flags bounding the work a gateway does at once.
type limitOptions struct {
	server.Limits
}

func (o *limitOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&o.MaxDecisions, "max-decisions", 0, "decisions evaluated at once (default 2 × the CPUs Go uses); the evaluation timeout starts once a decision has its slot")
	f.IntVar(&o.MaxCalls, "max-calls", server.DefaultMaxCalls, "allowed calls (commands, file tools) running at once")
	f.IntVar(&o.MaxQueue, "max-queue", server.DefaultMaxQueue, "decisions, and calls, that may wait for a slot; beyond it a request is answered 503 overloaded with Retry-After")
	f.DurationVar(&o.QueueTimeout, "queue-timeout", server.DefaultQueueTimeout, "how long a request waits for a slot before it is answered 503 overloaded")
	f.IntVar(&o.MaxPendingApprovals, "max-pending-approvals", server.DefaultMaxPendingApprovals, "calls that may wait for approval at once; beyond it a call the policy asks about is denied (limit_reached)")
	f.Int64Var(&o.MaxApprovalBytes, "max-approval-bytes", server.DefaultMaxApprovalBytes, "`bytes` of arguments and changes the calls waiting for approval may hold; beyond it a call is denied (limit_reached)")
}

// check refuses negative limits (zero takes the default).
func (o *limitOptions) check() error {
	if o.MaxDecisions < 0 || o.MaxCalls < 0 || o.MaxQueue < 0 || o.QueueTimeout < 0 || o.MaxPendingApprovals < 0 || o.MaxApprovalBytes < 0 {
		return usagef("--max-decisions, --max-calls, --max-queue, --queue-timeout, --max-pending-approvals and --max-approval-bytes must not be negative")
	}
	if o.QueueTimeout > time.Hour {
		return usagef("--queue-timeout must be at most 1h")
	}
	return nil
}
