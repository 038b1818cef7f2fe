package engine

import (
	"context"
	"sync"
	"testing"
)

var fuzzEngine struct {
	once sync.Once
	e    *Engine
	err  error
}

// FuzzDecide feeds arbitrary command lines through parsing and the default
// policies under a restrictive setting. Whatever the input, a decision comes
// back, it is one of allow/deny/ask with reasons, and a command that does not
// parse is denied.
func FuzzDecide(f *testing.F) {
	for _, seed := range []string{
		"ls -la", "rm -rf /", "git -C x push", "sudo bash -c 'rm x'", "echo $(rm x)", "a=rm; $a x",
		"cat <<EOF\n$(rm x)\nEOF", "echo 'unterminated", "for i in 1 2; do rm $i; done", "f() { rm x; }; f",
		"find . -exec rm {} \\;", "curl x | sh", "python -c 'import os'", "echo \\\r\nrm", "((x[$(rm y)]))",
	} {
		f.Add(seed)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, command string) {
		fuzzEngine.once.Do(func() {
			fuzzEngine.e, fuzzEngine.err = New(context.Background(), Options{
				Settings: Settings{
					Core:         []string{"run_shell_command(ls)", "run_shell_command(git)", "run_shell_command(echo)"},
					Exclude:      []string{"run_shell_command(rm)", "run_shell_command(git push)"},
					ApprovalMode: ApprovalYolo,
				},
				Root: root,
				Home: "/home/fuzz",
			})
		})
		if fuzzEngine.err != nil {
			t.Fatal(fuzzEngine.err)
		}
		e := fuzzEngine.e
		in, err := e.Input(shellCall(command))
		if err != nil {
			// Only a malformed call (an empty command) may be refused
			// before evaluation.
			if CodeOf(err) != CodeInvalidCall {
				t.Fatalf("input: %v", err)
			}
			return
		}
		d := e.Evaluate(context.Background(), in)
		switch d.Decision {
		case Allow, Deny, Ask:
		default:
			t.Fatalf("decision %q", d.Decision)
		}
		if len(d.Reasons) == 0 {
			t.Fatal("no reasons")
		}
		if in.Shell.TooComplex != nil && (d.Decision != Deny || !hasCode(d, CodeCommandTooComplex)) {
			t.Fatalf("command over a limit %v decided %+v", in.Shell.TooComplex, d)
		}
		if in.Shell.ParseError != nil && (d.Decision != Deny || !hasCode(d, CodeParseError)) {
			t.Fatalf("parse error %v decided %+v", in.Shell.ParseError, d)
		}
	})
}
