package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/server"
)

const mcpLong = `Serve gate's tools over MCP on standard input and output, for an agent that
starts gate as an MCP server: run_shell_command, list_directory, read_file,
write_file, glob, grep_search and edit, with the reference's parameters (only
those the settings enable). Every call is decided by the policies; a refused
call is a tool error whose text gives the reasons.

When the policy asks, gate asks the client's user (MCP elicitation) if the
client supports it; otherwise, when --approvals-listen serves the approvals
API on a loopback address (for 'gate approvals', with the same bearer token as
gate serve; see gate serve --help), the call waits there, up to
--approval-timeout (default 4 minutes here, below the clients' own 5); without
it the call is denied at once with approval_unavailable, saying how to approve
or allow it.
Logs go to stderr.`

// mcpApprovalTimeout is gate mcp's default --approval-timeout: below the
// MCP clients' own tool call timeouts (Qwen Code and Gemini CLI give up
// after 5 minutes), so that the client gets gate's answer.
const mcpApprovalTimeout = 4 * time.Minute

func (a *app) mcpCommand() *cobra.Command {
	var (
		ro           runOptions
		bo           boundaryOptions
		approvalAddr string
		hookSocket   bool
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve gate's tools over MCP (stdio)",
		Long:  mcpLong,
		Example: `  gate mcp --settings .qwen/settings.json
  gate mcp --approvals-listen 127.0.0.1:8788   # then: gate approvals --server http://127.0.0.1:8788`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ro.decisionLog == "-" {
				return usagef("gate mcp speaks MCP on stdout: give --decision-log a file")
			}
			log := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			a.tokenFile = bo.tokenFile
			a.socketFile = unixSocketPath(approvalAddr)
			g, err := a.newGateway(cmd.Context(), ro, log)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			hookToken := "" // the approvals API's, or the one local clients read
			// Without an approvals address a call the policy asks about
			// is put to the client (elicitation) or denied at once
			// (approval_unavailable): nobody could see a queue.
			if approvalAddr != "" {
				timeout := ro.approvalTimeout
				if !cmd.Flags().Changed("approval-timeout") {
					timeout = mcpApprovalTimeout
				}
				g.SetApprovals(server.NewApprovals(timeout, log))
				if !loopback(approvalAddr) && !isUnixListen(approvalAddr) {
					return usagef("--approvals-listen must be a loopback address or unix:PATH, not %s", approvalAddr)
				}
				hopts, err := bo.handlerOptions(approvalAddr, log)
				if err != nil {
					return err
				}
				ln, err := listen(approvalAddr)
				if err != nil {
					return err
				}
				go server.Serve(ctx, ln, g, server.NewHandler(g, hopts), server.ServeOptions{Log: log})
				hookToken = hopts.Token
			} else if hookSocket && !bo.noToken {
				// The token local clients read, when there is one: gate
				// mcp makes none (the socket's permissions guard it).
				if hookToken, err = clientToken(bo.tokenFile); err != nil {
					return err
				}
			}
			wait := func() {}
			if hookSocket {
				wait = serveHooks(ctx, g, hookToken, log)
			}
			defer func() { cancel(); wait() }()
			s := server.NewMCPServer(g, version())
			err = s.Run(ctx, server.StdioTransport(readCloser{a.stdin}, writeCloser{a.stdout}))
			g.Runner().Shutdown(context.Background())
			if err != nil && ctx.Err() == nil && !isEOF(err) {
				return err
			}
			return nil
		},
	}
	ro.register(cmd)
	ro.registerApprovals(cmd)
	ro.registerWatch(cmd)
	ro.registerDecisionLog(cmd)
	ro.registerSessions(cmd)
	cmd.Flags().StringVar(&approvalAddr, "approvals-listen", "", "serve the approvals API (and the rest of the HTTP API) on this loopback `address` or unix:PATH, with gate serve's boundary (token, Host, Origin)")
	cmd.Flags().BoolVar(&hookSocket, "hook-socket", true, hookSocketHelp)
	bo.register(cmd)
	return cmd
}
