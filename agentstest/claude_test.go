package agentstest

import (
	"path/filepath"
	"testing"
)

const prompt = "Run the scenario."

var claude = agent{
	name: "claude-code", bin: "claude", settings: ".qwen/gate.json",
	configure: func(t *testing.T, route, home, dir string) []string {
		args := []string{"-p", prompt, "--model", "claude-sonnet-4-5"}
		if route == routeHook {
			writeFile(t, filepath.Join(dir, ".claude", "settings.json"), snippet(t, "claude-code/hook.json"))
			return args
		}
		writeFile(t, filepath.Join(dir, ".mcp.json"), snippet(t, "claude-code/mcp.json"))
		writeFile(t, filepath.Join(dir, ".claude", "settings.json"), snippet(t, "claude-code/mcp-settings.json"))
		return append(args, "--allowedTools", "mcp__gate")
	},
	env: func(url string) []string {
		return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-gate-test",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
			"DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1", "CLAUDE_CODE_ENABLE_TELEMETRY=0"}
	},
	shell: func(route, command, directory string) Call {
		if route == routeHook {
			if directory != "" {
				command = "cd " + directory + " && " + command
			}
			return Call{Name: "Bash", Args: map[string]any{"command": command, "description": "scenario"}}
		}
		args := map[string]any{"command": command, "is_background": false}
		if directory != "" {
			args["directory"] = directory
		}
		return Call{Name: "mcp__gate__run_shell_command", Args: args}
	},
	write: func(route, path, content string) Call {
		name := "Write"
		if route == routeMCP {
			name = "mcp__gate__write_file"
		}
		return Call{Name: name, Args: map[string]any{"file_path": path, "content": content}}
	},
}

var agents = []agent{claude, qwen, gemini}
