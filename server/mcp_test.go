package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/runner"
)

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// ExerciseMCP drives an MCP session as an agent would: list the tools, run
// an allowed command, get a denied one as an error, write and edit a file.
// root is the gateway's workspace root.
func exerciseMCP(t *testing.T, cs *mcp.ClientSession, root string) {
	t.Helper()
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Name == "run_shell_command" {
			schema, _ := tool.InputSchema.(map[string]any)
			req, _ := schema["required"].([]any)
			if len(req) != 2 || !strings.Contains(tool.Description, "policy") {
				t.Errorf("run_shell_command schema %v, description %q", schema, tool.Description)
			}
		}
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "edit,glob,grep_search,list_directory,read_file,run_shell_command,write_file" {
		t.Fatalf("tools %v", names)
	}
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	res := call("run_shell_command", map[string]any{"command": "echo hi; exit 3", "is_background": false})
	if res.IsError || !strings.Contains(textOf(res), "Stdout: hi\n") || !strings.Contains(textOf(res), "Exit Code: 3") || res.StructuredContent == nil {
		t.Fatalf("allowed command: %+v %q", res, textOf(res))
	}
	res = call("run_shell_command", map[string]any{"command": "ls; /bin/rm -rf victim", "is_background": false})
	if !res.IsError || !strings.Contains(textOf(res), "[command_excluded] Command '/bin/rm -rf victim' is blocked by configuration") {
		t.Fatalf("denied command: %+v %q", res, textOf(res))
	}
	if _, err := os.Stat(filepath.Join(root, "victim")); err != nil {
		t.Fatal("a denied command ran")
	}
	res = call("write_file", map[string]any{"file_path": "notes.txt", "content": "one\ntwo\n"})
	if res.IsError {
		t.Fatalf("write: %q", textOf(res))
	}
	res = call("edit", map[string]any{"file_path": "notes.txt", "old_string": "two", "new_string": "2"})
	if res.IsError {
		t.Fatalf("edit: %q", textOf(res))
	}
	if bs, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(bs) != "one\n2\n" {
		t.Fatalf("notes.txt holds %q", bs)
	}
	res = call("read_file", map[string]any{"file_path": "notes.txt"})
	if res.IsError || textOf(res) != "one\n2\n" {
		t.Fatalf("read: %q", textOf(res))
	}
	res = call("run_shell_command", map[string]any{"command": "ls"})
	if !res.IsError {
		t.Fatalf("a call without is_background: %q", textOf(res))
	}
}

func mcpGateway(t *testing.T, s engine.Settings) (*Gateway, string) {
	g := newGateway(t, s)
	root := g.Runner().Root()
	os.WriteFile(filepath.Join(root, "victim"), []byte("x"), 0o644)
	return g, root
}

func TestMCPInMemory(t *testing.T) {
	g, root := mcpGateway(t, yolo("run_shell_command(rm)"))
	ctx := context.Background()
	cs := mcpClient(t, ctx, g, "test")
	exerciseMCP(t, cs, root)
}

func TestMCPOverHTTP(t *testing.T) {
	g, root := mcpGateway(t, yolo("run_shell_command(rm)"))
	mcpHandler := NewMCPHandler(NewMCPServer(g, "test"))
	srv := httptest.NewServer(NewHandler(g, HandlerOptions{Token: "t0k", MCP: mcpHandler}))
	defer srv.Close()
	ctx := context.Background()
	// Without the token the MCP endpoint is refused like the rest.
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil); err == nil {
		t.Fatal("connected without the token")
	}
	client := srv.Client()
	client.Transport = bearer{"t0k", client.Transport}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exerciseMCP(t, cs, root)
}

func TestMCPListsEnabledToolsOnly(t *testing.T) {
	g, _ := mcpGateway(t, engine.Settings{Core: []string{"read_file", "run_shell_command(git)"}, Exclude: []string{"glob"}, ApprovalMode: engine.ApprovalYolo})
	ctx := context.Background()
	cs := mcpClient(t, ctx, g, "test")
	tools, _ := cs.ListTools(ctx, nil)
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "read_file,run_shell_command" {
		t.Fatalf("tools %v", names)
	}
}

// TestMCPElicitation asks the client's user when the policy asks.
func TestMCPElicitation(t *testing.T) {
	for _, answer := range []bool{true, false} {
		g, root := mcpGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
		g.SetApprovals(NewApprovals(time.Second, nil))
		ct, st := mcp.NewInMemoryTransports()
		ctx := context.Background()
		ss, _ := NewMCPServer(g, "test").Connect(ctx, st, nil)
		defer ss.Close()
		var asked string
		client := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked = req.Params.Message
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": answer}}, nil
			},
		})
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": "touch made", "is_background": false}})
		cs.Close()
		if err != nil {
			t.Fatal(err)
		}
		_, statErr := os.Stat(filepath.Join(root, "made"))
		if !strings.Contains(asked, "touch made") || res.IsError == answer || (statErr == nil) != answer {
			t.Fatalf("answer %v: asked %q, result %q, made %v", answer, asked, textOf(res), statErr == nil)
		}
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	next := b.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// TestMCPSessions drives an interactive program through the session tools,
// offered when interactive shells are enabled.
func TestMCPSessions(t *testing.T) {
	root := t.TempDir()
	e, err := engine.New(context.Background(), engine.Options{Root: root, Home: t.TempDir(), Settings: yolo("run_shell_command(rm)")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.Options{Root: root, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Shutdown(context.Background())
	g := NewGateway(e, r, nil, nil)
	ctx := context.Background()
	cs := mcpClient(t, ctx, g, "test")
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return textOf(res)
	}
	out := call("session_start", map[string]any{"command": `read -p "Name? " n; echo "hi $n"`})
	id := strings.Fields(strings.TrimPrefix(out, "Session "))[0]
	if !strings.Contains(out, "Name?") {
		t.Fatalf("start: %q", out)
	}
	if out := call("session_send", map[string]any{"id": id, "text": "gate", "keys": []any{"Enter"}}); !strings.Contains(out, "hi gate") || !strings.Contains(out, "exited with code 0") {
		t.Fatalf("send: %q", out)
	}
	if out := call("session_start", map[string]any{"command": "rm -rf x"}); !strings.Contains(out, "[command_excluded]") {
		t.Fatalf("denied session: %q", out)
	}
	// With interactive shells, run_shell_command itself runs in a terminal.
	if out := call("run_shell_command", map[string]any{"command": "tty -s && echo in-a-terminal", "is_background": false}); !strings.Contains(out, "Stdout: in-a-terminal") {
		t.Fatalf("run_shell_command: %q", out)
	}
}

// TestMCPSeedNames calls gate's MCP tools with the seed's parameter names
// and with the aliases other agents use, and runs the dir_path attack of
// issue 14: a shell call in dir_path .gemini overwriting gate.json there.
func TestMCPSeedNames(t *testing.T) {
	g, root := mcpGateway(t, yolo("run_shell_command(rm)"))
	os.MkdirAll(filepath.Join(root, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(root, ".gemini", "gate.json"), []byte(`{"tools":{"exclude":["run_shell_command(rm)"]}}`), 0o644)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	ctx := context.Background()
	cs := mcpClient(t, ctx, g, "test")
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		seed := map[string]string{"read_file": "path", "list_directory": "path", "glob": "path", "grep_search": "glob", "write_file": "file_path", "edit": "file_path", "run_shell_command": "directory"}[tool.Name]
		if _, ok := props[seed]; !ok {
			t.Errorf("%s does not advertise the seed's %q: %v", tool.Name, seed, props)
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": "notes.txt"}, "one\ntwo\nthree\n"},
		{"read_file", map[string]any{"file_path": "notes.txt", "offset": 1, "limit": 1}, "two"},
		{"read_file", map[string]any{"file_path": "notes.txt", "start_line": 3, "end_line": 3}, "three"},
		{"list_directory", map[string]any{"path": "."}, "notes.txt"},
		{"list_directory", map[string]any{"dir_path": "."}, "notes.txt"},
		{"grep_search", map[string]any{"pattern": "thr", "include_pattern": "*.txt"}, "three"},
		{"glob", map[string]any{"pattern": "*.txt", "dir_path": "."}, "notes.txt"},
		{"run_shell_command", map[string]any{"command": "pwd", "dir_path": ".gemini", "is_background": false}, ".gemini"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError || !strings.Contains(textOf(res), c.want) {
			t.Errorf("%s %v: %v %q, want %q", c.tool, c.args, err, func() string {
				if res == nil {
					return ""
				}
				return textOf(res)
			}(), c.want)
		}
	}
	// The attack: the directory comes from dir_path, so the write is to
	// .gemini/gate.json, a protected path.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": "echo {} > gate.json", "dir_path": ".gemini", "is_background": false}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "path_protected") {
		t.Fatalf("write to .gemini/gate.json through dir_path: %v %q", err, textOf(res))
	}
	if bs, _ := os.ReadFile(filepath.Join(root, ".gemini", "gate.json")); !strings.Contains(string(bs), "exclude") {
		t.Fatalf("gate.json was overwritten: %q", bs)
	}
}

// TestMCPApprovalUnavailable: a client without elicitation, and no
// approvals API, gets a deny at once that says how to approve or allow.
func TestMCPApprovalUnavailable(t *testing.T) {
	g, root := mcpGateway(t, engine.Settings{ApprovalMode: engine.ApprovalDefault})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs := mcpClient(t, ctx, g, "qwen-like")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": "touch made", "is_background": false}})
	if err != nil {
		t.Fatal(err)
	}
	text := textOf(res)
	for _, want := range []string{"(deny;", "[approval_unavailable]", "--approvals-listen", "gate approvals", "tools.allowed", "[approval_required]"} {
		if !res.IsError || !strings.Contains(text, want) {
			t.Errorf("result lacks %q: %q", want, text)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "made")); err == nil {
		t.Fatal("the command ran")
	}
}

// mcpClient connects a client named name to g's MCP server over in-memory
// transports; both are closed when the test ends.
func mcpClient(t *testing.T, ctx context.Context, g *Gateway, name string) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := NewMCPServer(g, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
