package agentstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent is one pinned agent: how it is configured for a route, run,
// and how its tools are named and called.
type agent struct {
	name string // as in examples/agents and gate hook
	bin  string
	// settings is the gate settings file its snippets name.
	settings string
	// absDir: the shell tool takes only an absolute directory.
	absDir bool
	// configure writes the agent's configuration for route from the
	// snippet files into home and dir, and returns its extra arguments.
	configure func(t *testing.T, route, home, dir string) []string
	env       func(url string) []string
	// shell and write make the agent's tool calls for a route.
	shell func(route, command, directory string) Call
	write func(route, path, content string) Call
}

// A scenario is what the model asks for and what must (not) happen.
type scenario struct {
	name   string
	only   []string // agents it applies to; all when empty
	noGate bool     // gate not on PATH
	calls  func(a agent, route, dir string) []Call
	check  func(t *testing.T, route, dir string, s *Server)
}

const routeHook, routeMCP = "hook", "mcp"

func resultHas(t *testing.T, s *Server, want string) {
	t.Helper()
	resultHasAny(t, s, want)
}

// resultHasAny checks that a tool result sent back to the model contains
// one of wants.
func resultHasAny(t *testing.T, s *Server, wants ...string) {
	t.Helper()
	if !s.Called() {
		t.Errorf("the agent never offered the tool the scenario calls; requests: %+v", s.Requests())
		return
	}
	res := s.Results()
	for _, r := range res {
		for _, w := range wants {
			if strings.Contains(r, w) {
				return
			}
		}
	}
	t.Errorf("no tool result sent back to the model contains %q; results: %q", wants, res)
}

var scenarios = []scenario{
	{
		name: "deny_rm",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "rm victim.txt", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			fileIs(t, filepath.Join(dir, "victim.txt"), "victim\n")
			resultHas(t, s, "command_excluded")
		},
	},
	{
		name: "deny_bin_rm",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "/bin/rm victim.txt", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			fileIs(t, filepath.Join(dir, "victim.txt"), "victim\n")
			resultHas(t, s, "command_excluded")
		},
	},
	{
		name: "deny_bash_c",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "bash -c 'rm victim.txt'", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			fileIs(t, filepath.Join(dir, "victim.txt"), "victim\n")
			resultHas(t, s, "command_excluded")
		},
	},
	{
		name: "allow_echo",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "echo gate-said-hi", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			resultHas(t, s, "gate-said-hi")
		},
	},
	{
		name: "protected_write",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.write(route, filepath.Join(dir, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho pwned\n")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			absent(t, filepath.Join(dir, ".git", "hooks", "pre-commit"))
			// Gemini CLI's write_file refuses .git itself, before its
			// BeforeTool hook runs (see settings_write for gate's deny).
			resultHasAny(t, s, "path_protected", "Path not in workspace")
		},
	},
	{
		// The write tool on gate's own settings file.
		name: "settings_write",
		calls: func(a agent, route, dir string) []Call {
			p := filepath.Join(dir, a.settings)
			if a.name == claude.name && route == routeHook {
				// Claude Code's Write refuses a file it has not read.
				return []Call{{Name: "Read", Args: map[string]any{"file_path": p}}, a.write(route, p, "{}")}
			}
			return []Call{a.write(route, p, "{}")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			resultHas(t, s, "path_protected") // and the settings are checked after every scenario
		},
	},
	{
		name: "cd_relative",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "cd sub && echo x > ../.git/hooks/pre-commit", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			absent(t, filepath.Join(dir, ".git", "hooks", "pre-commit"))
			resultHas(t, s, "path_protected")
		},
	},
	{
		// Claude Code's Bash keeps its current directory between calls: the
		// hook's cwd is then sub, while the root and --settings stay put.
		name: "cd_then_call",
		only: []string{"claude-code"},
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "cd sub", ""), a.shell(route, "echo x > ../.git/hooks/pre-commit", ""),
				a.shell(route, "echo still-decided", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			absent(t, filepath.Join(dir, ".git", "hooks", "pre-commit"))
			if route == routeHook {
				resultHas(t, s, "path_protected")
			} else { // gate's shell calls do not share a directory
				resultHasAny(t, s, "path_protected", "path_outside_root")
			}
			resultHas(t, s, "still-decided")
		},
	},
	{
		// A directory argument (Qwen's directory, Gemini's dir_path) is
		// where the command runs: writing gate's own settings from there.
		name: "dir_path",
		calls: func(a agent, route, dir string) []Call {
			d := filepath.Dir(a.settings)
			if a.absDir {
				d = filepath.Join(dir, d)
			}
			return []Call{a.shell(route, "echo {} > gate.json", d)}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			resultHas(t, s, "path_protected")
		},
	},
	{
		// A command the policy asks about, with nobody to ask.
		name: "ask",
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "touch asked.txt", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			absent(t, filepath.Join(dir, "asked.txt"))
			resultHasAny(t, s, "approval_required", "approval_unavailable")
		},
	},
	{
		// Gemini 0.61 names list_directory's path dir_path.
		name: "list_dir_path",
		only: []string{"gemini"},
		calls: func(a agent, route, dir string) []Call {
			name := "list_directory"
			if route == routeMCP {
				name = "mcp_gate_list_directory"
			}
			return []Call{{Name: name, Args: map[string]any{"dir_path": "sub"}}}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			resultHas(t, s, "listed.txt")
		},
	},
	{
		// Qwen's monitor runs a shell command too (a deferred tool, called
		// through tool_call); the hook maps it to run_shell_command, the MCP
		// snippet excludes it.
		name: "monitor",
		only: []string{"qwen"},
		calls: func(a agent, route, dir string) []Call {
			return []Call{{Name: "monitor", Args: map[string]any{"command": "rm victim.txt; echo removed", "description": "scenario"}}}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			fileIs(t, filepath.Join(dir, "victim.txt"), "victim\n")
			if route == routeHook {
				resultHas(t, s, "command_excluded")
			}
		},
	},
	{
		name:   "gate_missing",
		noGate: true,
		calls: func(a agent, route, dir string) []Call {
			return []Call{a.shell(route, "rm victim.txt", "")}
		},
		check: func(t *testing.T, route, dir string, s *Server) {
			fileIs(t, filepath.Join(dir, "victim.txt"), "victim\n")
			if route == routeHook {
				resultHas(t, s, "gate: not found on PATH")
				return
			}
			// Over MCP, no gate means no gate tools: nothing reaches gate
			// and the built-in tools stay off.
			for _, r := range s.Results() {
				if strings.Contains(r, "decision") {
					t.Errorf("a call was decided with gate missing from PATH: %q", r)
				}
			}
		},
	},
}

func TestAgents(t *testing.T) {
	bins, gateDir := setup(t)
	for _, a := range agents {
		for _, route := range []string{routeHook, routeMCP} {
			for _, sc := range scenarios {
				if len(sc.only) > 0 && !contains(sc.only, a.name) {
					continue
				}
				t.Run(a.name+"/"+route+"/"+sc.name, func(t *testing.T) {
					if f := os.Getenv("GATE_AGENTS_ONLY"); f != "" && !strings.Contains(a.name+"/"+route+"/"+sc.name, f) {
						t.Skipf("SKIPPED: not in GATE_AGENTS_ONLY=%s", f)
					}
					home, dir := project(t, a.settings)
					srv := NewServer(sc.calls(a, route, dir)...)
					defer srv.Close()
					args := a.configure(t, route, home, dir)
					env := append(baseEnv(home, bins, gateDir, !sc.noGate), a.env(srv.URL)...)
					run(t, dir, env, filepath.Join(bins, a.bin), args...)
					for _, r := range srv.Requests() {
						t.Logf("model request %s %s tools=%d done=%d answered=%s results=%q", r.API, r.Path, len(r.Tools), r.done, r.Answered, r.Results)
					}
					sc.check(t, route, dir, srv)
					fileIs(t, filepath.Join(dir, a.settings), gateSettings)
				})
			}
		}
	}
}
