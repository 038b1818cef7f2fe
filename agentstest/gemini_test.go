package agentstest

import (
	"path/filepath"
	"testing"
)

var gemini = agent{
	name: "gemini", bin: "gemini", settings: ".gemini/gate.json",
	configure: func(t *testing.T, route, home, dir string) []string {
		snip := "gemini/hook.json"
		if route == routeMCP {
			snip = "gemini/mcp.json"
		}
		writeFile(t, filepath.Join(dir, ".gemini", "settings.json"), snippet(t, snip))
		// Gemini reads a project's settings only in a trusted folder (README).
		writeFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), mustJSON(t, map[string]string{dir: "TRUST_FOLDER"}))
		// The user's settings: API key auth, no telemetry, usage statistics
		// or update checks (the machine has no internet).
		writeFile(t, filepath.Join(home, ".gemini", "settings.json"), []byte(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": true}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true, "enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}`))
		// Headless, hooks run only under --yolo (README).
		return []string{"-p", prompt, "--yolo", "--model", "gemini-2.5-pro"}
	},
	env: func(url string) []string {
		// Headless, Gemini waits for ever for an answer to an ask (README).
		return []string{"GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=gate-test-key", "GEMINI_TELEMETRY_ENABLED=false", "GATE_HOOK_ASK=deny"}
	},
	shell: func(route, command, directory string) Call {
		args := map[string]any{"command": command, "description": "scenario"}
		name := "run_shell_command"
		if route == routeMCP {
			name = "mcp_gate_run_shell_command"
			args["is_background"] = false
		}
		if directory != "" {
			args["dir_path"] = directory
		}
		return Call{Name: name, Args: args}
	},
	write: func(route, path, content string) Call {
		name := "write_file"
		if route == routeMCP {
			name = "mcp_gate_write_file"
		}
		return Call{Name: name, Args: map[string]any{"file_path": path, "content": content}}
	},
}
