package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/runner"
)

// Flags of the enforcement layers (global: gate.enforcement and
// gate.sandbox in settings give their defaults).
const (
	flagNoSupervise = "no-supervise"
	flagNoConfine   = "no-confine"
	flagRequire     = "require-layer"
	keyWritable     = "sandbox-writable"
)

func registerEnforcementFlags(pf *pflag.FlagSet) {
	pf.Bool(flagNoSupervise, false, "run commands without the exec supervisor (for debugging; gate.enforcement.exec: false)")
	pf.Bool(flagNoConfine, false, "run commands without filesystem confinement (for debugging; gate.enforcement.fs: false)")
	pf.StringArray(flagRequire, nil, "refuse to run commands unless this enforcement `layer` (exec, fs) is active (repeatable; gate.enforcement.require)")
}

// enforcementSection reads gate.enforcement {exec, fs, require} and
// gate.sandbox {writable} into viper keys; paths are relative to the
// settings file's directory.
func enforcementSection(merged map[string]any, dir, name string, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("gate.%s must be an object", name)
	}
	strs := func(key string, x any) ([]string, error) {
		list, ok := x.([]any)
		if !ok {
			return nil, fmt.Errorf("gate.%s.%s must be a list of strings", name, key)
		}
		var out []string
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("gate.%s.%s must be a list of strings", name, key)
			}
			out = append(out, s)
		}
		return out, nil
	}
	for k, x := range m {
		key := strings.ToLower(k)
		switch {
		case name == "sandbox" && key == "writable":
			list, err := strs(k, x)
			if err != nil {
				return err
			}
			for i, p := range list {
				if !strings.HasPrefix(p, "~") {
					list[i] = relTo(dir, p)
				}
			}
			merged[keyWritable] = list
		case name == "enforcement" && key == "require":
			list, err := strs(k, x)
			if err != nil {
				return err
			}
			if err := layers.Validate(list); err != nil {
				return fmt.Errorf("gate.enforcement.require: %w", err)
			}
			merged[flagRequire] = list
		case name == "enforcement" && (key == "exec" || key == "fs"):
			b, ok := x.(bool)
			if !ok {
				return fmt.Errorf("gate.enforcement.%s must be true or false", k)
			}
			if key == "exec" {
				merged[flagNoSupervise] = !b
			} else {
				merged[flagNoConfine] = !b
			}
		default:
			return fmt.Errorf("unknown key gate.%s.%s", name, k)
		}
	}
	return nil
}

// enforcement is what protects the commands this gate runs.
type enforcement struct {
	report  layers.Report
	require []string
	// writable and readOnly are the confinement spec's paths (also shown
	// by gate doctor).
	writable []string
	readOnly []string
	// hidden are the secret paths the confinement covers (gate's state
	// directory and token file).
	hidden []string
}

// detectEnforcement probes the layers and applies the configuration.
func (a *app) detectEnforcement(cfg *config) (*enforcement, error) {
	require := a.list(flagRequire)
	if err := layers.Validate(require); err != nil {
		return nil, usagef("--%s: %v", flagRequire, err)
	}
	en := &enforcement{
		report:  layers.Detect(layers.Config{NoExec: a.v.GetBool(flagNoSupervise), NoFS: a.v.GetBool(flagNoConfine)}),
		require: require,
	}
	en.writable = append(runner.DefaultWritable(os.Getenv), a.list(keyWritable)...)
	pol, err := engine.LoadPolicies(cfg.opts.PolicyDirs)
	if err != nil {
		return nil, err
	}
	// The protected paths the confinement makes read-only: every entry of
	// data.gate.paths.deny (policies/gate/paths: .git/hooks, .git/config,
	// agent settings, .gate/, shell start-up files in home...; entries
	// relative to the root are taken at the root), plus gate's own
	// settings files and policy directories.
	if en.readOnly, err = confinedPaths(pol.ProtectedPaths, cfg.opts.Protected); err != nil {
		return nil, err
	}
	// The paths it hides: every entry of data.gate.paths.secret (gate's
	// state directory, whose token approves calls), plus gate's real state
	// directory and token file.
	if en.hidden, err = confinedPaths(pol.SecretPaths, cfg.opts.Secret); err != nil {
		return nil, err
	}
	return en, nil
}

// confinedPaths is the policies' list of paths (as written there) and the
// extra ones (made absolute), sorted, without repeats.
func confinedPaths(fromPolicies func() ([]string, error), extra map[string]string) ([]string, error) {
	list, err := fromPolicies()
	if err != nil {
		return nil, err
	}
	for p := range extra {
		if abs, err := filepath.Abs(p); err == nil {
			list = append(list, abs)
		}
	}
	slices.Sort(list)
	return slices.Compact(list), nil
}

// supervision is the runner's supervision, nil when the exec layer is not
// active.
func (en *enforcement) supervision(root string) (*runner.Supervision, error) {
	if !en.report.Has(layers.Exec) {
		return nil, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeInternal, Message: "finding gate's own binary for the exec supervisor", Err: err}
	}
	// Every call brings its own exec decider (the gateway's, on
	// data.gate.exec.decision): there is no default, and a command without
	// one does not run.
	s := &runner.Supervision{Self: self}
	if en.report.Has(layers.FS) {
		s.Confine = &confine.Spec{Root: root, Writable: en.writable, ReadOnly: en.readOnly, Hidden: en.hidden}
	}
	return s, nil
}

// warn logs a warning for each layer that is not active.
func (en *enforcement) warn(log *slog.Logger) {
	for _, l := range layers.All {
		if why, ok := en.report.Missing[l]; ok {
			log.Warn("enforcement layer not active", "layer", l, "reason", why, "required", slices.Contains(en.require, l))
		}
	}
}

// warnTo writes a warning line for each layer that is not active.
func (en *enforcement) warnTo(w io.Writer) {
	for _, l := range layers.All {
		if why, ok := en.report.Missing[l]; ok {
			fmt.Fprintf(w, "gate: warning: the %s enforcement layer is not active: %s\n", l, why)
		}
	}
}

// policyLayers are the layers given to the policies as input.layers.
func policyLayers(rep layers.Report) []string {
	return rep.Active
}
