package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gate-dev/gate/shellparse"
)

// Approval modes, as in Qwen Code.
const (
	ApprovalDefault  = "default"
	ApprovalAutoEdit = "auto-edit"
	ApprovalYolo     = "yolo"
)

// Settings are the Qwen Code settings gate decides with.
type Settings struct {
	// Core is tools.core (legacy coreTools): tool names and
	// run_shell_command(<prefix>) entries. Empty means no restriction.
	Core []string `json:"core"`
	// Exclude is tools.exclude (legacy excludeTools).
	Exclude []string `json:"exclude"`
	// Allowed is tools.allowed (legacy allowedTools): commands that need no
	// approval in default mode.
	Allowed []string `json:"allowed"`
	// ApprovalMode is default, auto-edit or yolo.
	ApprovalMode string `json:"approval_mode"`
	// Findings override what a parser finding does under a restriction
	// (data.gate.findings): "deny" or "ask", by finding code (gate.findings
	// in a settings file: {"inline_code": "ask"} asks for python -c code
	// instead of denying it).
	Findings map[string]string `json:"findings,omitempty"`
}

// Validate checks the approval mode.
func (s *Settings) Validate() error {
	switch s.ApprovalMode {
	case "":
		s.ApprovalMode = ApprovalDefault
	case ApprovalDefault, ApprovalAutoEdit, ApprovalYolo:
	default:
		return errorf(CodeBadSettings, fmt.Sprintf("approval mode %q is not one of default, auto-edit, yolo", s.ApprovalMode), nil)
	}
	for code, action := range s.Findings {
		if action != "deny" && action != "ask" {
			return errorf(CodeBadSettings, fmt.Sprintf("finding %q: %q is not one of deny, ask", code, action), nil)
		}
	}
	return nil
}

// listIndex is one settings list as the policies see it under
// data.gate.settings.<list>. Go only parses the Tool(argument) grammar and
// files entries by tool and key so that policies look them up instead of
// scanning; what the entries mean is decided in Rego. Tool names are
// canonical (ShellTool entries are filed under run_shell_command).
type listIndex struct {
	// Count is the number of entries.
	Count int `json:"count"`
	// Tools holds the tool name of every entry (before "(" or bare).
	Tools map[string]bool `json:"tools"`
	// WithArgs holds the tools that have entries with an argument.
	WithArgs map[string]bool `json:"with_args"`
	// Names holds bare entries (run_shell_command, ShellTool, read_file).
	Names map[string]bool `json:"names"`
	// Args maps tool → literal key → entries. The key is the argument's words
	// after quote removal joined by single spaces; an argument with other
	// whitespace never matches, as in the reference.
	Args map[string]map[string][]string `json:"args"`
	// Paths maps tool → path key → entries, for exclude-style matching: the
	// argument parsed as a command, its program and operands joined.
	Paths map[string]map[string][]pathEntry `json:"paths"`
	// Prefixes maps tool → proper prefix of a path key → entries.
	Prefixes map[string]map[string][]string `json:"prefixes"`
}

// pathEntry is an entry matched by path: all its options must be present.
type pathEntry struct {
	Entry   string   `json:"entry"`
	Options []string `json:"options"`
	// Target is set for equivalents: the command this one is equivalent to.
	Target string `json:"target,omitempty"`
}

// index is data.gate.settings.
type index struct {
	ApprovalMode string     `json:"approval_mode"`
	Core         *listIndex `json:"core"`
	Exclude      *listIndex `json:"exclude"`
	Allowed      *listIndex `json:"allowed"`
	// Equivalents files data.gate.equivalents by path key, like exclude.
	Equivalents map[string][]pathEntry `json:"equivalents"`
	Protected   map[string]string      `json:"protected"`
	// Secret are paths no call may read or write (Options.Secret).
	Secret map[string]string `json:"secret"`
	// Findings are the settings' overrides of data.gate.findings.
	Findings map[string]string `json:"findings"`

	maxWords int    // longest literal key, in words
	maxPath  int    // longest path key, in words
	key      string // names the index in data.gate.settings_by_key
}

func newListIndex() *listIndex {
	return &listIndex{
		Tools:    map[string]bool{},
		WithArgs: map[string]bool{},
		Names:    map[string]bool{},
		Args:     map[string]map[string][]string{},
		Paths:    map[string]map[string][]pathEntry{},
		Prefixes: map[string]map[string][]string{},
	}
}

// splitEntry splits "Tool(arg)" into its parts. Like the reference, the tool
// is the text before the first "(" and the entry must end with ")".
func splitEntry(entry string) (tool, arg string, hasArg, ok bool) {
	open := strings.IndexByte(entry, '(')
	if open < 0 {
		return entry, "", false, entry != ""
	}
	if !strings.HasSuffix(entry, ")") {
		return "", "", false, false
	}
	return entry[:open], entry[open+1 : len(entry)-1], true, true
}

// buildIndex builds data.gate.settings. Entries are filed under the tool
// their name is an alias of (aliases maps alias to tool, from
// data.gate.tools.aliases); other names stay as written, matching nothing.
func buildIndex(s Settings, p *shellparse.Parser, aliases map[string]string, equivalents map[string][]string, protected map[string]string) *index {
	idx := &index{ApprovalMode: s.ApprovalMode, Equivalents: map[string][]pathEntry{}, Protected: map[string]string{}, Secret: map[string]string{}, Findings: map[string]string{}}
	for code, action := range s.Findings {
		idx.Findings[code] = action
	}
	idx.Core = idx.list(s.Core, p, aliases)
	idx.Exclude = idx.list(s.Exclude, p, aliases)
	idx.Allowed = idx.list(s.Allowed, p, aliases)
	targets := make([]string, 0, len(equivalents))
	for t := range equivalents {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, target := range targets {
		for _, eq := range equivalents[target] {
			path, opts := entryPath(eq, p)
			if len(path) == 0 {
				continue
			}
			key := strings.Join(path, " ")
			idx.Equivalents[key] = append(idx.Equivalents[key], pathEntry{Entry: eq, Options: opts, Target: target})
			idx.maxPath = max(idx.maxPath, len(path))
		}
	}
	for k, v := range protected {
		idx.Protected[k] = v
	}
	return idx
}

func (idx *index) list(entries []string, p *shellparse.Parser, aliases map[string]string) *listIndex {
	li := newListIndex()
	for _, entry := range entries {
		tool, arg, hasArg, ok := splitEntry(entry)
		if !ok {
			continue
		}
		if canonical, ok := aliases[tool]; ok {
			tool = canonical
		}
		li.Count++
		li.Tools[tool] = true
		if !hasArg {
			li.Names[tool] = true
			continue
		}
		li.WithArgs[tool] = true
		key := literalKey(arg, p)
		if li.Args[tool] == nil {
			li.Args[tool] = map[string][]string{}
		}
		li.Args[tool][key] = append(li.Args[tool][key], entry)
		if !strings.HasPrefix(key, "\x00") {
			idx.maxWords = max(idx.maxWords, len(strings.Split(key, " ")))
		}
		path, opts := entryPath(arg, p)
		if len(path) == 0 {
			continue
		}
		idx.maxPath = max(idx.maxPath, len(path))
		if li.Paths[tool] == nil {
			li.Paths[tool] = map[string][]pathEntry{}
			li.Prefixes[tool] = map[string][]string{}
		}
		pk := strings.Join(path, " ")
		li.Paths[tool][pk] = append(li.Paths[tool][pk], pathEntry{Entry: entry, Options: opts})
		for i := 1; i < len(path); i++ {
			k := strings.Join(path[:i], " ")
			li.Prefixes[tool][k] = append(li.Prefixes[tool][k], entry)
		}
	}
	return li
}

// literalKey is the key an allowlist entry's argument matches: its words
// after quote removal, joined by single spaces. Like the reference, an
// argument with leading, trailing or repeated whitespace never matches.
func literalKey(arg string, p *shellparse.Parser) string {
	if arg != strings.Join(strings.Fields(arg), " ") || arg == "" {
		return "\x00" + arg
	}
	prog := p.Parse(arg)
	if prog.Error != nil || len(prog.Segments) == 0 || len(prog.Segments[0].Dynamic) > 0 || len(prog.Segments[0].Argv) == 0 {
		return arg
	}
	return strings.Join(prog.Segments[0].Argv, " ")
}

// entryPath parses an exclude entry's argument as a command and returns its
// path (program and operands) and options. Whitespace is not significant.
func entryPath(arg string, p *shellparse.Parser) ([]string, []string) {
	prog := p.Parse(arg)
	if prog.Error == nil && len(prog.Segments) > 0 && prog.Segments[0].Program != "" {
		seg := prog.Segments[0]
		return seg.Path, seg.Options
	}
	return strings.Fields(arg), []string{}
}
