package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/fstools"
)

// RulesFile is where "always allow" answers are kept, relative to the
// workspace root. .gate/ is a protected path: agents cannot write it.
const RulesFile = ".gate/allowed.json"

// Rule is an "always allow" answer: a tools.allowed entry gate adds to the
// settings, made from one segment of an approved command (never the whole
// command line, whose prefix would allow anything appended to it).
type Rule struct {
	// Entry is the tools.allowed entry, run_shell_command(<words>).
	Entry string `json:"entry"`
	// By is who approved, Created when, Command the command it came from.
	By      string    `json:"by"`
	Created time.Time `json:"created"`
	Command string    `json:"command"`
}

// Rules are the persisted "always allow" rules of a workspace. Changing
// them rebuilds the gateway's engine with the rules added to tools.allowed.
type Rules struct {
	path    string
	rebuild func(allowed []string) (*engine.Engine, error)

	mu    sync.Mutex
	rules []Rule
}

// LoadRules reads the rules file of root (a missing file is no rules);
// rebuild makes an engine whose tools.allowed has the given entries added.
func LoadRules(root string, rebuild func(allowed []string) (*engine.Engine, error)) (*Rules, error) {
	r := &Rules{path: filepath.Join(root, filepath.FromSlash(RulesFile)), rebuild: rebuild}
	bs, err := os.ReadFile(r.path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Rules []Rule `json:"rules"`
	}
	if err := json.Unmarshal(bs, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	r.rules = doc.Rules
	return r, nil
}

// Entries returns the tools.allowed entries of the rules.
func (r *Rules) Entries() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, x := range r.rules {
		out = append(out, x.Entry)
	}
	return out
}

// List returns the rules.
func (r *Rules) List() []Rule {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.rules)
}

// Path returns the rules file.
func (r *Rules) Path() string { return r.path }

func (r *Rules) save() error {
	bs, err := json.MarshalIndent(map[string]any{"rules": r.rules}, "", "  ")
	if err != nil {
		return err
	}
	return fstools.WriteFileAtomic(r.path, append(bs, '\n'), 0o644)
}

// update applies f to the rules, saves them and rebuilds the engine; on any
// failure nothing changes.
func (r *Rules) update(g *Gateway, f func([]Rule) []Rule) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.rules
	r.rules = f(slices.Clone(old))
	var entries []string
	for _, x := range r.rules {
		entries = append(entries, x.Entry)
	}
	e, err := r.rebuild(entries)
	if err == nil {
		err = r.save()
	}
	if err != nil {
		r.rules = old
		return err
	}
	g.SetEngine(e, "embedded")
	return nil
}

// alwaysEntries derives the allow rules of a shell call: one per segment
// that runs a program, made of its leading words that are neither options
// nor only known at run time (at most two: "git status", "npm test", "ls").
func alwaysEntries(e *engine.Engine, call engine.Call) ([]string, error) {
	if call.Tool != engine.ToolShell {
		return nil, fmt.Errorf("\"always\" applies to shell commands; for edits use the auto-edit approval mode")
	}
	cmd, _ := call.Args["command"].(string)
	prog := e.Parse(cmd)
	if prog.Error != nil {
		return nil, fmt.Errorf("the command does not parse")
	}
	var out []string
	for _, seg := range prog.Segments {
		if seg.Kind != "command" || seg.Transparent || seg.FunctionCall || len(seg.Argv) == 0 || len(seg.Findings) > 0 {
			continue
		}
		var words []string
		for i, w := range seg.Argv {
			if len(words) == 2 || strings.HasPrefix(w, "-") || slices.Contains(seg.Dynamic, i) {
				break
			}
			words = append(words, w)
		}
		if len(words) == 0 {
			continue
		}
		entry := "run_shell_command(" + strings.Join(words, " ") + ")"
		if !slices.Contains(out, entry) {
			out = append(out, entry)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no segment of the command can become a rule")
	}
	return out, nil
}

// SetRules enables persisted "always allow" answers.
func (g *Gateway) SetRules(r *Rules) { g.rules = r }

// Rules returns the persisted rules, or nil.
func (g *Gateway) Rules() *Rules { return g.rules }

// AllowAlways adds the rules of an approved call.
func (g *Gateway) AllowAlways(call engine.Call, by string) ([]string, error) {
	if g.rules == nil {
		return nil, fmt.Errorf("\"always allow\" rules are not enabled on this gate")
	}
	entries, err := alwaysEntries(g.engine.Load(), call)
	if err != nil {
		return nil, err
	}
	err = g.rules.update(g, func(rules []Rule) []Rule {
		for _, e := range entries {
			if !slices.ContainsFunc(rules, func(r Rule) bool { return r.Entry == e }) {
				rules = append(rules, Rule{Entry: e, By: by, Created: time.Now().UTC(), Command: call.Args["command"].(string)})
			}
		}
		return rules
	})
	g.log.Info("always-allow rules added", "entries", entries, "by", by)
	return entries, err
}

// Revoke removes a rule.
func (g *Gateway) Revoke(entry, by string) error {
	if g.rules == nil {
		return fmt.Errorf("\"always allow\" rules are not enabled on this gate")
	}
	found := false
	err := g.rules.update(g, func(rules []Rule) []Rule {
		return slices.DeleteFunc(rules, func(r Rule) bool {
			found = found || r.Entry == entry
			return r.Entry == entry
		})
	})
	if err == nil && !found {
		return ErrNoRule
	}
	g.log.Info("always-allow rule revoked", "entry", entry, "by", by)
	return err
}

// ErrNoRule is returned when revoking a rule that does not exist.
var ErrNoRule = errors.New("no such rule")
