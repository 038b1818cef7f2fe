package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

func shellCall(command string) Call {
	return Call{Tool: ToolShell, Args: map[string]any{"command": command}}
}

func exclude(entries ...string) Settings {
	return Settings{Exclude: entries, ApprovalMode: ApprovalYolo}
}

func newTestEngine(t testing.TB, s Settings, policyDirs ...string) *Engine {
	t.Helper()
	e, err := New(context.Background(), Options{Settings: s, Root: t.TempDir(), Home: t.TempDir(), PolicyDirs: policyDirs})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// writePolicy writes one Rego module into a fresh policy directory.
func writePolicy(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "extra.rego"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// engineWithDecision replaces the embedded entrypoint module with src.
func engineWithDecision(t *testing.T, src string, timeout time.Duration) *Engine {
	t.Helper()
	pol, err := LoadPolicies(nil)
	if err != nil {
		t.Fatal(err)
	}
	delete(pol.Modules, "embedded:gate/decision.rego")
	if len(pol.Modules) == 0 {
		t.Fatal("no embedded modules")
	}
	m, err := ast.ParseModuleWithOpts("decision.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	pol.Modules["test:decision.rego"] = m
	e, err := NewWithPolicies(context.Background(), Options{Settings: exclude(), Root: t.TempDir(), EvalTimeout: timeout}, pol)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings Settings
		command  string
		want     string
		code     Code
	}{
		{"no settings", exclude(), "rm -rf build", Allow, CodeAllowed},
		{"excluded", exclude("run_shell_command(rm)"), "rm -rf build", Deny, CodeCommandExcluded},
		{"excluded in chain", exclude("run_shell_command(rm)"), "ls && rm x", Deny, CodeCommandExcluded},
		{"word boundary", exclude("run_shell_command(rm)"), "rmdir x", Allow, CodeAllowed},
		{"alias ShellTool", exclude("ShellTool(rm)"), "/bin/rm x", Deny, CodeCommandExcluded},
		{"shell disabled", exclude("run_shell_command"), "ls", Deny, CodeShellDisabled},
		{"parse error", exclude(), "echo 'unterminated", Deny, CodeParseError},
		{"dynamic program", exclude("run_shell_command(rm)"), "$x y", Deny, CodeCommandUnprovable},
		{"dynamic program unrestricted", exclude(), "$x y", Allow, CodeAllowed},
		{"allowlist", Settings{Core: []string{"run_shell_command(ls)"}, ApprovalMode: ApprovalYolo}, "ls | wc -l", Deny, CodeCommandNotAllowed},
		{"wildcard core", Settings{Core: []string{"run_shell_command"}, ApprovalMode: ApprovalYolo}, "ls | wc -l", Allow, CodeAllowed},
		{"default mode asks", Settings{ApprovalMode: ApprovalDefault}, "ls", Ask, CodeApprovalRequired},
		{"default mode allowed", Settings{Allowed: []string{"run_shell_command(ls)"}, ApprovalMode: ApprovalDefault}, "ls -la", Allow, CodeAllowed},
		{"allowed checked per segment", Settings{Allowed: []string{"run_shell_command(ls)"}, ApprovalMode: ApprovalDefault}, "ls; rm x", Ask, CodeApprovalRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, tc.settings)
			d, err := e.Decide(context.Background(), shellCall(tc.command))
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != tc.want || !hasCode(d, tc.code) {
				t.Fatalf("%q: got %+v, want %s with %s", tc.command, d, tc.want, tc.code)
			}
		})
	}
}

func hasCode(d Decision, c Code) bool {
	for _, r := range d.Reasons {
		if r.Code == string(c) {
			return true
		}
	}
	return false
}

func TestDecideInvalidCall(t *testing.T) {
	e := newTestEngine(t, exclude())
	for _, call := range []Call{
		{Tool: ToolShell, Args: map[string]any{}},
		{Tool: ToolShell, Args: map[string]any{"command": 42}},
	} {
		_, err := e.Decide(context.Background(), call)
		if CodeOf(err) != CodeInvalidCall {
			t.Errorf("%+v: got error %v, want %s", call, err, CodeInvalidCall)
		}
	}
}

// TestFailClosed checks that every way a policy can fail to produce a
// well-formed decision ends in a deny naming the cause.
func TestFailClosed(t *testing.T) {
	ctx := context.Background()
	t.Run("runtime error", func(t *testing.T) {
		dir := writePolicy(t, `package gate.rules.boom

v := input.tool

v := "other"

deny contains {"code": "boom", "message": "x"} if v == "x"
`)
		e := newTestEngine(t, exclude(), dir)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodePolicyError) {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("reason without code", func(t *testing.T) {
		dir := writePolicy(t, `package gate.rules.nocode

deny contains {"message": "no code"}
`)
		e := newTestEngine(t, exclude(), dir)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodePolicyError) {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("undefined", func(t *testing.T) {
		e := engineWithDecision(t, "package gate\n\ndecision := {\"decision\": \"allow\", \"reasons\": []} if input.never\n", 0)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodePolicyUndefined) {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("unknown decision", func(t *testing.T) {
		e := engineWithDecision(t, "package gate\n\ndecision := {\"decision\": \"maybe\", \"reasons\": []}\n", 0)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodePolicyError) || !strings.Contains(d.Reasons[0].Message, "maybe") {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("deny without reason", func(t *testing.T) {
		e := engineWithDecision(t, "package gate\n\ndecision := {\"decision\": \"ask\", \"reasons\": []}\n", 0)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodePolicyError) {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		e := engineWithDecision(t, `package gate

decision := {"decision": "allow", "reasons": [{"code": "allowed", "message": "x"}]} if {
	not _found
}

_found if {
	some i in numbers.range(1, 5000)
	some j in numbers.range(1, 5000)
	i * j == -1
}
`, 20*time.Millisecond)
		d, _ := e.Decide(ctx, shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodeEvalTimeout) {
			t.Fatalf("got %+v", d)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		e := newTestEngine(t, exclude())
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		d, _ := e.Decide(cctx, shellCall("ls"))
		if d.Decision != Deny {
			t.Fatalf("got %+v", d)
		}
	})
}

func TestBadPolicy(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":               "package gate.rules.x\n\ndeny contains if {\n",
		"unsafe":               "package gate.rules.x\n\ndeny contains r if { r := http.send({\"method\": \"get\", \"url\": \"http://127.0.0.1\"}) }\n",
		"redefines entrypoint": "package gate\n\ndecision := {\"decision\": \"allow\", \"reasons\": []}\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := writePolicy(t, src)
			_, err := New(context.Background(), Options{Root: t.TempDir(), PolicyDirs: []string{dir}})
			var ee *Error
			if !errors.As(err, &ee) || ee.Code != CodeBadPolicy {
				t.Fatalf("got %v, want a %s error", err, CodeBadPolicy)
			}
		})
	}
}

// TestDecideConcurrent decides the same calls from many goroutines: every
// decision must be the one made alone (the parser and the prepared query are
// shared).
func TestDecideConcurrent(t *testing.T) {
	e := newTestEngine(t, Settings{Core: []string{"run_shell_command(ls)", "run_shell_command(echo)"},
		Exclude: []string{"run_shell_command(rm)"}, ApprovalMode: ApprovalYolo})
	commands := []string{"ls -la", "echo \"$(rm x)\"", "ls | rm y", "echo a b c", "sudo rm z", "echo ~/x > /dev/null", "$x"}
	want := map[string]string{}
	for _, c := range commands {
		d, err := e.Decide(context.Background(), shellCall(c))
		if err != nil {
			t.Fatal(err)
		}
		want[c] = d.Decision
	}
	errs := make(chan string, 800)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				c := commands[(g+i)%len(commands)]
				if d, _ := e.Decide(context.Background(), shellCall(c)); d.Decision != want[c] {
					errs <- fmt.Sprintf("%q: %s, alone %s", c, d.Decision, want[c])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestRemoteKeepSettingsKeys gives segments keys for entries longer than
// any local one when the settings live on the remote decision point.
func TestRemoteKeepSettingsKeys(t *testing.T) {
	e, err := New(context.Background(), Options{Root: t.TempDir(), Remote: RemoteOptions{URL: "http://127.0.0.1:1", KeepSettings: true}})
	if err != nil {
		t.Fatal(err)
	}
	in, err := e.Input(shellCall("git -C x push --force origin main"))
	if err != nil {
		t.Fatal(err)
	}
	keys := in.Shell.Segments[0].Keys
	if len(keys) == 0 || keys[len(keys)-1] != "git -C x push --force origin main" {
		t.Fatalf("keys %v", keys)
	}
	d := e.Evaluate(context.Background(), in)
	if d.Decision != Deny || !hasCode(d, CodeRemoteUnavailable) {
		t.Fatalf("unreachable remote: %+v", d)
	}
}
