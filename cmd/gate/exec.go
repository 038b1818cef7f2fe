package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/runner"
	"github.com/gate-dev/gate/server"
)

const execLong = `Decide a tool call and, when the policies allow it, run it: the same path as
POST /v1/call, from the command line.

By default the command's standard output and error are passed through; with
--output text gate prints the result in the layout agents read (Command,
Directory, Stdout, Stderr, Error, Exit Code, Signal, Background PIDs), with
--output json the whole {"decision", "result"} object.

With --interactive the command runs in a pseudo-terminal attached to gate's
own terminal, as if typed at a prompt.

Exit status: the command's own; 128+N when signal N ended it; 124 when it
timed out; 126 when the policies did not allow it (the decision goes to
stderr); 5 for a malformed call; 2 for bad flags.`

func (a *app) execCommand() *cobra.Command {
	var (
		command, call, directory, output string
		background, interactive          bool
		ro                               runOptions
	)
	cmd := &cobra.Command{
		Use:   "exec (--command CMD | --call FILE)",
		Short: "Decide a tool call and run it if allowed",
		Long:  execLong,
		Example: `  gate exec --approval-mode yolo --command 'go test ./...'
  gate exec --output json --call call.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("command") == cmd.Flags().Changed("call") {
				return usagef("exec needs exactly one of --command or --call")
			}
			switch output {
			case "raw", "text", "json":
			default:
				return usagef("--output must be raw, text or json, not %q", output)
			}
			var c engine.Call
			if cmd.Flags().Changed("command") {
				c = engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command, "is_background": background}}
				if directory != "" {
					c.Args["directory"] = directory
				}
			} else {
				r, err := a.readInput(call)
				if err != nil {
					return err
				}
				bs, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					return &engine.Error{Code: engine.CodeInvalidCall, Message: "cannot read the call", Err: err}
				}
				if c, _, err = decodeCall(bs); err != nil {
					return err
				}
			}
			g, err := a.newGateway(cmd.Context(), ro, slog.New(slog.DiscardHandler))
			if err != nil {
				return err
			}
			a.enforcement.warnTo(a.stderr)
			if interactive {
				return a.execInteractive(cmd, g, c)
			}
			out, err := g.Call(cmd.Context(), c)
			if err != nil {
				return err
			}
			if output == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(out); err != nil {
					return err
				}
			}
			if !out.Ran() {
				if output != "json" {
					enc := json.NewEncoder(a.stderr)
					enc.SetEscapeHTML(false)
					_ = enc.Encode(out.Decision)
				}
				a.exit = engine.ExitDenied
				return nil
			}
			if fr, ok := out.Result.(*fstools.Result); ok {
				if output != "json" {
					fmt.Fprintln(a.stdout, out.Text)
				}
				if fr.Error != nil {
					a.exit = 1
				}
				return nil
			}
			res, _ := out.Result.(*runner.Result)
			if res == nil {
				return &engine.Error{Code: engine.CodeInternal, Message: "no result"}
			}
			switch output {
			case "text":
				fmt.Fprintln(a.stdout, out.Text)
			case "raw":
				io.WriteString(a.stdout, res.Stdout)
				io.WriteString(a.stderr, res.Stderr)
				for _, b := range res.Blocked {
					fmt.Fprintf(a.stderr, "gate: blocked %s before it ran: %s\n", quoteWords(b.Argv), blockReasons(b))
				}
				if res.Background {
					fmt.Fprintln(a.stderr, out.Text)
				} else if res.Error != "" {
					fmt.Fprintln(a.stderr, "gate: "+res.Error)
				}
			}
			switch {
			case res.TimedOut:
				a.exit = 124
			case res.Signal != nil:
				a.exit = 128 + *res.Signal
			case res.ExitCode != nil:
				a.exit = *res.ExitCode
			case res.Background:
				a.exit = 0
			default:
				a.exit = 127
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&command, "command", "", "run this shell `command`")
	cmd.Flags().StringVar(&call, "call", "", "run the call {\"tool\",\"args\"} in `file` (- for stdin)")
	cmd.Flags().StringVar(&directory, "directory", "", "with --command: the `dir`ectory to run in, relative to the root")
	cmd.Flags().BoolVar(&background, "background", false, "with --command: start the command in the background (is_background)")
	cmd.Flags().BoolVarP(&interactive, "interactive", "i", false, "with --command: run it in a pseudo-terminal attached to this terminal (vim, git rebase -i, htop)")
	cmd.Flags().StringVar(&output, "output", "raw", "what to print: raw (the command's own output), text (the agents' layout) or json")
	ro.register(cmd)
	ro.registerDecisionLog(cmd)
	return cmd
}

// execInteractive decides the command, then runs it attached to the
// caller's terminal.
func (a *app) execInteractive(cmd *cobra.Command, g *server.Gateway, c engine.Call) error {
	if c.Tool != engine.ToolShell {
		return usagef("--interactive runs shell commands (--command)")
	}
	in, ok := a.stdin.(*os.File)
	if !ok {
		return usagef("--interactive needs a terminal on standard input")
	}
	c.Session = true // typed into by the user at this terminal
	d, decider, err := g.DecideToRun(cmd.Context(), c)
	if err != nil {
		return err
	}
	if d.Decision != engine.Allow {
		enc := json.NewEncoder(a.stderr)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(d)
		a.exit = engine.ExitDenied
		return nil
	}
	command, _ := c.Args["command"].(string)
	directory, _ := c.Args["directory"].(string)
	code, err := g.Runner().Attach(cmd.Context(), command, directory, in, a.stdout, decider)
	if err != nil {
		return &engine.Error{Code: engine.CodeInvalidCall, Message: "running in a terminal", Err: err}
	}
	a.exit = code
	return nil
}

// blockReasons joins the messages of a blocked exec's reasons.
func blockReasons(b runner.Blocked) string {
	msgs := make([]string, len(b.Reasons))
	for i, r := range b.Reasons {
		msgs[i] = "[" + r.Code + "] " + r.Message
	}
	return strings.Join(msgs, "; ")
}
