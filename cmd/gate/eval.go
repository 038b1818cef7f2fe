package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/shell"

	"github.com/gate-dev/gate/engine"
)

const evalLong = `Decide tool calls without running them, and print each decision as one
line of JSON: {"decision": "allow"|"deny"|"ask", "reasons": [{"code", "message"}]}.

Exactly one of:
  --command CMD   a run_shell_command call with this command
  --call FILE     one call {"tool", "args"} read from FILE ("-" for stdin)
  --batch FILE    one call per line {"id", "tool", "args"}; one decision per
                  line, in order, carrying the call's id. A malformed line gets
                  {"id", "error": {"code", "message"}} and the batch goes on.
  --exec ARGV     the exec-time decision (data.gate.exec.decision) on one
                  program a supervised command is about to run: ARGV is split
                  as shell words, its first found on PATH (or a path); add
                  --by-shell when the command's own shell runs it. The output
                  also holds "exec", the input's exec part as gate computed it.

A decision, even a deny, exits 0. A malformed call exits 5 (after the whole
batch, for --batch); unreadable settings 3; broken policies 4; bad flags 2.`

// evalResult is one line of gate eval's output.
type evalResult struct {
	ID json.RawMessage `json:"id,omitempty"`
	*engine.Decision
	Error *errorBody `json:"error,omitempty"`
	// Exec is the exec-time input's exec part (--exec).
	Exec *engine.ExecFacts `json:"exec,omitempty"`
}

type errorBody struct {
	Code    engine.Code `json:"code"`
	Message string      `json:"message"`
}

func (a *app) evalCommand() *cobra.Command {
	var command, call, batch, execArgv string
	var byShell bool
	cmd := &cobra.Command{
		Use:   "eval (--command CMD | --call FILE | --batch FILE | --exec ARGV [--by-shell])",
		Short: "Decide tool calls (a dry run) and print the decisions as JSON",
		Long:  evalLong,
		Example: `  gate eval --settings .qwen/settings.json --command 'ls && rm -rf build'
  echo '{"tool":"write_file","args":{"file_path":".git/config","content":"x"}}' | gate eval --call -
  gate eval --approval-mode yolo --batch calls.jsonl
  gate eval --settings s.json --exec 'git -C repo push origin main'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			n := 0
			for _, f := range []string{"command", "call", "batch", "exec"} {
				if cmd.Flags().Changed(f) {
					n++
				}
			}
			if n != 1 {
				return usagef("eval needs exactly one of --command, --call, --batch or --exec")
			}
			if byShell && !cmd.Flags().Changed("exec") {
				return usagef("--by-shell goes with --exec")
			}
			var x engine.Exec
			if cmd.Flags().Changed("exec") {
				var err error
				if x, err = execOf(execArgv, byShell); err != nil {
					return err
				}
			}
			e, err := a.newEngine(cmd.Context())
			if err != nil {
				return err
			}
			out := json.NewEncoder(a.stdout)
			switch {
			case cmd.Flags().Changed("exec"):
				if x.Cwd == "" {
					x.Cwd = e.Files().Resolver().Root()
				}
				d := e.DecideExec(cmd.Context(), nil, x)
				f := e.ExecFacts(x)
				return out.Encode(evalResult{Decision: &d, Exec: &f})
			case cmd.Flags().Changed("command"):
				d, err := e.Decide(cmd.Context(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command}})
				if err != nil {
					return err
				}
				return out.Encode(evalResult{Decision: &d})
			case cmd.Flags().Changed("call"):
				r, err := a.readInput(call)
				if err != nil {
					return err
				}
				defer r.Close()
				bs, err := io.ReadAll(r)
				if err != nil {
					return &engine.Error{Code: engine.CodeInvalidCall, Message: "cannot read the call", Err: err}
				}
				c, _, err := decodeCall(bs)
				if err != nil {
					return err
				}
				d, err := e.Decide(cmd.Context(), c)
				if err != nil {
					return err
				}
				return out.Encode(evalResult{Decision: &d})
			default:
				r, err := a.readInput(batch)
				if err != nil {
					return err
				}
				defer r.Close()
				return a.evalBatch(cmd, e, r, out)
			}
		},
	}
	cmd.Flags().StringVar(&command, "command", "", "decide a run_shell_command call with this `command`")
	cmd.Flags().StringVar(&call, "call", "", "decide the call in `file` (- for stdin)")
	cmd.Flags().StringVar(&batch, "batch", "", "decide one call per line of `file` (- for stdin)")
	cmd.Flags().StringVar(&execArgv, "exec", "", "decide one exec of a supervised command: its `argv` as shell words")
	cmd.Flags().BoolVar(&byShell, "by-shell", false, "with --exec: the command's own shell runs the program")
	return cmd
}

// maxLine bounds one line of a batch.
const maxLine = 64 << 20

func (a *app) evalBatch(cmd *cobra.Command, e *engine.Engine, r io.Reader, out *json.Encoder) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	failed := 0
	line := 0
	for sc.Scan() {
		line++
		bs := bytes.TrimSpace(sc.Bytes())
		if len(bs) == 0 {
			continue
		}
		c, id, err := decodeCall(bs)
		var res evalResult
		res.ID = id
		if err == nil {
			var d engine.Decision
			d, err = e.Decide(cmd.Context(), c)
			res.Decision = &d
		}
		if err != nil {
			failed++
			res.Decision = nil
			res.Error = &errorBody{Code: engine.CodeOf(err), Message: fmt.Sprintf("line %d: %v", line, err)}
		}
		if err := out.Encode(res); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &engine.Error{Code: engine.CodeInvalidCall, Message: fmt.Sprintf("reading calls after line %d", line), Err: err}
	}
	if failed > 0 {
		fmt.Fprintf(a.stderr, "gate: %d of the calls were malformed\n", failed)
		a.exit = engine.ExitCode(engine.CodeInvalidCall)
	}
	return nil
}

// decodeCall decodes one call {"id", "tool", "args"}, returning its raw id.
func decodeCall(bs []byte) (engine.Call, json.RawMessage, error) {
	var raw struct {
		ID   json.RawMessage `json:"id"`
		Tool *string         `json:"tool"`
		Args json.RawMessage `json:"args"`
	}
	d := json.NewDecoder(bytes.NewReader(bs))
	d.UseNumber()
	if len(bytes.TrimSpace(bs)) == 0 {
		return engine.Call{}, nil, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed call: the input is empty"}
	}
	if t := bytes.TrimSpace(bs); t[0] != '{' {
		return engine.Call{}, nil, &engine.Error{Code: engine.CodeInvalidCall, Message: `malformed call: a call is a JSON object {"tool", "args"}`}
	}
	if err := d.Decode(&raw); err != nil {
		return engine.Call{}, nil, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed call", Err: err}
	}
	// Anything after the call is refused, not ignored: a second call on
	// the same line must not go undecided.
	if _, err := d.Token(); err != io.EOF {
		return engine.Call{}, raw.ID, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed call: more than one JSON value (one call per line)"}
	}
	if raw.Tool == nil {
		return engine.Call{}, raw.ID, &engine.Error{Code: engine.CodeInvalidCall, Message: `call has no "tool"`}
	}
	c := engine.Call{Tool: *raw.Tool, Args: map[string]any{}}
	if len(raw.Args) > 0 && string(raw.Args) != "null" {
		ad := json.NewDecoder(bytes.NewReader(raw.Args))
		ad.UseNumber()
		if err := ad.Decode(&c.Args); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				err = fmt.Errorf(`"args" must be an object`)
			}
			return engine.Call{}, raw.ID, &engine.Error{Code: engine.CodeInvalidCall, Message: "malformed call", Err: err}
		}
	}
	if len(raw.ID) > 0 {
		var s string
		if json.Unmarshal(raw.ID, &s) == nil {
			c.ID = s
		} else {
			c.ID = string(raw.ID)
		}
	}
	return c, raw.ID, nil
}

// execOf builds the exec a supervisor would see when argv runs: the file
// argv[0] names on PATH (or as a path), symlinks resolved.
func execOf(argv string, byShell bool) (engine.Exec, error) {
	words, err := shell.Fields(argv, func(string) string { return "" })
	if err != nil || len(words) == 0 {
		return engine.Exec{}, usagef("--exec needs an argv (shell words): %v", err)
	}
	p, err := exec.LookPath(words[0])
	if err != nil {
		return engine.Exec{}, &engine.Error{Code: engine.CodeInvalidCall, Message: "--exec: " + words[0] + " is not a program on PATH", Err: err}
	}
	if p, err = filepath.Abs(p); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
	}
	cwd, _ := os.Getwd()
	return engine.Exec{Program: p, Exe: p, Argv: words, Cwd: cwd, ByShell: byShell}, nil
}
