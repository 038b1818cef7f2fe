package main

import (
	"context"
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
