package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio starts `gate mcp` as an agent would (a process speaking MCP
// on stdio) and drives it with the Go SDK's client.
func TestMCPStdio(t *testing.T) {
	gateBin, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Skip("gate not on PATH")
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "victim"), []byte("x"), 0o644)
	settings := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"]}}`), 0o644)
	cmd := exec.Command(gateBin, "mcp", "--root", root, "--settings", settings, "--approval-mode", "yolo")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "edit,glob,grep_search,list_directory,read_file,run_shell_command,write_file" {
		t.Fatalf("tools %v", names)
	}
	text := func(res *mcp.CallToolResult) string {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"run_shell_command", map[string]any{"command": "echo hi from $QWEN_CODE", "is_background": false}, false, "Stdout: hi from 1\n"},
		{"run_shell_command", map[string]any{"command": "true && \\rm victim", "is_background": false}, true, "[command_excluded]"},
		{"write_file", map[string]any{"file_path": "a.txt", "content": "alpha\n"}, false, "Successfully created and wrote to new file: a.txt."},
		{"edit", map[string]any{"file_path": "a.txt", "old_string": "alpha", "new_string": "beta"}, false, "The file: a.txt has been updated."},
		{"edit", map[string]any{"file_path": "a.txt", "old_string": "gamma", "new_string": "delta"}, true, "0 occurrences found"},
		{"grep_search", map[string]any{"pattern": "BETA"}, false, "a.txt:1:beta"},
		{"write_file", map[string]any{"file_path": "../escape.txt", "content": "x"}, true, "[path_outside_root]"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if res.IsError != tc.isError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: isError %v, %q; want %v, %q", tc.tool, tc.args, res.IsError, text(res), tc.isError, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "victim")); err != nil {
		t.Error("the excluded command ran")
	}
	if bs, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(bs) != "beta\n" {
		t.Errorf("a.txt holds %q", bs)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "escape.txt")); err == nil {
		t.Error("a write escaped the root")
	}
}

// TestMCPStdioMalformedLines feeds a real `gate mcp` lines that are not
// JSON-RPC messages, each followed by a request: each bad line gets a
// JSON-RPC error (parse error -32700 with id null for a line that is not
// JSON) and the request after it gets its answer; at the end, a tool call
// still runs.
func TestMCPStdioMalformedLines(t *testing.T) {
	gateBin, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Skip("gate not on PATH")
	}
	cmd := exec.Command(gateBin, "mcp", "--root", t.TempDir(), "--approval-mode", "yolo")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("writing %q: %v", line, err)
		}
	}
	type response struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	// until reads responses up to the one with id, and returns those before it.
	until := func(id float64) ([]response, response) {
		t.Helper()
		var before []response
		for lines.Scan() {
			var r response
			if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
				t.Fatalf("gate mcp wrote %q: %v", lines.Text(), err)
			}
			if r.ID == id {
				return before, r
			}
			before = append(before, r)
		}
		t.Fatalf("gate mcp ended before answering %v: %v", id, lines.Err())
		return nil, response{}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if _, r := until(1); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, tc := range []struct {
		line string
		code int
		id   any
	}{
		{"garbage", -32700, nil},
		{`{"jsonrpc":"2.0","id":5,"method":"ping"`, -32700, nil},
		{`{"jsonrpc":"2.0","id":6,"method":"ping"} {"x":1}`, -32700, nil},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, 7.0},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, nil},
		{`[]`, -32600, nil},
		{`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, -32600, nil},
	} {
		send(tc.line)
		ping := float64(100 + i)
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"ping"}`, ping))
		before, r := until(ping)
		if r.Error != nil {
			t.Fatalf("after %q, ping failed: %+v", tc.line, r.Error)
		}
		if len(before) != 1 || before[0].Error == nil || before[0].Error.Code != tc.code || before[0].ID != tc.id {
			t.Fatalf("%q answered %+v, want one error %d with id %v", tc.line, before, tc.code, tc.id)
		}
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"command":"echo hi","is_background":false}}}`)
	if _, r := until(2); r.Error != nil || !strings.Contains(string(r.Result), `Stdout: hi\n`) {
		t.Fatalf("tools/call: %s %+v", r.Result, r.Error)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("gate mcp exited with %v at the end of its input", err)
	}
}
