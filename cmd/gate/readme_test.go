package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEAgentSnippets checks that the README's agent configuration
// snippets are the files in examples/agents, one source: every block
// marked <!-- examples/agents/... --> holds that file, and every file is
// shown.
func TestREADMEAgentSnippets(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- (examples/agents/[^ ]+) -->\n```json\n(.*?)\n```").FindAllStringSubmatch(string(readme), -1)
	shown := map[string]bool{}
	for _, b := range blocks {
		file, err := os.ReadFile(filepath.Join("../..", b[1]))
		if err != nil {
			t.Errorf("README shows %s: %v", b[1], err)
			continue
		}
		if strings.TrimRight(string(file), "\n") != b[2] {
			t.Errorf("README's %s differs from the file:\n%s\nfile:\n%s", b[1], b[2], file)
		}
		var v any
		if err := json.Unmarshal(file, &v); err != nil {
			t.Errorf("%s: %v", b[1], err)
		}
		shown[b[1]] = true
	}
	files, _ := filepath.Glob("../../examples/agents/*/*.json")
	if len(files) == 0 {
		t.Fatal("no files in examples/agents")
	}
	for _, f := range files {
		if name := strings.TrimPrefix(filepath.ToSlash(f), "../../"); !shown[name] {
			t.Errorf("README does not show %s", name)
		}
	}
}

// TestHookSnippetsFailClosed runs each hook command of examples/agents as
// the agents do (sh -c, the payload on stdin) with no gate on PATH: it
// must exit 2, which blocks the call, not 127, which lets it through.
func TestHookSnippetsFailClosed(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("SKIPPED: no sh on PATH to run the hook commands with")
	}
	files, _ := filepath.Glob("../../examples/agents/*/hook.json")
	if len(files) != 3 {
		t.Fatalf("hook snippets %v", files)
	}
	for _, f := range files {
		bs, _ := os.ReadFile(f)
		var cfg struct {
			Hooks map[string][]struct {
				Hooks []struct{ Command string }
			}
		}
		if err := json.Unmarshal(bs, &cfg); err != nil {
			t.Fatal(err)
		}
		for _, groups := range cfg.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					cmd := exec.Command(sh, "-c", h.Command)
					cmd.Env = []string{"PATH=" + t.TempDir()} // nothing on it
					cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm victim.txt"}}`)
					out, err := cmd.CombinedOutput()
					var ee *exec.ExitError
					if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "gate: not found") {
						t.Errorf("%s without gate: %v %q, want exit status 2", f, err, out)
					}
				}
			}
		}
	}
}
