package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
)

const hookLong = `Answer an agent's pre-tool-use hook: read the hook's JSON on stdin, map the
agent's tool and arguments to gate's, decide with the policies and print the
agent's permission answer on stdout. Nothing is run: the agent runs the tool
itself when gate allows it.

  gate hook claude-code   Claude Code PreToolUse (Bash, Read, Write, Edit,
                          MultiEdit, Glob, Grep, LS, NotebookEdit)
  gate hook qwen          Qwen Code PreToolUse (run_shell_command, read_file,
                          write_file, edit, glob, grep_search, list_directory)
  gate hook gemini        Gemini CLI BeforeTool (run_shell_command, read_file,
                          write_file, replace, glob, search_file_content,
                          list_directory)

Tools gate does not know get --unknown (default ask: the agent asks its user).
The workspace root is --root when given, else the hook's cwd. Input gate
cannot read, or settings and policies it cannot load, block the call
(exit status 2, the reason on stderr), as the agents' hook protocols define.
For Gemini CLI, "ask" leaves the decision to Gemini's own confirmation.`

// hookInput is the part of the agents' hook input gate reads.
type hookInput struct {
	HookEventName string         `json:"hook_event_name"`
	ToolName      string         `json:"tool_name"`
	ToolInput     map[string]any `json:"tool_input"`
	Cwd           string         `json:"cwd"`
}

// hookTools maps an agent's tool names to gate's tools, with argument
// renames (agent name -> gate name).
var hookTools = map[string]map[string]struct {
	tool    string
	renames map[string]string
}{
	"claude-code": {
		"Bash":         {engine.ToolShell, map[string]string{"run_in_background": "is_background"}},
		"Read":         {engine.ToolReadFile, nil},
		"Write":        {engine.ToolWriteFile, nil},
		"Edit":         {engine.ToolEdit, nil},
		"MultiEdit":    {engine.ToolEdit, nil},
		"Glob":         {engine.ToolGlob, nil},
		"Grep":         {engine.ToolGrep, nil},
		"LS":           {engine.ToolListDirectory, nil},
		"NotebookEdit": {engine.ToolWriteFile, map[string]string{"notebook_path": "file_path", "new_source": "content"}},
	},
	"gemini": {
		engine.ToolShell:         {engine.ToolShell, nil},
		engine.ToolReadFile:      {engine.ToolReadFile, nil},
		engine.ToolWriteFile:     {engine.ToolWriteFile, nil},
		"replace":                {engine.ToolEdit, nil},
		engine.ToolEdit:          {engine.ToolEdit, nil},
		engine.ToolGlob:          {engine.ToolGlob, nil},
		"search_file_content":    {engine.ToolGrep, map[string]string{"include": "glob"}},
		engine.ToolGrep:          {engine.ToolGrep, map[string]string{"include": "glob"}},
		engine.ToolListDirectory: {engine.ToolListDirectory, nil},
	},
	"qwen": {
		engine.ToolShell: {engine.ToolShell, nil}, "Shell": {engine.ToolShell, nil}, "ShellTool": {engine.ToolShell, nil},
		engine.ToolReadFile: {engine.ToolReadFile, nil}, "ReadFile": {engine.ToolReadFile, nil}, "ReadFileTool": {engine.ToolReadFile, nil},
		engine.ToolWriteFile: {engine.ToolWriteFile, nil}, "WriteFile": {engine.ToolWriteFile, nil}, "WriteFileTool": {engine.ToolWriteFile, nil},
		engine.ToolEdit: {engine.ToolEdit, nil}, "Edit": {engine.ToolEdit, nil}, "EditTool": {engine.ToolEdit, nil}, "replace": {engine.ToolEdit, nil},
		engine.ToolGlob: {engine.ToolGlob, nil}, "FindFiles": {engine.ToolGlob, nil}, "GlobTool": {engine.ToolGlob, nil},
		engine.ToolGrep: {engine.ToolGrep, nil}, "SearchText": {engine.ToolGrep, nil}, "GrepTool": {engine.ToolGrep, nil},
		"search_file_content":    {engine.ToolGrep, nil},
		engine.ToolListDirectory: {engine.ToolListDirectory, nil}, "ReadFolder": {engine.ToolListDirectory, nil}, "LSTool": {engine.ToolListDirectory, nil},
	},
}

func (a *app) hookCommand() *cobra.Command {
	var unknown string
	cmd := &cobra.Command{
		Use:       "hook (claude-code | qwen | gemini)",
		Short:     "Answer an agent's pre-tool-use hook with gate's decision",
		Long:      hookLong,
		Example:   "  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}' | gate hook claude-code",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"claude-code", "qwen", "gemini"},
		RunE: func(cmd *cobra.Command, args []string) error {
			agent := args[0]
			tools, ok := hookTools[agent]
			if !ok {
				return usagef("unknown agent %q: use claude-code, qwen or gemini", agent)
			}
			switch unknown {
			case engine.Allow, engine.Deny, engine.Ask:
			default:
				return usagef("--unknown must be allow, deny or ask, not %q", unknown)
			}
			d, err := func() (_ *engine.Decision, err error) {
				defer recoverTo(&err)
				return a.hookDecision(cmd, agent, tools, unknown)
			}()
			if err != nil {
				// The hook protocols block the call on exit status 2 and
				// show stderr: fail closed.
				fmt.Fprintf(a.stderr, "gate: %v\n", err)
				a.exit = 2
				return nil
			}
			return json.NewEncoder(a.stdout).Encode(hookAnswer(agent, d))
		},
	}
	cmd.Flags().StringVar(&unknown, "unknown", engine.Ask, "decision for tools gate does not know: allow, deny or ask")
	return cmd
}

// hookDecision reads the hook input and decides it.
func (a *app) hookDecision(cmd *cobra.Command, agent string, tools map[string]struct {
	tool    string
	renames map[string]string
}, unknown string) (*engine.Decision, error) {
	bs, err := io.ReadAll(io.LimitReader(a.stdin, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	var in hookInput
	if err := json.Unmarshal(bs, &in); err != nil {
		return nil, fmt.Errorf("malformed hook input: %w", err)
	}
	switch in.HookEventName {
	case "PreToolUse", "BeforeTool":
	case "":
		return nil, fmt.Errorf("malformed hook input: no hook_event_name")
	default:
		return nil, nil // not a tool call: no opinion
	}
	if in.ToolName == "" {
		return nil, fmt.Errorf("malformed hook input: no tool_name")
	}
	if !cmd.Flag("root").Changed && os.Getenv("GATE_ROOT") == "" && in.Cwd != "" {
		a.v.Set("root", in.Cwd)
	}
	m, known := tools[in.ToolName]
	if !known {
		d := engine.Decision{Decision: unknown, Reasons: []engine.Reason{{Code: "tool_unmapped",
			Message: fmt.Sprintf("gate does not know the %s tool %q; --unknown says %s", agent, in.ToolName, unknown)}}}
		return &d, nil
	}
	e, err := a.newEngine(cmd.Context())
	if err != nil {
		return nil, err
	}
	calls := []engine.Call{{Tool: m.tool, Args: rename(in.ToolInput, m.renames)}}
	if agent == "claude-code" && in.ToolName == "MultiEdit" {
		calls = claudeEdits(in.ToolInput)
	}
	if m.tool == engine.ToolShell {
		if _, ok := calls[0].Args["is_background"]; !ok {
			calls[0].Args["is_background"] = false
		}
	}
	// The most restrictive decision of the calls wins.
	var worst *engine.Decision
	for _, c := range calls {
		d, err := e.Decide(cmd.Context(), c)
		if err != nil {
			return nil, err
		}
		if worst == nil || rank(d.Decision) > rank(worst.Decision) {
			worst = &d
		}
	}
	return worst, nil
}

func rank(d string) int {
	return map[string]int{engine.Allow: 0, engine.Ask: 1, engine.Deny: 2}[d]
}

func rename(args map[string]any, renames map[string]string) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if to, ok := renames[k]; ok {
			k = to
		}
		out[k] = v
	}
	return out
}

// claudeEdits turns Claude Code's Edit and MultiEdit input into edit calls.
func claudeEdits(in map[string]any) []engine.Call {
	edits, _ := in["edits"].([]any)
	if len(edits) == 0 {
		return []engine.Call{{Tool: engine.ToolEdit, Args: in}}
	}
	var calls []engine.Call
	for _, e := range edits {
		m, _ := e.(map[string]any)
		args := map[string]any{"file_path": in["file_path"]}
		for k, v := range m {
			args[k] = v
		}
		calls = append(calls, engine.Call{Tool: engine.ToolEdit, Args: args})
	}
	return calls
}

// hookAnswer renders a decision in the agent's hook output format; a nil
// decision (an event gate has no opinion on) is an empty object.
func hookAnswer(agent string, d *engine.Decision) any {
	if d == nil {
		return map[string]any{}
	}
	var reasons []string
	for _, r := range d.Reasons {
		reasons = append(reasons, fmt.Sprintf("[%s] %s", r.Code, r.Message))
	}
	reason := "gate: " + strings.Join(reasons, "; ")
	if agent == "gemini" {
		switch d.Decision {
		case engine.Allow:
			return map[string]any{"decision": "allow"}
		case engine.Deny:
			return map[string]any{"decision": "deny", "reason": reason}
		default:
			return map[string]any{"systemMessage": reason}
		}
	}
	return map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       d.Decision,
		"permissionDecisionReason": reason,
	}}
}
