package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// tmuxCommands are tmux's commands (tmux 3.3a list-commands): their alias
// and the letters of their options that take a value.
var tmuxCommands = map[string]struct{ alias, values string }{
	"attach-session":       {alias: "attach", values: "cft"},
	"bind-key":             {alias: "bind", values: "TN"},
	"break-pane":           {alias: "breakp", values: "Fnst"},
	"capture-pane":         {alias: "capturep", values: "bESt"},
	"choose-buffer":        {alias: "", values: "FfKOt"},
	"choose-client":        {alias: "", values: "FfKOt"},
	"choose-tree":          {alias: "", values: "FfKOt"},
	"clear-history":        {alias: "clearhist", values: "t"},
	"clear-prompt-history": {alias: "clearphist", values: "T"},
	"clock-mode":           {alias: "", values: "t"},
	"command-prompt":       {alias: "", values: "IptT"},
	"confirm-before":       {alias: "confirm", values: "pt"},
	"copy-mode":            {alias: "", values: "st"},
	"customize-mode":       {alias: "", values: "Fft"},
	"delete-buffer":        {alias: "deleteb", values: "b"},
	"detach-client":        {alias: "detach", values: "Est"},
	"display-menu":         {alias: "menu", values: "ctTxy"},
	"display-message":      {alias: "display", values: "cdFt"},
	"display-popup":        {alias: "popup", values: "bcdehsStTwxy"},
	"display-panes":        {alias: "displayp", values: "dt"},
	"find-window":          {alias: "findw", values: "t"},
	"has-session":          {alias: "has", values: "t"},
	"if-shell":             {alias: "if", values: "t"},
	"join-pane":            {alias: "joinp", values: "lst"},
	"kill-pane":            {alias: "killp", values: "t"},
	"kill-server":          {alias: "", values: ""},
	"kill-session":         {alias: "", values: "t"},
	"kill-window":          {alias: "killw", values: "t"},
	"last-pane":            {alias: "lastp", values: "t"},
	"last-window":          {alias: "last", values: "t"},
	"link-window":          {alias: "linkw", values: "st"},
	"list-buffers":         {alias: "lsb", values: "Ff"},
	"list-clients":         {alias: "lsc", values: "Ft"},
	"list-commands":        {alias: "lscm", values: "F"},
	"list-keys":            {alias: "lsk", values: "PT"},
	"list-panes":           {alias: "lsp", values: "Fft"},
	"list-sessions":        {alias: "ls", values: "Ff"},
	"list-windows":         {alias: "lsw", values: "Fft"},
	"load-buffer":          {alias: "loadb", values: "bt"},
	"lock-client":          {alias: "lockc", values: "t"},
	"lock-server":          {alias: "lock", values: ""},
	"lock-session":         {alias: "locks", values: "t"},
	"move-pane":            {alias: "movep", values: "lst"},
	"move-window":          {alias: "movew", values: "st"},
	"new-session":          {alias: "new", values: "ceFfnstxy"},
	"new-window":           {alias: "neww", values: "ceFnt"},
	"next-layout":          {alias: "nextl", values: "t"},
	"next-window":          {alias: "next", values: "t"},
	"paste-buffer":         {alias: "pasteb", values: "sbt"},
	"pipe-pane":            {alias: "pipep", values: "t"},
	"previous-layout":      {alias: "prevl", values: "t"},
	"previous-window":      {alias: "prev", values: "t"},
	"refresh-client":       {alias: "refresh", values: "ABCft"},
	"rename-session":       {alias: "rename", values: "t"},
	"rename-window":        {alias: "renamew", values: "t"},
	"resize-pane":          {alias: "resizep", values: "xyt"},
	"resize-window":        {alias: "resizew", values: "xyt"},
	"respawn-pane":         {alias: "respawnp", values: "cet"},
	"respawn-window":       {alias: "respawnw", values: "cet"},
	"rotate-window":        {alias: "rotatew", values: "t"},
	"run-shell":            {alias: "run", values: "dt"},
	"save-buffer":          {alias: "saveb", values: "b"},
	"select-layout":        {alias: "selectl", values: "t"},
	"select-pane":          {alias: "selectp", values: "Tt"},
	"select-window":        {alias: "selectw", values: "t"},
	"send-keys":            {alias: "send", values: "Nt"},
	"send-prefix":          {alias: "", values: "t"},
	"server-access":        {alias: "", values: "t"},
	"set-buffer":           {alias: "setb", values: "bnt"},
	"set-environment":      {alias: "setenv", values: "t"},
	"set-hook":             {alias: "", values: "t"},
	"set-option":           {alias: "set", values: "t"},
	"set-window-option":    {alias: "setw", values: "t"},
	"show-buffer":          {alias: "showb", values: "b"},
	"show-environment":     {alias: "showenv", values: "t"},
	"show-hooks":           {alias: "", values: "t"},
	"show-messages":        {alias: "showmsgs", values: "t"},
	"show-options":         {alias: "show", values: "t"},
	"show-prompt-history":  {alias: "showphist", values: "T"},
	"show-window-options":  {alias: "showw", values: "t"},
	"source-file":          {alias: "source", values: ""},
	"split-window":         {alias: "splitw", values: "ceFlt"},
	"start-server":         {alias: "start", values: ""},
	"suspend-client":       {alias: "suspendc", values: "t"},
	"swap-pane":            {alias: "swapp", values: "st"},
	"swap-window":          {alias: "swapw", values: "st"},
	"switch-client":        {alias: "switchc", values: "ctT"},
	"unbind-key":           {alias: "unbind", values: "T"},
	"unlink-window":        {alias: "unlinkw", values: "t"},
	"wait-for":             {alias: "wait", values: ""},
}

// tmuxShellCommands run their operands, joined, as a shell command
// (new-window CMD, run-shell CMD, if-shell CMD ...).
var tmuxShellCommands = map[string]bool{
	"new-session": true, "new-window": true, "split-window": true, "respawn-pane": true,
	"respawn-window": true, "run-shell": true, "pipe-pane": true, "display-popup": true,
}

// tmuxInert are tmux commands that run nothing and write no file named by
// their arguments (formats aside: #(cmd) in any argument is refused).
var tmuxInert = map[string]bool{
	"attach-session": true, "break-pane": true, "capture-pane": true, "clear-history": true,
	"clear-prompt-history": true, "clock-mode": true, "copy-mode": true, "delete-buffer": true,
	"detach-client": true, "display-message": true, "display-panes": true, "find-window": true,
	"has-session": true, "join-pane": true, "kill-pane": true, "kill-server": true,
	"kill-session": true, "kill-window": true, "last-pane": true, "last-window": true,
	"link-window": true, "list-buffers": true, "list-clients": true, "list-commands": true,
	"list-keys": true, "list-panes": true, "list-sessions": true, "list-windows": true,
	"load-buffer": true, "lock-client": true, "lock-server": true, "lock-session": true,
	"move-pane": true, "move-window": true, "next-layout": true, "next-window": true,
	"paste-buffer": true, "previous-layout": true, "previous-window": true, "refresh-client": true,
	"rename-session": true, "rename-window": true, "resize-pane": true, "resize-window": true,
	"rotate-window": true, "select-layout": true, "select-pane": true, "select-window": true,
	"send-prefix": true, "set-buffer": true, "set-environment": true, "show-buffer": true,
	"show-environment": true, "show-hooks": true, "show-messages": true, "show-options": true,
	"show-prompt-history": true, "show-window-options": true, "start-server": true,
	"suspend-client": true, "swap-pane": true, "swap-window": true, "switch-client": true,
	"unbind-key": true, "unlink-window": true, "wait-for": true,
}

// tmuxKeys are send-keys key names that stand for a line's end.
var tmuxEnterKeys = map[string]bool{"Enter": true, "C-m": true, "KPEnter": true, "C-j": true}

// tmuxCommandName resolves a tmux command name as tmux does: a full name,
// an alias, or an unambiguous prefix of a full name.
func tmuxCommandName(v string) string {
	if _, ok := tmuxCommands[v]; ok {
		return v
	}
	for name, c := range tmuxCommands {
		if c.alias == v {
			return name
		}
	}
	found := ""
	for name := range tmuxCommands {
		if strings.HasPrefix(name, v) {
			if found != "" {
				return ""
			}
			found = name
		}
	}
	return found
}

// tmux reads the commands tmux is given on its command line (tmux new -d
// CMD \; run CMD): shell commands are parsed as scripts, send-keys' text
// as what the pane's shell reads, save-buffer's file as a write; a command
// that runs tmux commands later (bind-key, set-hook, if-shell's commands),
// a format that runs one (#(cmd)) or a command gate does not know is
// unprovable.
func (w *walker) tmux(seg *Segment, words []wordInfo, spec *ProgramSpec, c *ctx) {
	// global options, then commands separated by ";" words
	i := 1
	for i < len(words) && !words[i].Dynamic && isOption(words[i].Value) && words[i].Value != "--" {
		names, val, attached := optionNames(words[i].Value, spec)
		last := names[len(names)-1]
		if !attached && spec.takesValue(last) && i+1 < len(words) {
			i++
			val, attached = words[i].Value, true
			if words[i].Dynamic {
				seg.addFinding(FindUnknownOption, "tmux "+last+" is given a value not known statically")
			}
		}
		if last == "-c" && attached {
			w.scriptWord(Word{Value: val, Dynamic: words[i].Dynamic}, seg, "tmux -c", c, false)
		}
		i++
	}
	if i < len(words) && words[i].Value == "--" {
		i++
	}
	var cmd []wordInfo
	flush := func() {
		if len(cmd) > 0 {
			w.tmuxCommand(seg, cmd, c)
		}
		cmd = nil
	}
	for ; i < len(words); i++ {
		wd := words[i]
		if !wd.Dynamic && wd.Value == ";" {
			flush()
			continue
		}
		if !wd.Dynamic && strings.HasSuffix(wd.Value, ";") && !strings.HasSuffix(wd.Value, "\\;") {
			wd.Value = strings.TrimSuffix(wd.Value, ";")
			cmd = append(cmd, wd)
			flush()
			continue
		}
		cmd = append(cmd, wd)
	}
	flush()
}

// tmuxCommand reads one tmux command and its arguments.
func (w *walker) tmuxCommand(seg *Segment, args []wordInfo, c *ctx) {
	// what tmux runs runs in the server, in a pane's or session's
	// directory (-c DIR, or wherever an earlier command left it)
	c = c.elsewhere()
	if args[0].Dynamic {
		seg.addFinding(FindDynamicScript, "tmux is given a command not known statically: "+clip(args[0].Value))
		return
	}
	name := tmuxCommandName(args[0].Value)
	if name == "" {
		seg.addFinding(FindUnknownOption, "tmux is given "+clip(args[0].Value)+", a command gate does not know")
		return
	}
	values := tmuxCommands[name].values
	var flags []string
	optVals := map[string][]Word{}
	k := 1
	for k < len(args) {
		wd := args[k]
		if wd.Dynamic || !strings.HasPrefix(wd.Value, "-") || wd.Value == "-" {
			break
		}
		if wd.Value == "--" {
			k++
			break
		}
		for j := 1; j < len(wd.Value); j++ {
			l := wd.Value[j : j+1]
			flags = append(flags, l)
			if strings.Contains(values, l) {
				v := Word{Value: wd.Value[j+1:]}
				if v.Value == "" && k+1 < len(args) {
					k++
					v = args[k].Word
				}
				optVals[l] = append(optVals[l], v)
				break
			}
		}
		k++
	}
	operands := args[k:]
	for n, a := range args {
		// #(cmd) in a format runs cmd; a value known only at run time
		// may hold one, or end in ";" and start another command
		if strings.Contains(a.Value, "#(") || a.Dynamic && name != "send-keys" && !tmuxShellCommands[name] && (!tmuxInert[name] || n < len(args)-1) {
			seg.addFinding(FindDynamicScript, "tmux "+name+" is given "+clip(a.Value)+", which may run a command gate cannot check")
			return
		}
	}
	switch {
	case tmuxShellCommands[name]:
		if name == "run-shell" && contains(flags, "C") {
			seg.addFinding(FindInlineCode, "tmux run-shell -C runs tmux commands gate does not check")
			return
		}
		if len(operands) > 0 {
			w.scriptWord(joinWords(operands), seg, "tmux "+name, c, false)
		}
	case name == "if-shell":
		if len(operands) > 0 {
			w.scriptWord(operands[0].Word, seg, "tmux if-shell", c, false)
		}
		if len(operands) > 1 {
			seg.addFinding(FindInlineCode, "tmux if-shell runs tmux commands gate does not check")
		}
	case name == "send-keys":
		// the keys are typed into the pane, whose shell reads them
		var text strings.Builder
		for _, o := range operands {
			switch {
			case o.Dynamic:
				seg.addFinding(FindDynamicScript, "tmux send-keys types text not known statically: "+clip(o.Value))
				return
			case tmuxEnterKeys[o.Value] && !contains(flags, "l"):
				text.WriteString("\n")
			case o.Value == "Space" && !contains(flags, "l"):
				text.WriteString(" ")
			case (o.Value == "Escape" || o.Value == "Tab" || strings.HasPrefix(o.Value, "C-") || strings.HasPrefix(o.Value, "M-")) && !contains(flags, "l"):
				text.WriteString("\n")
			default:
				text.WriteString(o.Value)
			}
		}
		if contains(flags, "X") || contains(flags, "H") {
			seg.addFinding(FindInlineCode, "tmux send-keys -X/-H sends what gate does not read")
			return
		}
		w.typedLines(seg, text.String(), c)
	case name == "save-buffer":
		if len(operands) > 0 {
			seg.Writes = append(seg.Writes, operands[0].Word)
		}
	case name == "source-file":
		for _, o := range operands {
			w.programFile(seg, o.Word, "tmux source-file", c)
		}
		seg.addFinding(FindInlineCode, "tmux source-file runs tmux commands from a file gate does not read")
	case name == "set-option" || name == "set-window-option":
		if len(operands) > 0 && !operands[0].Dynamic {
			opt := operands[0].Value
			switch {
			case opt == "default-command" && len(operands) > 1:
				w.scriptWord(operands[1].Word, seg, "tmux set default-command", c, false)
			case opt == "default-shell" || tmuxHook(opt):
				seg.addFinding(FindInlineCode, "tmux set "+opt+" makes tmux run a command gate does not check")
			}
		}
	case tmuxInert[name]:
	default:
		// bind-key, set-hook, confirm-before, command-prompt, choose-*,
		// display-menu: tmux commands run later
		seg.addFinding(FindInlineCode, "tmux "+name+" runs tmux commands gate does not check")
	}
}

// tmuxHook reports whether a tmux option name is a hook (its value is a
// tmux command run when the event happens).
func tmuxHook(opt string) bool {
	opt = strings.TrimSuffix(strings.SplitN(opt, "[", 2)[0], "")
	for _, p := range []string{"after-", "alert-", "client-", "session-closed", "session-created", "session-renamed", "session-window-changed", "window-layout-changed", "window-linked", "window-pane-changed", "window-renamed", "window-resized", "window-unlinked", "pane-died", "pane-exited", "pane-focus-", "pane-set-clipboard", "pane-mode-changed", "command-error"} {
		if strings.HasPrefix(opt, p) {
			return true
		}
	}
	return false
}

// typedLines reads text typed into an interactive shell (tmux send-keys):
// the shell runs each line, or lines joined while one is incomplete (an
// open quote); a line with a syntax error runs nothing, and text left
// incomplete at the end waits for more input.
func (w *walker) typedLines(seg *Segment, text string, c *ctx) {
	chunk := ""
	for _, line := range strings.SplitAfter(text, "\n") {
		chunk += line
		if !strings.HasSuffix(chunk, "\n") {
			return // not entered: the shell has not read it
		}
		_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(chunk), "")
		switch {
		case err == nil:
			if strings.TrimSpace(chunk) != "" {
				w.script(chunk, seg, "tmux send-keys", c, false)
			}
		case syntax.IsIncomplete(err):
			continue
		}
		chunk = ""
	}
}
