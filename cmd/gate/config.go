package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/viper"
	"github.com/tailscale/hujson"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/layers"
	"github.com/gate-dev/gate/shellparse"
)

// config is the configuration a command runs with.
type config struct {
	opts  engine.Options
	shell shellSettings
}

// shellSettings are Qwen Code's tools.shell keys.
type shellSettings struct {
	Pager       string
	ShowColor   bool
	Interactive bool
}

func badSettings(file string, err error) error {
	return &engine.Error{Code: engine.CodeBadSettings, Message: "settings " + file, Err: err}
}

// loadConfig reads the settings files and merges them the way Qwen Code
// merges its scopes: tools.exclude is the union of every file's list, the
// last file that sets tools.core (or tools.allowed) wins. Keys of a "gate"
// section become defaults for the global flags.
func (a *app) loadConfig() (*config, error) {
	cfg := &config{opts: engine.Options{Protected: map[string]string{}, Secret: map[string]string{}}}
	// The server's bearer token approves calls: an agent must not read it.
	if dir, err := stateDir(); err == nil {
		cfg.opts.Secret[dir+string(filepath.Separator)] = "gate's state holds the server's bearer token, which approves calls"
	}
	if a.tokenFile != "" {
		cfg.opts.Secret[a.tokenFile] = "the server's bearer token approves calls"
	}
	if a.socketFile != "" {
		cfg.opts.Secret[a.socketFile] = "gate's unix socket: whoever connects to it may approve calls"
	}
	s := &cfg.opts.Settings
	for _, file := range a.list("settings") {
		fv, err := readSettings(file)
		if err != nil {
			return nil, err
		}
		if list, ok, err := stringList(fv, file, "tools.core", "coretools"); err != nil {
			return nil, err
		} else if ok {
			s.Core = list
		}
		if list, ok, err := stringList(fv, file, "tools.allowed", "allowedtools"); err != nil {
			return nil, err
		} else if ok {
			s.Allowed = list
		}
		for _, key := range []string{"tools.exclude", "excludetools"} {
			list, _, err := stringList(fv, file, key)
			if err != nil {
				return nil, err
			}
			for _, e := range list {
				if !slices.Contains(s.Exclude, e) {
					s.Exclude = append(s.Exclude, e)
				}
			}
		}
		if err := readShellSettings(fv, file, &cfg.shell); err != nil {
			return nil, err
		}
		if err := readFindings(fv, file, s); err != nil {
			return nil, err
		}
		if err := a.mergeGateSection(fv, file); err != nil {
			return nil, err
		}
		if abs, err := filepath.Abs(file); err == nil {
			cfg.opts.Protected[abs] = "gate settings"
		}
	}
	s.ApprovalMode = a.v.GetString("approval-mode")
	if err := s.Validate(); err != nil {
		return nil, err
	}
	cfg.opts.Root = a.v.GetString("root")
	cfg.opts.Remote = engine.RemoteOptions{URL: a.v.GetString("opa-url"), KeepSettings: a.v.GetBool("opa-keep-settings"), Token: os.Getenv("GATE_OPA_TOKEN")}
	cfg.opts.Limits = shellparse.Limits{MaxBytes: a.v.GetInt("max-command-bytes"), MaxSegments: a.v.GetInt("max-segments"),
		MaxDepth: a.v.GetInt("max-depth"), MaxWords: a.v.GetInt("max-words")}
	cfg.opts.CacheEntries = a.v.GetInt("decision-cache")
	if cfg.opts.CacheEntries <= 0 {
		cfg.opts.CacheEntries = -1 // off
	}
	cfg.opts.PolicyDirs = a.list("policy")
	for _, d := range cfg.opts.PolicyDirs {
		cfg.opts.Protected[d] = "gate policies"
	}
	// The policies see the layers active around the commands (an
	// interactive shell under restrictions needs "exec").
	cfg.opts.Layers = policyLayers(layers.Detect(layers.Config{NoExec: a.v.GetBool(flagNoSupervise), NoFS: a.v.GetBool(flagNoConfine)}))
	if a.staticOnly {
		// The agent runs the command itself: gate's static decision is
		// the only layer around it.
		cfg.opts.Layers = []string{layers.Static}
	}
	return cfg, nil
}

// readShellSettings reads tools.shell.pager, showColor and
// enableInteractiveShell; a later file's value wins.
func readShellSettings(fv *viper.Viper, file string, sh *shellSettings) error {
	if fv.IsSet("tools.shell.pager") {
		p, ok := fv.Get("tools.shell.pager").(string)
		if !ok {
			return badSettings(file, fmt.Errorf("tools.shell.pager must be a string"))
		}
		sh.Pager = p
	}
	for key, dst := range map[string]*bool{"tools.shell.showcolor": &sh.ShowColor, "tools.shell.enableinteractiveshell": &sh.Interactive} {
		if !fv.IsSet(key) {
			continue
		}
		b, ok := fv.Get(key).(bool)
		if !ok {
			return badSettings(file, fmt.Errorf("%s must be true or false", key))
		}
		*dst = b
	}
	return nil
}

// readSettings reads one settings file. Qwen Code's settings.json may hold
// comments and trailing commas, so it is standardized to JSON first.
func readSettings(file string) (*viper.Viper, error) {
	bs, err := os.ReadFile(file)
	if err != nil {
		return nil, badSettings(file, err)
	}
	std, err := hujson.Standardize(bs)
	if err != nil {
		return nil, badSettings(file, err)
	}
	fv := viper.New()
	fv.SetConfigType("json")
	if err := fv.ReadConfig(bytes.NewReader(std)); err != nil {
		return nil, badSettings(file, err)
	}
	return fv, nil
}

// stringList returns the first of keys that is set, which must be a list of
// strings.
func stringList(fv *viper.Viper, file string, keys ...string) ([]string, bool, error) {
	for _, key := range keys {
		if !fv.IsSet(key) {
			continue
		}
		raw, ok := fv.Get(key).([]any)
		if !ok {
			return nil, false, badSettings(file, fmt.Errorf("%s must be a list of strings", key))
		}
		list := make([]string, 0, len(raw))
		for _, x := range raw {
			s, ok := x.(string)
			if !ok {
				return nil, false, badSettings(file, fmt.Errorf("%s must be a list of strings, not %v", key, x))
			}
			list = append(list, s)
		}
		return list, true, nil
	}
	return nil, false, nil
}

// gateKeys maps the spellings accepted in a settings file's gate section to
// flag names.
var gateKeys = map[string]string{
	"approval-mode": "approval-mode",
	"approval_mode": "approval-mode",
	"approvalmode":  "approval-mode",
	"root":          "root",
	"policy":        "policy",
	"policies":      "policy",
}

// mergeGateSection makes the file's gate section the default of the global
// flags; paths in it are relative to the file.
func (a *app) mergeGateSection(fv *viper.Viper, file string) error {
	if !fv.IsSet("gate") {
		return nil
	}
	section, ok := fv.Get("gate").(map[string]any)
	if !ok {
		return badSettings(file, fmt.Errorf("gate must be an object"))
	}
	dir := filepath.Dir(file)
	merged := map[string]any{}
	for k, v := range section {
		switch strings.ToLower(k) {
		case "findings":
			continue // readFindings
		case "sandbox", "enforcement":
			if err := enforcementSection(merged, dir, strings.ToLower(k), v); err != nil {
				return badSettings(file, err)
			}
			continue
		}
		name, known := gateKeys[strings.ToLower(k)]
		if !known {
			return badSettings(file, fmt.Errorf("unknown key gate.%s", k))
		}
		switch name {
		case "root":
			p, ok := v.(string)
			if !ok {
				return badSettings(file, fmt.Errorf("gate.%s must be a string", k))
			}
			v = relTo(dir, p)
		case "policy":
			list, ok := v.([]any)
			if !ok {
				return badSettings(file, fmt.Errorf("gate.%s must be a list of directories", k))
			}
			var dirs []string
			for _, x := range list {
				p, ok := x.(string)
				if !ok {
					return badSettings(file, fmt.Errorf("gate.%s must be a list of directories", k))
				}
				dirs = append(dirs, relTo(dir, p))
			}
			v = dirs
		case "approval-mode":
			if _, ok := v.(string); !ok {
				return badSettings(file, fmt.Errorf("gate.%s must be a string", k))
			}
		}
		merged[name] = v
	}
	return a.v.MergeConfigMap(merged)
}

// readFindings reads gate.findings, an object of finding code -> "deny" or
// "ask" that overrides data.gate.findings; a later file's value for a code
// wins.
func readFindings(fv *viper.Viper, file string, s *engine.Settings) error {
	section, ok := fv.Get("gate").(map[string]any)
	if !ok {
		return nil // mergeGateSection reports a gate that is not an object
	}
	for k, v := range section {
		if strings.ToLower(k) != "findings" {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return badSettings(file, fmt.Errorf("gate.%s must be an object of finding codes", k))
		}
		for code, action := range m {
			a, ok := action.(string)
			if !ok || a != "deny" && a != "ask" {
				return badSettings(file, fmt.Errorf("gate.%s.%s must be \"deny\" or \"ask\"", k, code))
			}
			if s.Findings == nil {
				s.Findings = map[string]string{}
			}
			s.Findings[code] = a
		}
	}
	return nil
}

func relTo(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
