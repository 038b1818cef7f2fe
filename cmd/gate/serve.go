package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/metrics"
	"github.com/gate-dev/gate/runner"
	"github.com/gate-dev/gate/server"
)

const serveLong = `Serve gate's HTTP API: agents POST tool calls, gate decides each with the
policies and runs it only when allowed; operators scrape /metrics.

  POST   /v1/decide                  {"tool","args"} -> decision (dry run, as gate eval)
  POST   /v1/call                    {"tool","args"} -> {"decision","result","text"}
                                     (403 with the decision when not allowed)
  GET    /v1/background              background processes gate started
  GET    /v1/background/{pid}        one of them, with its latest output
  POST   /v1/background/{pid}/stop   stop its process group (or DELETE /v1/background/{pid})
  GET    /v1/approvals               calls waiting for a human's answer
  POST   /v1/approvals/{id}/approve  (or /deny) answer one
         /mcp                        MCP (streamable HTTP) with gate's tools
  GET    /metrics  /healthz  /readyz

Every endpoint but /healthz and /readyz is guarded, so that no web page can
make gate run a command (cross-site posts, DNS rebinding):
  - clients send "Authorization: Bearer TOKEN". On loopback, gate makes the
    token at its first start and keeps it, mode 0600, in
    ` + tokenFileHelp + `,
    where gate approvals reads it. --token-file or GATE_TOKEN give one instead
    (needed on any other address); --no-token serves without one (loopback
    and unix sockets only);
  - --listen unix:PATH serves on a unix socket (mode 0600): no token unless
    one is given, the file's permissions decide who may connect;
  - the Host must be localhost, 127.0.0.1, [::1], the listen address, or a
    name given with --allowed-host (403 host_not_allowed);
  - a request with an Origin header is refused unless --allowed-origin names
    it (403 origin_not_allowed);
  - a body must be Content-Type: application/json (415 unsupported_media_type;
    an empty body needs no type) and arrive within --body-timeout (408
    request_timeout); headers over 64 KiB are 431 headers_too_large.

On SIGTERM or Ctrl-C gate stops accepting, lets in-flight calls finish until
--shutdown-timeout, then stops their process groups and every background
process.`

// runOptions are the flags of commands that run tool calls.
type runOptions struct {
	timeout         time.Duration
	maxOutput       int
	killGrace       time.Duration
	approvalTimeout time.Duration
	watch           bool
	decisionLog     string
	opaConfig       string
	sessions        runner.SessionLimits
	sessionFlags    bool // the session flags are registered
	limits          limitOptions
}

func (o *runOptions) register(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&o.timeout, "timeout", runner.DefaultTimeout, "default timeout of a shell command (at most 10m; a call's own timeout argument overrides it)")
	cmd.Flags().IntVar(&o.maxOutput, "max-output", runner.DefaultMaxOutput, "`bytes` kept of each output stream of a command")
	cmd.Flags().DurationVar(&o.killGrace, "kill-grace", runner.DefaultKillGrace, "time between SIGTERM and SIGKILL when a command's process group is stopped")
}

func (o *runOptions) registerDecisionLog(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.decisionLog, "decision-log", "", "append every decision to this `file` as a JSON line in OPA's decision log shape, masked by data.system.log.mask (- for stdout)")
}

func (o *runOptions) registerWatch(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.watch, "watch", true, "reload settings files and policy directories when they change (a broken change keeps the last good policy)")
	cmd.Flags().StringVar(&o.opaConfig, "opa-config", "", "OPA configuration `file` (services, keys, bundles, decision_logs, status): policies come from bundles, run by OPA's plugins; not ready until one is activated")
}

func (o *runOptions) registerApprovals(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&o.approvalTimeout, "approval-timeout", server.DefaultApprovalTimeout, "how long a call the policy asks about waits for a human's answer before it is denied")
	o.limits.register(cmd) // commands with approvals serve calls: bound them
}

// newGateway builds the engine, the runner and the metrics.
func (a *app) newGateway(ctx context.Context, ro runOptions, log *slog.Logger) (*server.Gateway, error) {
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	if ro.timeout <= 0 || ro.timeout > runner.MaxTimeout {
		return nil, usagef("--timeout must be between 1ms and %s", runner.MaxTimeout)
	}
	if err := ro.checkSessions(); err != nil {
		return nil, err
	}
	if err := ro.limits.check(); err != nil {
		return nil, err
	}
	// "Always allow" answers persisted in the root join tools.allowed. A
	// reload replaces the base options; rules are added on every build.
	root := cfg.opts.Root
	if root == "" {
		root = "."
	}
	m := metrics.New()
	var (
		mu         sync.Mutex
		base       = cfg.opts
		bundleMods map[string]*ast.Module // the activated bundles' modules and data (--opa-config)
		bundleData map[string]any
	)
	build := func(opts engine.Options, extra []string) (*engine.Engine, error) {
		opts.Settings.Allowed = append(slices.Clone(opts.Settings.Allowed), extra...)
		opts.CacheObserver = m
		opts.ParseCacheObserver = m.ParseCache()
		mu.Lock()
		mods, data := bundleMods, bundleData
		mu.Unlock()
		if mods == nil && data == nil {
			return engine.New(ctx, opts)
		}
		pol, err := engine.LoadPolicies(opts.PolicyDirs)
		if err != nil {
			return nil, err
		}
		if err := pol.Add(mods, data); err != nil {
			return nil, err
		}
		return engine.NewWithPolicies(ctx, opts, pol)
	}
	rules, err := server.LoadRules(root, func(extra []string) (*engine.Engine, error) {
		mu.Lock()
		opts := base
		mu.Unlock()
		return build(opts, extra)
	})
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "always-allow rules", Err: err}
	}
	e, err := build(base, rules.Entries())
	if err != nil {
		return nil, err
	}
	en, err := a.detectEnforcement(cfg)
	if err != nil {
		return nil, err
	}
	a.enforcement = en
	sup, err := en.supervision("") // the runner's resolved root

	if err != nil {
		return nil, err
	}
	en.warn(log)
	r, err := runner.New(runner.Options{
		Supervise:      sup,
		Layers:         &en.report,
		Require:        en.require,
		Root:           cfg.opts.Root,
		Pager:          cfg.shell.Pager,
		ShowColor:      cfg.shell.ShowColor,
		MaxOutput:      ro.maxOutput,
		DefaultTimeout: ro.timeout,
		KillGrace:      ro.killGrace,
		Interactive:    cfg.shell.Interactive,
		Sessions:       ro.sessions,
	})
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "runner", Err: err}
	}
	a.closers = append(a.closers, r) // the confined commands' temp dir
	initial := e
	if ro.opaConfig != "" {
		initial = nil // not ready until a bundle is activated
	}
	m.SetLayers(en.report.Active)
	g := server.NewGateway(initial, r, m, log)
	g.SetLimits(ro.limits.Limits)
	g.SetRules(rules)
	if ro.decisionLog != "" {
		dl, closer, err := server.OpenDecisionLog(ro.decisionLog, map[string]string{"app": "gate", "id": instanceID, "version": version()})
		if err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "decision log", Err: err}
		}
		a.closers = append(a.closers, closer)
		g.SetDecisionLog(dl)
	}
	watched := append(a.list("settings"), cfg.opts.PolicyDirs...)
	if ro.opaConfig != "" {
		raw, err := os.ReadFile(ro.opaConfig)
		if err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "OPA configuration", Err: err}
		}
		onBundle := func(mods map[string]*ast.Module, data map[string]any) (*engine.Engine, error) {
			mu.Lock()
			oldMods, oldData := bundleMods, bundleData
			bundleMods, bundleData = mods, data
			opts := base
			mu.Unlock()
			// Smoke-evaluated like a reloaded file: a bundle that compiles
			// but fails on calls the policy in use decides is refused, and
			// the bundles in force stay the base of later rebuilds.
			e, err := build(opts, rules.Entries())
			if err == nil {
				err = g.CheckEngine(ctx, e)
			}
			if err != nil {
				mu.Lock()
				bundleMods, bundleData = oldMods, oldData
				mu.Unlock()
				return nil, err
			}
			return e, nil
		}
		if _, err := g.StartBundles(ctx, raw, instanceID, onBundle); err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "OPA configuration", Err: err}
		}
		return g, nil
	}
	g.SetEngine(e, "embedded+"+server.Revision(watched))
	if ro.watch && len(watched) > 0 {
		// Settings and policies are read again, compiled off to the side,
		// smoke-evaluated and swapped in; a broken change keeps the last
		// good engine, and its settings do not become the base of later
		// rebuilds ("always allow" answers).
		reload := func() (*engine.Engine, string, error) {
			cfg, err := a.loadConfig()
			if err != nil {
				return nil, "", err
			}
			e, err := build(cfg.opts, rules.Entries())
			if err != nil {
				return nil, "", err
			}
			if err := g.CheckEngine(ctx, e); err != nil {
				return nil, "", err
			}
			mu.Lock()
			base = cfg.opts
			mu.Unlock()
			return e, "embedded+" + server.Revision(watched), nil
		}
		if err := g.Watch(ctx, watched, reload); err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "watching settings and policies", Err: err}
		}
	}
	return g, nil
}

// boundaryOptions are the flags of the HTTP server's boundary.
type boundaryOptions struct {
	tokenFile      string
	noToken        bool
	allowedHosts   []string
	allowedOrigins []string
	bodyTimeout    time.Duration
}

func (b *boundaryOptions) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&b.tokenFile, "token-file", "", "`file` holding the bearer token clients must send (default: $GATE_TOKEN, then, on loopback, "+tokenFileHelp+", made at the first start)")
	cmd.Flags().BoolVar(&b.noToken, "no-token", false, "serve without a bearer token (loopback or unix socket only)")
	cmd.Flags().StringArrayVar(&b.allowedHosts, "allowed-host", nil, "a Host `name` clients use, served besides localhost, 127.0.0.1 and [::1] (repeatable)")
	cmd.Flags().StringArrayVar(&b.allowedOrigins, "allowed-origin", nil, "a web `origin` (scheme://host[:port]) whose pages may call gate; any other Origin is refused (repeatable)")
	cmd.Flags().DurationVar(&b.bodyTimeout, "body-timeout", server.DefaultBodyTimeout, "how long a request body may take to arrive (408 after)")
}

// tokenFileHelp names the default token file in help texts.
const tokenFileHelp = "$XDG_STATE_HOME/gate/token (~/.local/state/gate/token)"

// handlerOptions checks the boundary flags for a server listening on
// listen, resolves its token and logs where it comes from.
func (b *boundaryOptions) handlerOptions(listen string, log *slog.Logger) (server.HandlerOptions, error) {
	token, source, err := serverAuth(listen, b.tokenFile, b.noToken)
	if err != nil {
		return server.HandlerOptions{}, err
	}
	if b.bodyTimeout <= 0 {
		return server.HandlerOptions{}, usagef("--body-timeout must be positive")
	}
	hosts := slices.Clone(b.allowedHosts)
	if host, _, err := net.SplitHostPort(listen); err == nil && !isUnixListen(listen) {
		if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
			hosts = append(hosts, host) // the name or address the operator listens on
		} else if len(b.allowedHosts) == 0 {
			log.Warn("listening on every interface: only requests whose Host is localhost, 127.0.0.1 or [::1] are served; name the others with --allowed-host")
		}
	}
	log.Info("gate authentication", "auth", token != "", "token_file", source)
	return server.HandlerOptions{Token: token, AllowedHosts: hosts, AllowedOrigins: b.allowedOrigins, BodyTimeout: b.bodyTimeout}, nil
}

func (a *app) serveCommand() *cobra.Command {
	var (
		listenAddr string
		maxBody    int64
		maxInfl    int64
		shutdown   time.Duration
		hookSocket bool
		ro         runOptions
		bo         boundaryOptions
	)
	cmd := &cobra.Command{
		Use:   "serve [--listen ADDR]",
		Short: "Serve the HTTP API: decide and run tool calls, expose metrics",
		Long:  serveLong,
		Example: `  gate serve --settings .qwen/settings.json
  curl -s localhost:8787/v1/call -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $(cat ~/.local/state/gate/token)" \
    -d '{"tool":"run_shell_command","args":{"command":"ls","is_background":false}}'
  gate serve --listen unix:$XDG_RUNTIME_DIR/gate.sock   # no token: the socket is 0600`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log := slog.New(slog.NewTextHandler(a.stderr, nil))
			hopts, err := bo.handlerOptions(listenAddr, log)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("max-body-inflight") && maxInfl < maxBody {
				return usagef("--max-body-inflight (%d) must be at least --max-body (%d)", maxInfl, maxBody)
			}
			a.tokenFile = bo.tokenFile
			a.socketFile = unixSocketPath(listenAddr)
			g, err := a.newGateway(cmd.Context(), ro, log)
			if err != nil {
				return err
			}
			ln, err := listen(listenAddr)
			if err != nil {
				return err
			}
			log.Info("gate listening", "url", listenURL(ln), "root", g.Runner().Root(), "auth", hopts.Token != "")
			g.SetApprovals(server.NewApprovals(ro.approvalTimeout, log))
			hopts.MaxBody, hopts.MaxBodyInflight = maxBody, maxInfl
			hopts.MCP = server.NewMCPHandler(server.NewMCPServer(g, version()))
			h := server.NewHandler(g, hopts)
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			wait := func() {}
			if hookSocket {
				wait = serveHooks(ctx, g, hopts.Token, log)
			}
			err = server.Serve(ctx, ln, g, h, server.ServeOptions{ShutdownTimeout: shutdown, Log: log})
			cancel()
			wait()
			return err
		},
	}
	cmd.Flags().StringVar(&listenAddr, "listen", "127.0.0.1:8787", "`address` to listen on (host:port, or unix:PATH for a unix socket)")
	cmd.Flags().Int64Var(&maxBody, "max-body", server.DefaultMaxBody, "largest request body in `bytes`")
	cmd.Flags().Int64Var(&maxInfl, "max-body-inflight", server.DefaultMaxBodyInflight, "`bytes` of request bodies held at once (being read, or by requests in progress); beyond it a request is answered 503 overloaded with Retry-After")
	cmd.Flags().DurationVar(&shutdown, "shutdown-timeout", server.DefaultShutdownTimeout, "how long in-flight calls may finish on shutdown")
	cmd.Flags().BoolVar(&hookSocket, "hook-socket", true, hookSocketHelp)
	bo.register(cmd)
	ro.register(cmd)
	ro.registerApprovals(cmd)
	ro.registerWatch(cmd)
	ro.registerDecisionLog(cmd)
	ro.registerSessions(cmd)
	return cmd
}

// hookSocketHelp describes --hook-socket.
const hookSocketHelp = "answer gate hook for hooks with this configuration on a unix socket in $XDG_STATE_HOME/gate/hooks (~/.local/state/gate/hooks), so that they do not compile the policies"

// instanceID names this gate process in decision logs.
var instanceID = func() string {
	h, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", h, os.Getpid())
}()

// loopback reports whether addr only listens on a loopback interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
