package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/shellparse"
)

// app holds what every subcommand shares: the configuration and the
// standard streams (injected so that tests drive the command in process).
type app struct {
	v      *viper.Viper
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// exit is the status a subcommand asks for when it returns no error.
	exit int
	// closers are closed when the command ends (the decision log, which
	// writes what it still holds first).
	closers []io.Closer
	// enforcement is what protects the commands of the last gateway built.
	enforcement *enforcement
	// staticOnly gives the policies only the static layer: gate decides
	// what something else runs (a hook without --supervise).
	staticOnly bool
	// flags are the global flags, read as given when set on the command line.
	flags *pflag.FlagSet
	// tokenFile is the server's --token-file, a secret like gate's state
	// directory: no call may read or write it.
	tokenFile string
	// socketFile is the unix socket the API listens on (--listen or
	// --approvals-listen unix:PATH): whoever connects to it may approve
	// calls, so it is a secret too.
	socketFile string
}

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// run runs the gate command with args and returns its exit status. A
// panic is reported as an internal error (decisions have their own
// recovery: a panic there is an internal_error deny).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "gate: internal error: panic: %v\n%s", v, debug.Stack())
			code = engine.ExitInternal
		}
	}()
	a := &app{v: viper.New(), stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		for _, c := range a.closers {
			c.Close()
		}
	}()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return a.exit
	}
	fmt.Fprintf(stderr, "gate: %v\n", err)
	var ue *usageError
	// Cobra's own command-line errors (unknown command, stray arguments)
	// are usage errors too.
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") || strings.Contains(err.Error(), "arg(s)") ||
		strings.HasPrefix(err.Error(), "invalid argument") {
		fmt.Fprintln(stderr, "Run 'gate --help' for usage.")
		return engine.ExitUsage
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return engine.ExitCode(ee.Code)
	}
	return engine.ExitInternal
}

const rootLong = `gate stands between AI coding agents and the machine. It parses every tool
call (shell commands into the programs bash would run, file paths into where
they really lead), asks Rego policies for a decision (allow, deny or ask) and
only then runs it.

Settings are Qwen Code settings.json files (tools.core, tools.exclude,
tools.allowed, or the legacy coreTools, excludeTools, allowedTools); gate's own
keys live under a "gate" section. Global flags may also be given as GATE_*
environment variables (GATE_ROOT, GATE_APPROVAL_MODE, GATE_SETTINGS and
GATE_POLICY, lists separated by commas).`

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "gate",
		Short:         "Decide and run AI agents' tool calls with Rego policies",
		Long:          rootLong,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{msg: err.Error()} })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		// A bad --approval-mode is a bad flag (exit 2); one from the
		// environment or a settings file is bad settings (exit 3).
		if f := cmd.Flag("approval-mode"); f != nil && f.Changed {
			switch f.Value.String() {
			case engine.ApprovalDefault, engine.ApprovalAutoEdit, engine.ApprovalYolo:
			default:
				return usagef("--approval-mode %q is not one of default, auto-edit, yolo", f.Value.String())
			}
		}
		return nil
	}
	pf := root.PersistentFlags()
	pf.StringArray("settings", nil, "Qwen Code settings.json `file` (repeatable; later files take precedence, exclude lists are merged)")
	pf.String("root", ".", "workspace root `dir`ectory")
	pf.String("approval-mode", engine.ApprovalDefault, "approval `mode`: default, auto-edit or yolo")
	pf.StringArray("policy", nil, "extra policy `dir`ectory with .rego modules and data (repeatable)")
	pf.String("opa-url", "", "decide on this OPA server (its Data API, data.gate.decision) instead of the embedded engine; deny when it cannot be reached (token: $GATE_OPA_TOKEN)")
	pf.Bool("opa-keep-settings", false, "with --opa-url: keep the server's data.gate.settings instead of pushing gate's")
	registerEnforcementFlags(pf)
	d := shellparse.DefaultLimits
	pf.Int("max-command-bytes", d.MaxBytes, "deny longer shell commands unread (command_too_complex)")
	pf.Int("max-segments", d.MaxSegments, "deny shell commands with more simple commands (segments) unread")
	pf.Int("max-depth", d.MaxDepth, "deny shell commands whose constructs nest deeper unread")
	pf.Int("max-words", d.MaxWords, "deny shell commands with more words (after brace expansion) and assignments unread")
	pf.Int("decision-cache", engine.DefaultCacheEntries, "decisions to remember by their exact policy input, emptied on every policy reload; 0 turns the cache off")
	a.bind(pf)
	a.flags = pf
	root.AddCommand(a.evalCommand(), a.parseCommand(), a.testCommand(), a.serveCommand(), a.execCommand(), a.mcpCommand(), a.approvalsCommand(), a.hookCommand(), a.versionCommand(), a.doctorCommand())
	return root
}

// bind makes viper read the global flags, GATE_* variables and the gate
// section of settings files, in that order of precedence.
func (a *app) bind(fs *pflag.FlagSet) {
	for _, name := range []string{"settings", "root", "approval-mode", "policy", "opa-url", "opa-keep-settings", "max-command-bytes", "max-segments", "max-depth", "max-words",
		"decision-cache", flagNoSupervise, flagNoConfine, flagRequire} {
		_ = a.v.BindPFlag(name, fs.Lookup(name))
		_ = a.v.BindEnv(name, "GATE_"+strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
	}
}

// list returns a list setting. Values given as flags are taken as they
// are (a path may hold a comma); a value from the environment is split on
// commas.
func (a *app) list(key string) []string {
	if a.flags != nil {
		if f := a.flags.Lookup(key); f != nil && f.Changed {
			if vs, err := a.flags.GetStringArray(key); err == nil {
				return vs
			}
		}
	}
	var out []string
	for _, v := range a.v.GetStringSlice(key) {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

// newEngine loads the configuration and builds the engine; extraPolicy dirs
// are added to the configured ones.
func (a *app) newEngine(ctx context.Context, extraPolicy ...string) (*engine.Engine, error) {
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	cfg.opts.PolicyDirs = append(cfg.opts.PolicyDirs, extraPolicy...)
	for _, d := range extraPolicy {
		cfg.opts.Protected[d] = "gate policies"
	}
	return engine.New(ctx, cfg.opts)
}

// readInput opens a file argument, "-" meaning standard input.
func (a *app) readInput(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(a.stdin), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeInvalidCall, Message: "cannot read calls", Err: err}
	}
	return f, nil
}

// recoverTo turns a panic into an internal_error in *err; deferred by
// commands that must answer even then (a hook that fails blocks the call).
func recoverTo(err *error) {
	if v := recover(); v != nil {
		*err = &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("internal error: panic: %v", v)}
	}
}
