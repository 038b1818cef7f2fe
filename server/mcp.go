package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/runner"
)

// Arguments of gate's tools as MCP clients send them; the input schemas
// are generated from these types. Fields without omitempty are required.
// The seed's parameter names come first; the aliases other agents use
// (engine.CanonicalArgs) are accepted beside them, so a path parameter
// that has an alias is required by gate rather than by the schema.
type (
	// ShellArgs are run_shell_command's arguments.
	ShellArgs struct {
		Command      string `json:"command" jsonschema:"The exact bash command to execute (bash -c)."`
		Description  string `json:"description,omitempty" jsonschema:"A brief description of the command's purpose, shown to the user."`
		Directory    string `json:"directory,omitempty" jsonschema:"Directory to run in, relative to the project root; default the root."`
		DirPath      string `json:"dir_path,omitempty" jsonschema:"Alias of directory."`
		IsBackground bool   `json:"is_background" jsonschema:"true to start the command in the background and return its PID at once; false to wait for it."`
		Timeout      int    `json:"timeout,omitempty" jsonschema:"Timeout in milliseconds (at most 600000; default 120000)."`
	}
	// ListDirectoryArgs are list_directory's arguments.
	ListDirectoryArgs struct {
		Path             string   `json:"path,omitempty" jsonschema:"Required: the directory to list, absolute or relative to the project root."`
		DirPath          string   `json:"dir_path,omitempty" jsonschema:"Alias of path."`
		Ignore           []string `json:"ignore,omitempty" jsonschema:"Glob patterns of entry names to leave out."`
		RespectGitIgnore *bool    `json:"respect_git_ignore,omitempty" jsonschema:"Leave out git-ignored entries (default true)."`
	}
	// ReadFileArgs are read_file's arguments.
	ReadFileArgs struct {
		Path      string `json:"path,omitempty" jsonschema:"Required: the file to read, absolute or relative to the project root."`
		Offset    *int   `json:"offset,omitempty" jsonschema:"0-based line to start reading from."`
		Limit     *int   `json:"limit,omitempty" jsonschema:"Number of lines to read (default 2000)."`
		FilePath  string `json:"file_path,omitempty" jsonschema:"Alias of path."`
		StartLine *int   `json:"start_line,omitempty" jsonschema:"1-based first line, instead of offset."`
		EndLine   *int   `json:"end_line,omitempty" jsonschema:"1-based last line (inclusive), instead of limit."`
	}
	// WriteFileArgs are write_file's arguments.
	WriteFileArgs struct {
		FilePath string `json:"file_path" jsonschema:"File to write: absolute, or relative to the project root. Parent directories are created."`
		Content  string `json:"content" jsonschema:"The whole new content of the file."`
	}
	// GlobArgs are glob's arguments.
	GlobArgs struct {
		Pattern string `json:"pattern" jsonschema:"Glob pattern, with ** for any depth (for example src/**/*.ts); matched case-insensitively."`
		Path    string `json:"path,omitempty" jsonschema:"Directory to search; default the project root."`
		DirPath string `json:"dir_path,omitempty" jsonschema:"Alias of path."`
	}
	// GrepArgs are grep_search's arguments.
	GrepArgs struct {
		Pattern string `json:"pattern" jsonschema:"Regular expression (RE2 syntax), matched case-insensitively."`
		Path    string `json:"path,omitempty" jsonschema:"File or directory to search; default the project root."`
		Glob    string `json:"glob,omitempty" jsonschema:"Only search files matching this glob (for example *.go)."`
		Limit   *int   `json:"limit,omitempty" jsonschema:"Most matching lines to return (default 1000)."`
		DirPath string `json:"dir_path,omitempty" jsonschema:"Alias of path."`
		Include string `json:"include_pattern,omitempty" jsonschema:"Alias of glob."`
	}
	// EditArgs are edit's arguments.
	EditArgs struct {
		FilePath   string `json:"file_path" jsonschema:"File to edit: absolute, or relative to the project root."`
		OldString  string `json:"old_string" jsonschema:"Exact text to replace, with enough context to match once; empty to create a new file."`
		NewString  string `json:"new_string" jsonschema:"Text to put in its place."`
		ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"Replace every occurrence instead of requiring exactly one."`
		Multiple   bool   `json:"allow_multiple,omitempty" jsonschema:"Alias of replace_all."`
	}
)

const policyNote = " Every call is checked by gate's security policy before it runs; a refused call comes back as an error that says why."

// mcpTools describes gate's tools for MCP clients.
var mcpTools = []struct {
	name, title, description string
	add                      func(s *mcp.Server, t *mcp.Tool, g *Gateway)
}{
	{engine.ToolShell, "Shell", "Executes a shell command with bash -c and returns its Stdout, Stderr, Error, Exit Code, Signal and Background PIDs. Use is_background for servers and long-running jobs. Avoid interactive commands.", addTool[ShellArgs]},
	{engine.ToolListDirectory, "ReadFolder", "Lists the files and subdirectories of a directory, directories first.", addTool[ListDirectoryArgs]},
	{engine.ToolReadFile, "ReadFile", "Reads a file: text (2000 lines by default; use offset and limit for more), images and PDF as base64.", addTool[ReadFileArgs]},
	{engine.ToolWriteFile, "WriteFile", "Writes content to a file, replacing it or creating it with its parent directories.", addTool[WriteFileArgs]},
	{engine.ToolGlob, "FindFiles", "Finds files whose path matches a glob pattern, newest first.", addTool[GlobArgs]},
	{engine.ToolGrep, "SearchText", "Searches file contents for a regular expression and returns path:line:text for each matching line.", addTool[GrepArgs]},
	{engine.ToolEdit, "Edit", "Replaces text in a file: old_string must match exactly once unless replace_all is set; an empty old_string creates a new file.", addTool[EditArgs]},
}

// NewMCPServer returns an MCP server offering the tools the settings
// enable, each call going through the gateway: decided by the policy, run
// only when allowed (or approved, by elicitation when the client supports
// it), refused calls returned as tool errors.
func NewMCPServer(g *Gateway, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gate", Title: "gate: policy-checked shell and file tools", Version: version}, nil)
	s.AddReceivingMiddleware(g.recoverMCP)
	e := g.engine.Load()
	for _, t := range mcpTools {
		if e != nil && !e.Enabled(t.name) {
			continue
		}
		t.add(s, &mcp.Tool{Name: t.name, Title: t.title, Description: t.description + policyNote}, g)
	}
	if g.runner.Interactive() && (e == nil || e.Enabled(engine.ToolShell)) {
		addSessionTools(s, g)
	}
	return s
}

// recoverMCP answers a panic in a handler of an MCP request instead of
// letting it end the process (the SDK runs handlers in its own goroutines,
// where nothing else would catch it): a tool call gets a tool error with
// internal_error, any other request a JSON-RPC internal error.
func (g *Gateway) recoverMCP(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			g.log.Error("panic in an MCP handler", "method", method, "panic", v, "stack", string(debug.Stack()))
			msg := fmt.Sprintf("internal error: panic while handling %s: %v", method, v)
			if method == "tools/call" {
				res, err = toolError("gate: ["+string(engine.CodeInternal)+"] "+msg), nil
				return
			}
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
		}()
		return next(ctx, method, req)
	}
}

// NewMCPHandler serves an MCP server over streamable HTTP, with the SDK's
// DNS-rebinding protection on.
func NewMCPHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

func addTool[In any](s *mcp.Server, t *mcp.Tool, g *Gateway) {
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		args, err := toArgs(in)
		if err != nil {
			return toolError(err.Error()), nil, nil
		}
		ctx = withAsker(ctx, elicitAsker(req))
		out, err := g.Call(ctx, engine.Call{Tool: t.Name, Args: args})
		if err != nil {
			return toolError("gate: " + err.Error()), nil, nil
		}
		if out.Approval != nil && out.Approval.Outcome == outcomeInputRequired {
			// Newer clients answer server requests by calling again with
			// the answer (multi round-trip requests).
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{approvalInput: approvalRequest(engine.Call{Tool: t.Name, Args: args}, out.Decision)}}, nil, nil
		}
		if out.Decision.Decision == engine.Ask && out.Approval == nil {
			// Nobody can be asked: say so at once.
			out.Decision = unavailableDecision(out.Decision)
		}
		return mcpResult(out), nil, nil
	})
}

// unavailableDecision is the deny of an "ask" call that nobody can
// approve: the MCP client has no elicitation and no approvals API is
// served. The message says how to approve and how to allow such calls.
func unavailableDecision(d engine.Decision) engine.Decision {
	msg := "Nobody can approve this call: the MCP client does not support elicitation and gate mcp serves no approvals API. " +
		"To approve calls, start gate mcp with --approvals-listen 127.0.0.1:8788 and answer with 'gate approvals --server http://127.0.0.1:8788'; " +
		"to allow such calls without asking, add a tools.allowed entry (such as run_shell_command(git status) or read_file) to gate's settings."
	reasons := append([]engine.Reason{{Code: string(engine.CodeApprovalUnavailable), Message: msg}}, d.Reasons...)
	return engine.Decision{DecisionID: d.DecisionID, Decision: engine.Deny, Reasons: reasons}
}

// toArgs turns typed arguments back into the call's JSON object.
func toArgs(in any) (map[string]any, error) {
	bs, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var args map[string]any
	if err := json.Unmarshal(bs, &args); err != nil {
		return nil, err
	}
	return args, nil
}

func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// mcpResult renders a call's outcome: the reference's text for the model,
// the whole result as structured content; a refusal is an error whose text
// gives the reasons, so the model can adapt.
func mcpResult(out *CallResult) *mcp.CallToolResult {
	if !out.Ran() {
		var b strings.Builder
		fmt.Fprintf(&b, "gate refused this call (%s; decision %s):", out.Decision.Decision, out.Decision.DecisionID)
		for _, r := range out.Decision.Reasons {
			fmt.Fprintf(&b, "\n- [%s] %s", r.Code, r.Message)
		}
		if v := out.Approval; v != nil {
			fmt.Fprintf(&b, "\nApproval %s", v.Outcome)
			if v.By != "" {
				fmt.Fprintf(&b, " by %s", v.By)
			}
			if v.Reason != "" {
				fmt.Fprintf(&b, ": %s", v.Reason)
			}
		}
		res := toolError(b.String())
		res.StructuredContent = out
		return res
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text}}, StructuredContent: out}
	switch r := out.Result.(type) {
	case *fstools.Result:
		res.IsError = r.Error != nil
		if r.Data != "" {
			res.Content = append(res.Content, mcpData(r))
		}
	case *runner.Result:
		res.IsError = r.Error != "" && !r.Background
	}
	return res
}

func mcpData(r *fstools.Result) mcp.Content {
	data, _ := base64Decode(r.Data)
	if strings.HasPrefix(r.MimeType, "image/") {
		return &mcp.ImageContent{Data: data, MIMEType: r.MimeType}
	}
	if strings.HasPrefix(r.MimeType, "audio/") {
		return &mcp.AudioContent{Data: data, MIMEType: r.MimeType}
	}
	return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///" + r.Display, MIMEType: r.MimeType, Blob: data}}
}

// approvalInput names the approval question in multi round-trip requests.
const approvalInput = "gate_approval"

// outcomeInputRequired marks an approval that is asked as a multi
// round-trip input request: the call ends now and comes again with the
// answer.
const outcomeInputRequired = "input_required"

// elicitationProtocol is the first protocol version in which servers ask
// clients through input requests instead of elicitation/create calls.
const elicitationProtocol = "2026-07-28"

func approvalRequest(call engine.Call, d engine.Decision) *mcp.ElicitParams {
	args, _ := json.Marshal(call.Args)
	return &mcp.ElicitParams{
		Message: fmt.Sprintf("gate's policy asks for your approval: %s %s\nReason: %s", call.Tool, args, d.Reasons[0].Message),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "description": "Run this call?"},
			},
			"required": []string{"approve"},
		},
	}
}

func verdictOf(res *mcp.ElicitResult) Verdict {
	if res.Action == "accept" {
		if ok, _ := res.Content["approve"].(bool); ok {
			return Verdict{Outcome: "approved", By: "elicitation"}
		}
		return Verdict{Outcome: "denied", By: "elicitation", Reason: "the user did not approve"}
	}
	return Verdict{Outcome: "denied", By: "elicitation", Reason: "the user answered " + res.Action}
}

// elicitAsker asks the MCP client's user to approve a call, when the client
// declared the elicitation capability: with an elicitation/create request,
// or, from protocol 2026-07-28 on, as an input request answered by calling
// again.
func elicitAsker(req *mcp.CallToolRequest) asker {
	return func(ctx context.Context, call engine.Call, d engine.Decision) (Verdict, bool) {
		if r, ok := req.Params.InputResponses[approvalInput].(*mcp.ElicitResult); ok {
			return verdictOf(r), true
		}
		ss := req.Session
		if ss == nil {
			return Verdict{}, false
		}
		p := ss.InitializeParams()
		if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
			return Verdict{}, false
		}
		if p.ProtocolVersion >= elicitationProtocol {
			return Verdict{Outcome: outcomeInputRequired}, true
		}
		res, err := ss.Elicit(ctx, approvalRequest(call, d))
		if err != nil {
			return Verdict{Outcome: "cancelled", By: "elicitation", Reason: err.Error()}, true
		}
		return verdictOf(res), true
	}
}

func base64Decode(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
