package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// secretEngine is an engine whose root holds gate's state directory (the
// worst case: the agent works in the home directory) and a symlink to it,
// with a second state directory given in Options.Secret, as cmd/gate gives
// $XDG_STATE_HOME/gate.
func secretEngine(t *testing.T) (e *Engine, home, xdg string) {
	t.Helper()
	home = t.TempDir()
	xdg = filepath.Join(t.TempDir(), "state")
	for _, dir := range []string{filepath.Join(home, ".local", "state", "gate"), filepath.Join(xdg, "gate"), filepath.Join(home, "src")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(home, ".local", "state", "gate", "token"), filepath.Join(xdg, "gate", "token"), filepath.Join(home, "src", "main.go")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(xdg, "gate"), filepath.Join(home, "src", "lnk")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", xdg)
	e, err := New(context.Background(), Options{Settings: exclude(), Root: home, Home: home,
		Secret: map[string]string{filepath.Join(xdg, "gate") + "/": "gate's state"}})
	if err != nil {
		t.Fatal(err)
	}
	return e, home, xdg
}

func TestSecretPaths(t *testing.T) {
	e, home, xdg := secretEngine(t)
	token := filepath.Join(xdg, "gate", "token")
	shell := func(cmd string) Call { return shellCall(cmd) }
	file := func(tool string, args map[string]any) Call { return Call{Tool: tool, Args: args} }
	for _, tc := range []struct {
		name string
		call Call
		deny bool
	}{
		{"cat the token", shell("cat " + token), true},
		{"cat the default state dir's token", shell("cat ~/.local/state/gate/token"), true},
		{"input redirection", shell("wc -c < " + token), true},
		{"option value", shell("dd if=" + token), true},
		{"through a symlink", shell("cat src/lnk/token"), true},
		{"after cd", shell("cd " + xdg + " && cat gate/token"), true},
		{"glob inside", shell("cat " + xdg + "/gate/*"), true},
		{"glob above, deep enough", shell("cat " + xdg + "/*/token"), true},
		{"$XDG_STATE_HOME", shell(`cat "$XDG_STATE_HOME/gate/token"`), true},
		{"${HOME}", shell(`cat ${HOME}/.local/state/gate/token`), true},
		{"a variable after a known directory", shell(`cat ~/.local/state/$x`), true},
		{"assignment", shell("T=" + token + " sh -c 'cat $T'"), true},
		{"recursive grep of the directory", shell("grep -r x " + filepath.Join(xdg, "gate")), true},
		{"write", shell("echo x > " + token), true},
		{"read_file", file(ToolReadFile, map[string]any{"absolute_path": filepath.Join(home, ".local", "state", "gate", "token")}), true},
		{"read_file through a symlink", file(ToolReadFile, map[string]any{"absolute_path": filepath.Join(home, "src", "lnk", "token")}), true},
		{"list_directory", file(ToolListDirectory, map[string]any{"path": filepath.Join(home, ".local", "state", "gate")}), true},
		{"glob in it", file(ToolGlob, map[string]any{"pattern": "*", "path": filepath.Join(home, ".local", "state", "gate")}), true},
		{"grep_search of the home directory holding it", file(ToolGrep, map[string]any{"pattern": "x"}), true},
		{"grep_search of a directory beside it", file(ToolGrep, map[string]any{"pattern": "x", "path": "src"}), false},
		{"write_file", file(ToolWriteFile, map[string]any{"file_path": filepath.Join(home, ".local", "state", "gate", "token"), "content": "x"}), true},
		{"python3 one-liner opening it", shell(`python3 -c "print(open('` + token + `').read())"`), true},
		{"python3 one-liner opening it through a symlink", shell(`python3 -c "print(open('src/lnk/token', 'rb').read())"`), true},
		{"python3 one-liner opening another file", shell(`python3 -c "print(open('src/main.go').read())"`), false},
		{"ordinary command", shell("cat src/main.go; ls -la; echo $x"), false},
		{"a glob not deep enough", shell("ls ~/*"), false},
		{"the parent listed", shell("ls " + xdg), false},
		{"a neighbour", shell("cat ~/.local/state/gatex/token"), false},
		{"read_file elsewhere", file(ToolReadFile, map[string]any{"absolute_path": filepath.Join(home, "src", "main.go")}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := e.Decide(context.Background(), tc.call)
			if err != nil {
				t.Fatal(err)
			}
			if got := hasCode(d, CodePathProtected); got != tc.deny || (tc.deny && d.Decision != Deny) {
				t.Fatalf("%v: got %+v, want path_protected deny %v", tc.call.Args, d, tc.deny)
			}
		})
	}
}
