package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/runner"
)

// Arguments of the interactive session tools, offered over MCP only when
// tools.shell.enableInteractiveShell is on (and session_start refuses with
// sessions_disabled otherwise, should it be called).
type (
	// SessionStartArgs start a command in a pseudo-terminal.
	SessionStartArgs struct {
		Command   string `json:"command" jsonschema:"The command to run in a terminal (vim, less, git rebase -i, a REPL...)."`
		Directory string `json:"directory,omitempty" jsonschema:"Directory to run in, relative to the project root."`
		Rows      int    `json:"rows,omitempty" jsonschema:"Terminal rows (default 30)."`
		Cols      int    `json:"cols,omitempty" jsonschema:"Terminal columns (default 80)."`
	}
	// SessionSendArgs type into a session.
	SessionSendArgs struct {
		ID   string   `json:"id" jsonschema:"The session id session_start returned."`
		Text string   `json:"text,omitempty" jsonschema:"Text to type."`
		Keys []string `json:"keys,omitempty" jsonschema:"Named keys typed after the text: Enter, Esc, Tab, Backspace, Up, Down, Left, Right, PageUp, PageDown, Ctrl-C, Ctrl-D..."`
	}
	// SessionIDArgs name a session.
	SessionIDArgs struct {
		ID string `json:"id" jsonschema:"The session id session_start returned."`
	}
)

// errorText renders an error for the model, with its code when it has one
// (limit_reached, sessions_disabled, ...).
func errorText(err error) string {
	var e *engine.Error
	if errors.As(err, &e) && e.Code != "" {
		return string(e.Code) + ": " + e.Error()
	}
	return err.Error()
}

// screenText renders a session's screen for the model.
func screenText(sc runner.Screen) string {
	state := "running"
	switch {
	case sc.ExitCode != nil:
		state = fmt.Sprintf("exited with code %d", *sc.ExitCode)
	case sc.Signal != nil:
		state = fmt.Sprintf("ended by signal %d", *sc.Signal)
	case !sc.Running:
		state = "ended (" + sc.Ended + ")"
	}
	return fmt.Sprintf("Session %s (%dx%d, %s, cursor at row %d col %d). Screen:\n%s", sc.ID, sc.Rows, sc.Cols, state, sc.CursorRow+1, sc.CursorCol+1, sc.Text)
}

func addSessionTools(s *mcp.Server, g *Gateway) {
	mcp.AddTool(s, &mcp.Tool{Name: "session_start", Title: "Terminal",
		Description: "Starts a command in a pseudo-terminal for interactive programs and returns its session id and screen." + policyNote},
		func(ctx context.Context, req *mcp.CallToolRequest, in SessionStartArgs) (*mcp.CallToolResult, any, error) {
			ctx = withAsker(ctx, elicitAsker(req))
			out, err := g.StartSession(context.WithoutCancel(ctx), runner.SessionRequest{Command: in.Command, Directory: in.Directory, Rows: in.Rows, Cols: in.Cols})
			if err != nil {
				return toolError("gate: " + errorText(err)), nil, nil
			}
			if out.Session == nil {
				return mcpResult(&CallResult{Decision: out.Decision, Approval: out.Approval}), nil, nil
			}
			return g.sessionScreen(out.Session.ID, 300*time.Millisecond), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "session_send", Title: "Type",
		Description: "Types text and named keys into a session and returns the screen after a moment."},
		func(_ context.Context, _ *mcp.CallToolRequest, in SessionSendArgs) (*mcp.CallToolResult, any, error) {
			sess, err := g.runner.Sessions().Get(in.ID)
			if err != nil {
				return toolError("no session " + in.ID), nil, nil
			}
			if err := sess.Send(in.Text, in.Keys...); err != nil {
				return toolError(err.Error()), nil, nil
			}
			return g.sessionScreen(in.ID, 300*time.Millisecond), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "session_screen", Title: "Screen", Description: "Returns a session's current screen."},
		func(_ context.Context, _ *mcp.CallToolRequest, in SessionIDArgs) (*mcp.CallToolResult, any, error) {
			return g.sessionScreen(in.ID, 0), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "session_kill", Title: "Kill", Description: "Ends a session and its processes."},
		func(_ context.Context, _ *mcp.CallToolRequest, in SessionIDArgs) (*mcp.CallToolResult, any, error) {
			sess, err := g.runner.Sessions().Get(in.ID)
			if err != nil {
				return toolError("no session " + in.ID), nil, nil
			}
			_ = g.runner.Sessions().Remove(in.ID)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: screenText(sess.Screen(false))}}}, nil, nil
		})
}

// sessionScreen returns a session's screen after settle (time for the
// program to react to input).
func (g *Gateway) sessionScreen(id string, settle time.Duration) *mcp.CallToolResult {
	sess, err := g.runner.Sessions().Get(id)
	if err != nil {
		return toolError("no session " + id)
	}
	if settle > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), settle)
		sess.Wait(ctx)
		cancel()
	}
	sc := sess.Screen(false)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: screenText(sc)}}, StructuredContent: sc}
}
