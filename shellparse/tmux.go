package shellparse

import "strings"

// tmux reads the commands tmux is given after its own options: a shell
// command of new-session, new-window, split-window, respawn-pane and
// run-shell is a script; the text send-keys types is a command line; inert
// commands pass; anything else may run or write what gate cannot see.
func (w *walker) tmux(seg *Segment, words []wordInfo, sc *scanResult, ts *TmuxSpec, c *ctx) {
	if len(sc.operands) == 0 {
		return // tmux alone starts an interactive shell
	}
	rest := words[sc.operands[0]:]
	var cmd []wordInfo
	flush := func() bool {
		defer func() { cmd = cmd[:0] }()
		if len(cmd) == 0 {
			return true
		}
		return w.tmuxCommand(seg, cmd, ts, c)
	}
	for _, wd := range rest {
		switch {
		case !wd.Dynamic && wd.Value == ";":
			if !flush() {
				return
			}
		case !wd.Dynamic && strings.HasSuffix(wd.Value, `\;`) && !strings.HasSuffix(wd.Value, `\\;`):
			cmd = append(cmd, wordInfo{Word: Word{Value: strings.TrimSuffix(wd.Value, `\;`)}, raw: wd.raw})
			if !flush() {
				return
			}
		default:
			cmd = append(cmd, wd)
		}
	}
	flush()
}

// tmuxCommand reads one tmux command; false stops the reading after a
// finding.
func (w *walker) tmuxCommand(seg *Segment, cmd []wordInfo, ts *TmuxSpec, c *ctx) bool {
	name := cmd[0]
	if name.Dynamic {
		seg.addFinding(FindDynamicScript, "tmux is given a command that is not known statically: "+name.Value)
		return false
	}
	if contains(ts.Inert, name.Value) {
		return true
	}
	args := cmd[1:]
	if opts, ok := ts.Shell[name.Value]; ok {
		operands, ok := tmuxOperands(seg, name.Value, args, opts)
		if ok && len(operands) > 0 {
			seg.Wrapper = true
			w.scriptWord(joinWords(operands), seg, "tmux "+name.Value, c, false)
		}
		return ok
	}
	if opts, ok := ts.Keys[name.Value]; ok {
		operands, ok := tmuxOperands(seg, name.Value, args, opts)
		if !ok {
			return false
		}
		var line []wordInfo
		for _, k := range operands {
			if !k.Dynamic && tmuxKeyName(k.Value) {
				if len(line) > 0 {
					seg.Wrapper = true
					w.scriptWord(joinWords(line), seg, "tmux "+name.Value, c, false)
				}
				line = line[:0]
				continue
			}
			line = append(line, k)
		}
		if len(line) > 0 {
			// typed without Enter: still runs once a key ends the line
			seg.Wrapper = true
			w.scriptWord(joinWords(line), seg, "tmux "+name.Value, c, false)
		}
		return true
	}
	if opts, ok := ts.Set[name.Value]; ok {
		operands, ok := tmuxOperands(seg, name.Value, args, opts)
		if ok && len(operands) > 0 && !operands[0].Dynamic && contains(ts.InertOptions, operands[0].Value) {
			return true
		}
		if ok {
			seg.addFinding(FindDynamicScript, "tmux "+name.Value+" sets an option gate does not know to be inert (default-command, hooks and formats run commands)")
		}
		return false
	}
	seg.addFinding(FindDynamicScript, "tmux "+name.Value+" may run or write what gate cannot check (only the commands of data.gate.catalogue.programs.tmux.tmux are read)")
	return false
}

// tmuxOperands skips a tmux command's options (clusters of flags, and the
// options in opts that take a value) and returns its operands; an option
// it does not know makes the command unprovable.
func tmuxOperands(seg *Segment, name string, args []wordInfo, opts []string) ([]wordInfo, bool) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a.Dynamic {
			seg.addFinding(FindDynamicScript, "tmux "+name+" is given a word that is not known statically: "+a.Value)
			return nil, false
		}
		if a.Value == "--" {
			i++
			break
		}
		if len(a.Value) < 2 || a.Value[0] != '-' {
			break
		}
		i++
		for k := 1; k < len(a.Value); k++ {
			letter := "-" + a.Value[k:k+1]
			if contains(opts, letter) {
				if k+1 == len(a.Value) {
					i++ // the value is the next word
				}
				break // or the rest of this one
			}
		}
	}
	if i > len(args) {
		return nil, true
	}
	return args[i:], true
}

// tmuxKeyName reports whether send-keys reads a word as a key name rather
// than text: Enter, C-c, M-x, F1, Escape...
func tmuxKeyName(v string) bool {
	switch v {
	case "Enter", "KPEnter", "Escape", "Tab", "BTab", "Space", "BSpace", "Up", "Down", "Left", "Right", "Home", "End", "NPage", "PPage", "PageUp", "PageDown", "IC", "DC":
		return true
	}
	if len(v) > 2 && (v[:2] == "C-" || v[:2] == "M-" || v[:2] == "S-") {
		return true
	}
	return len(v) >= 2 && v[0] == 'F' && isInteger(v[1:])
}
