package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/server"
)

const hookLong = `Answer an agent's pre-tool-use hook: read the hook's JSON on stdin, map the
agent's tool and arguments to gate's, decide with the policies and print the
agent's permission answer on stdout. Nothing is run: the agent runs the tool
itself when gate allows it.

  gate hook claude-code   Claude Code PreToolUse (Bash, Read, Write, Edit,
                          MultiEdit, Glob, Grep, LS, NotebookEdit)
  gate hook qwen          Qwen Code PreToolUse (run_shell_command, monitor,
                          read_file, write_file, edit, glob, grep_search,
                          list_directory)
  gate hook gemini        Gemini CLI BeforeTool (run_shell_command, read_file,
                          write_file, replace, glob, grep_search,
                          search_file_content, list_directory)

Tools gate does not know get --unknown (default ask: the agent asks its user),
so the hook's matcher should match every tool. Arguments are taken under the
seed's names or the agents' own (dir_path, file_path, start_line, ...).

The workspace root is --root (or GATE_ROOT) when given, else the agent's
project directory (CLAUDE_PROJECT_DIR; QWEN_PROJECT_DIR; GEMINI_PROJECT_DIR),
else the hook's cwd. Relative --settings and --policy paths are relative to
the root. The hook's cwd (the agent's current directory, which a cd changes)
is the directory a shell call runs in. Input gate cannot read, or settings
and policies it cannot load, block the call (exit status 2, the reason on
stderr), as the agents' hook protocols define. Gemini CLI gets
{"decision":"ask"} for an ask: it asks its user, even under --yolo.

--ask deny (or GATE_HOOK_ASK=deny) answers an ask as a deny, with the
reason approval_unavailable, for a run where nobody can answer: headless,
Gemini CLI (gemini -p) waits for ever for an answer to {"decision":"ask"}.

When a gate serve or gate mcp with the same configuration (the same binary,
settings, root, home, policy files, limits, PATH...) is running, the hook
asks it over its socket in $XDG_STATE_HOME/gate/hooks instead of compiling
the policies, and gets the answer it would have made itself; with no such
server, or none answering within 500 ms, it compiles them. --no-server
always compiles; GATE_HOOK_DEBUG=1 says on stderr which way a call went.

With --supervise (Claude Code only: its hooks may rewrite the tool input with
updatedInput), an allowed Bash command is rewritten to run through
"gate exec", so that every program it starts is decided at exec time and its
writes are confined (the layers gate doctor reports); the agent still gets
the command's own output and exit status. Other agents run what the hook
allowed as it is: the static decision is their only layer.`

// hookInput is the part of the agents' hook input gate reads.
type hookInput struct {
	HookEventName string         `json:"hook_event_name"`
	ToolName      string         `json:"tool_name"`
	ToolInput     map[string]any `json:"tool_input"`
	Cwd           string         `json:"cwd"`
}

// projectEnv are the variables in which each agent gives its hooks the
// project directory, in order of preference.
var projectEnv = map[string][]string{
	"claude-code": {"CLAUDE_PROJECT_DIR"},
	"qwen":        {"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	"gemini":      {"GEMINI_PROJECT_DIR"},
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
		"search_file_content":    {engine.ToolGrep, nil}, // before 0.61
		engine.ToolGrep:          {engine.ToolGrep, nil},
		engine.ToolListDirectory: {engine.ToolListDirectory, nil},
	},
	"qwen": {
		engine.ToolShell: {engine.ToolShell, nil}, "Shell": {engine.ToolShell, nil}, "ShellTool": {engine.ToolShell, nil},
		// monitor runs a command in the background and streams its output.
		"monitor": {engine.ToolShell, nil}, "MonitorTool": {engine.ToolShell, nil},
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
	var unknown, askAs string
	var supervise, noServer bool
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
			if askAs != engine.Ask && askAs != engine.Deny {
				return usagef("--ask must be ask or deny, not %q", askAs)
			}
			if supervise && agent != "claude-code" {
				return usagef("--supervise needs an agent whose hooks can rewrite the tool input: only claude-code (updatedInput)")
			}
			a.staticOnly = !supervise
			if os.Getenv("GOGC") == "" {
				// A hook process is short: it collects no garbage unless
				// its heap nears hookMemoryLimit (where the runtime's soft
				// limit collects), which saves about a sixth of the time
				// of a hook that compiles the policies. GOGC, when set,
				// is respected.
				defer debug.SetGCPercent(debug.SetGCPercent(-1))
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(min(debug.SetMemoryLimit(-1), hookMemoryLimit)))
			}
			var in hookInput
			d, err := func() (_ *engine.Decision, err error) {
				defer recoverTo(&err)
				return a.hookDecision(cmd, agent, tools, unknown, noServer, &in)
			}()
			var updated map[string]any
			if err == nil && supervise && d != nil && d.Decision == engine.Allow && tools[in.ToolName].tool == engine.ToolShell {
				updated, err = a.supervisedInput(in)
			}
			if err != nil {
				// The hook protocols block the call on exit status 2 and
				// show stderr: fail closed.
				fmt.Fprintf(a.stderr, "gate: %v\n", err)
				a.exit = 2
				return nil
			}
			if d != nil && d.Decision == engine.Ask && askAs == engine.Deny {
				d.Decision = engine.Deny
				d.Reasons = append([]engine.Reason{{Code: string(engine.CodeApprovalUnavailable),
					Message: "--ask deny: nobody can answer an ask in this run; allow such calls with tools.allowed"}}, d.Reasons...)
			}
			answer := hookAnswer(agent, d)
			if updated != nil {
				answer.(map[string]any)["hookSpecificOutput"].(map[string]any)["updatedInput"] = updated
			}
			return json.NewEncoder(a.stdout).Encode(answer)
		},
	}
	cmd.Flags().StringVar(&unknown, "unknown", engine.Ask, "decision for tools gate does not know: allow, deny or ask")
	askDefault := engine.Ask
	if v := os.Getenv("GATE_HOOK_ASK"); v != "" {
		askDefault = v
	}
	cmd.Flags().StringVar(&askAs, "ask", askDefault, "answer for a call the policy asks about: ask, or deny where nobody can answer (headless); default $GATE_HOOK_ASK or ask")
	cmd.Flags().BoolVar(&noServer, "no-server", false, "always compile the policies in this process, even when a gate serve or gate mcp with the same configuration is running")
	cmd.Flags().BoolVar(&supervise, "supervise", false, "claude-code: rewrite an allowed Bash command to run under gate exec (exec-time decisions, confined writes)")
	return cmd
}

// hookDecision reads the hook input and decides it.
func (a *app) hookDecision(cmd *cobra.Command, agent string, tools map[string]struct {
	tool    string
	renames map[string]string
}, unknown string, noServer bool, in *hookInput) (*engine.Decision, error) {
	bs, err := io.ReadAll(io.LimitReader(a.stdin, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	if err := json.Unmarshal(bs, in); err != nil {
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
	if err := a.hookRoot(cmd, agent, in.Cwd); err != nil {
		return nil, err
	}
	m, known := tools[in.ToolName]
	if !known {
		d := engine.Decision{Decision: unknown, Reasons: []engine.Reason{{Code: "tool_unmapped",
			Message: fmt.Sprintf("gate does not know the %s tool %q; --unknown says %s", agent, in.ToolName, unknown)}}}
		return &d, nil
	}
	calls := []engine.Call{{Tool: m.tool, Args: rename(in.ToolInput, m.renames)}}
	if agent == "claude-code" && in.ToolName == "MultiEdit" {
		calls = claudeEdits(in.ToolInput)
	}
	if m.tool == engine.ToolShell {
		args := calls[0].Args
		if _, ok := args["is_background"]; !ok {
			args["is_background"] = in.ToolName == "monitor" || in.ToolName == "MonitorTool"
		}
		_, hasDir := args["directory"]
		_, hasDirPath := args["dir_path"]
		if dir := a.hookDirectory(in.Cwd); dir != "" && !hasDir && !hasDirPath {
			args["directory"] = dir
		}
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	// The most restrictive decision of the calls wins.
	var worst *engine.Decision
	add := func(d engine.Decision) {
		if worst == nil || rank(d.Decision) > rank(worst.Decision) {
			worst = &d
		}
	}
	if out, ok := a.askServer(cmd.Context(), noServer, cfg, calls); ok {
		for _, d := range out.Decisions {
			add(d)
		}
		if out.Error != nil {
			return nil, out.Error
		}
		return worst, nil
	}
	e, err := engine.New(cmd.Context(), cfg.opts)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		d, err := e.Decide(cmd.Context(), c)
		if err != nil {
			return nil, err
		}
		add(d)
	}
	return worst, nil
}

// hookMemoryLimit is the heap size over which a hook collects garbage.
const hookMemoryLimit = 256 << 20

// hookServerBudget bounds the time a hook spends finding and asking a
// running gate before it decides itself.
const hookServerBudget = 500 * time.Millisecond

// askServer asks a running gate serve or gate mcp whose configuration has
// the hook's identity to decide its calls (see server.AskHook), unless
// noServer; ok is false when none answered, and the hook decides itself.
// With GATE_HOOK_DEBUG=1 it says on stderr which way the calls went.
func (a *app) askServer(ctx context.Context, noServer bool, cfg *config, calls []engine.Call) (_ *server.HookResponse, ok bool) {
	debug := func(format string, args ...any) {
		if os.Getenv("GATE_HOOK_DEBUG") == "1" {
			fmt.Fprintf(a.stderr, "gate hook: "+format+"\n", args...)
		}
	}
	if noServer {
		debug("deciding in process: --no-server")
		return nil, false
	}
	out, via, err := func() (*server.HookResponse, string, error) {
		ctx, cancel := context.WithTimeout(ctx, hookServerBudget)
		defer cancel()
		id, err := cfg.opts.Identity()
		if err != nil {
			return nil, "", fmt.Errorf("no configuration identity: %w", err)
		}
		dir, err := hooksDir()
		if err != nil {
			return nil, "", err
		}
		token, err := clientToken("")
		if err != nil {
			return nil, "", err
		}
		return server.AskHook(ctx, dir, token, server.HookRequest{Identity: id, Layers: cfg.opts.Layers, Env: os.Environ(), Calls: calls})
	}()
	if err != nil {
		debug("deciding in process: %v", err)
		return nil, false
	}
	debug("decided by the gate on %s", via)
	return out, true
}

// hookRoot sets the workspace root: --root or GATE_ROOT, else the agent's
// project directory, else the hook's cwd; and enters it, so that relative
// --settings and --policy paths are relative to the root wherever the
// agent's current directory is.
func (a *app) hookRoot(cmd *cobra.Command, agent, cwd string) error {
	root := ""
	if cmd.Flag("root").Changed || os.Getenv("GATE_ROOT") != "" {
		root = a.v.GetString("root")
	}
	for _, name := range projectEnv[agent] {
		if root == "" {
			root = os.Getenv(name)
		}
	}
	if root == "" {
		root = cwd
	}
	if root == "" {
		return nil // the default: the current directory
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("workspace root %q: %w", root, err)
	}
	if err := os.Chdir(abs); err != nil {
		return fmt.Errorf("workspace root %q: %w", abs, err)
	}
	a.v.Set("root", abs)
	return nil
}

// hookDirectory is the directory a shell call runs in: the hook's cwd,
// relative to the root when inside it (absolute otherwise, for the
// directory rules to refuse); "" for the root itself or no cwd.
func (a *app) hookDirectory(cwd string) string {
	if cwd == "" {
		return ""
	}
	root := a.v.GetString("root")
	rel, err := filepath.Rel(root, cwd)
	switch {
	case err != nil:
		return cwd
	case rel == ".":
		return ""
	case rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		return cwd
	}
	return rel
}

// supervisedInput is Claude Code's Bash input with the command rewritten
// to run through gate exec, with this hook's settings, root and policies,
// in the directory the agent runs it in. The hook already decided (and the
// agent's own permissions apply), so gate exec does not ask again: it runs
// in yolo mode, where exclude and allowlist entries still hold, at exec
// time too. Output and exit status are the command's own (--output raw).
func (a *app) supervisedInput(in hookInput) (map[string]any, error) {
	command, _ := in.ToolInput["command"].(string)
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--supervise: cannot find the gate binary: %w", err)
	}
	root, err := filepath.Abs(a.v.GetString("root"))
	if err != nil {
		return nil, err
	}
	args := []string{self, "exec", "--root", root}
	for _, f := range a.list("settings") {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		args = append(args, "--settings", abs)
	}
	for _, p := range a.list("policy") {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		args = append(args, "--policy", abs)
	}
	if u := a.v.GetString("opa-url"); u != "" {
		args = append(args, "--opa-url", u)
	}
	if dir := a.hookDirectory(in.Cwd); dir != "" && !filepath.IsAbs(dir) {
		args = append(args, "--directory", dir)
	}
	args = append(args, "--approval-mode", engine.ApprovalYolo, "--output", "raw", "--timeout", "10m", "--command", command)
	out := make(map[string]any, len(in.ToolInput))
	for k, v := range in.ToolInput {
		out[k] = v
	}
	out["command"] = "exec " + quoteWords(args)
	return out, nil
}

// quoteWords writes words as a shell command line.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		s, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			s = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		q[i] = s
	}
	return strings.Join(q, " ")
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
			// Gemini CLI asks its user, even under --yolo.
			return map[string]any{"decision": "ask", "reason": reason}
		}
	}
	return map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       d.Decision,
		"permissionDecisionReason": reason,
	}}
}
