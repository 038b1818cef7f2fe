package agentstest

import (
	"path/filepath"
	"testing"
)

var qwen = agent{
	name: "qwen", bin: "qwen", settings: ".qwen/gate.json", absDir: true,
	configure: func(t *testing.T, route, home, dir string) []string {
		snip := "qwen/hook.json"
		if route == routeMCP {
			snip = "qwen/mcp.json"
		}
		writeFile(t, filepath.Join(dir, ".qwen", "settings.json"), snippet(t, snip))
		// The user's settings: no telemetry, no update checks, no usage
		// statistics (the machine has no internet).
		writeFile(t, filepath.Join(home, ".qwen", "settings.json"), []byte(`{
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
}`))
		// Headless, hooks run only under --yolo (README).
		return []string{"-p", prompt, "--yolo", "--auth-type", "openai", "--model", "gate-model"}
	},
	env: func(url string) []string {
		return []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=sk-gate-test", "OPENAI_MODEL=gate-model",
			"QWEN_TELEMETRY_ENABLED=false", "QWEN_CODE_DISABLE_PRECONNECT=1"}
	},
	shell: func(route, command, directory string) Call {
		args := map[string]any{"command": command, "is_background": false, "description": "scenario"}
		if directory != "" {
			args["directory"] = directory
		}
		name := "run_shell_command"
		if route == routeMCP {
			name = "mcp__gate__run_shell_command"
		}
		return Call{Name: name, Args: args}
	},
	write: func(route, path, content string) Call {
		name := "write_file"
		if route == routeMCP {
			name = "mcp__gate__write_file"
		}
		return Call{Name: name, Args: map[string]any{"file_path": path, "content": content}}
	},
}
