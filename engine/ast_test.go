package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestInputValueMatchesJSON checks that the policy input built directly as
// an ast.Value is the Input's JSON, which gate parse prints and policy
// authors read.
func TestInputValueMatchesJSON(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	os.Link(filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt"))
	e, err := New(context.Background(), Options{Root: root, Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []Call{
		shellCall("sudo rm -rf \"$d\" > ~/.bashrc; echo $(ls | xargs -0 cat) <(git -C x push) &"),
		shellCall("f() { x=1; }; f; [[ -f y ]] && python -c 'x' | tee out.txt"),
		{Tool: ToolWriteFile, Args: map[string]any{"file_path": "a.txt", "content": "new\n"}},
		shellCall("ln -s /etc d && echo x > d/f; echo y >> b.txt"),
		shellCall("cat <<'EOF' > x.sh\necho hi\nEOF\nbash x.sh; python3 -c 'import json; print(open(\"a.txt\").read())'"),
		{Tool: ToolEdit, Args: map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "2"}},
		{Tool: ToolEdit, Args: map[string]any{"file_path": "a.txt", "old_string": "absent", "new_string": "2"}},
		{Tool: ToolReadFile, Args: map[string]any{"file_path": "x.log"}},
		{Tool: ToolGlob, Args: map[string]any{"pattern": "../**/*.go"}},
		shellCall(strings.Repeat("a | ", 200) + "a"),
	} {
		in, err := e.Input(call)
		if err != nil {
			t.Fatal(err)
		}
		got, err := inputValue(in)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ast.ValueFromReader(bytes.NewReader(bs))
		if err != nil {
			t.Fatal(err)
		}
		if got.Compare(want) != 0 {
			t.Errorf("%s %v:\nast:  %v\njson: %v", call.Tool, call.Args, got, want)
		}
	}
}
