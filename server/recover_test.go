package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/engine"
)

// A panic in an MCP handler (here a tool that panics; the SDK runs handlers
// in goroutines where net/http's recovery does not reach) answers the call
// with internal_error, and the server goes on: before the recovery, it
// ended the process. A panic while deciding is a deny naming the panic.
func TestMCPPanicRecovered(t *testing.T) {
	g, _ := mcpGateway(t, yolo())
	s := NewMCPServer(g, "test")
	mcp.AddTool(s, &mcp.Tool{Name: "boom"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		var argv []string
		_ = argv[len("boom"):]
		return nil, nil, nil
	})
	engine.SetParseHook(func(c string) {
		if c == "sh +o" {
			panic("parser bug")
		}
	})
	t.Cleanup(func() { engine.SetParseHook(nil) })
	srv := httptest.NewServer(NewHandler(g, HandlerOptions{Token: "t0k", MCP: NewMCPHandler(s)}))
	defer srv.Close()
	client := srv.Client()
	client.Transport = bearer{"t0k", client.Transport}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"boom", map[string]any{}, "gate: [internal_error] internal error: panic while handling tools/call: runtime error: slice bounds out of range"},
		{engine.ToolShell, map[string]any{"command": "sh +o", "is_background": false}, "[internal_error] internal error: panic while deciding: parser bug"},
		{engine.ToolShell, map[string]any{"command": "echo still here", "is_background": false}, "Stdout: still here"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if !strings.Contains(textOf(res), tc.want) {
			t.Errorf("%s %v: %q, want %q", tc.tool, tc.args, textOf(res), tc.want)
		}
	}
}
