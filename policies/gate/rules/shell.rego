# METADATA
# title: shell
# description: |
#   Qwen Code's tools.core / tools.exclude semantics for run_shell_command,
#   applied to every segment of the parsed command instead of its text:
#   exclude is checked first and wins; a bare run_shell_command in core allows
#   everything, specific entries make core an allowlist that every segment must
#   match. Beyond the reference, segments that cannot be proven safe are denied
#   whenever a restriction applies, and commands with the same effect as an
#   excluded one ask.
#
#   Entries are looked up, never scanned: Go files them by key in
#   data.gate.settings and hands each segment its candidate keys (keys,
#   path_keys, uncertain_keys), so the cost does not grow with the lists.
package gate.rules.shell

import data.gate.rules.approval

# METADATA
# description: A bare run_shell_command (or alias) in tools.core allows every command.
wildcard if data.gate.settings.core.names.run_shell_command

# METADATA
# description: tools.core lists specific commands, so it is an allowlist.
allowlist if {
	not wildcard
	data.gate.settings.core.with_args.run_shell_command
}

# METADATA
# description: tools.exclude lists specific commands.
excluding if data.gate.settings.exclude.with_args.run_shell_command

# METADATA
# description: Some restriction applies to the shell, so unprovable segments are denied.
restricted if allowlist

restricted if excluding

# METADATA
# title: parse error
# custom:
#   code: parse_error
deny contains {
	"code": "parse_error",
	"message": sprintf("Command cannot be parsed, so it cannot be checked: %s", [_position(err)]),
} if {
	input.tool == "run_shell_command"
	err := input.shell.parse_error
}

_position(err) := sprintf("%d:%d: %s", [err.line, err.col, err.message]) if err.line > 0

_position(err) := err.message if not err.line > 0

# METADATA
# title: command excluded
# description: |
#   A segment matches an exclude entry when the entry's words (program and
#   operands) are a prefix of the segment's path and all its options are present.
# custom:
#   code: command_excluded
deny contains {
	"code": "command_excluded",
	"message": sprintf("Command '%s' is blocked by configuration", [concat(" ", seg.argv)]),
	"segment": seg.id,
	"entry": entry.entry,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some key in seg.path_keys
	some entry in data.gate.settings.exclude.paths.run_shell_command[key]
	every option in entry.options {
		option in seg.options
	}
}

# METADATA
# title: command may be excluded
# description: |
#   The known part of a segment's path, cut short by a dynamic word, is a
#   proper prefix of an exclude entry's: the entry may match at run time.
# custom:
#   code: command_unprovable
deny contains _uncertain(seg, entry) if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some key in seg.uncertain_keys
	some entry in data.gate.settings.exclude.prefixes.run_shell_command[key]
}

# METADATA
# title: options may come from dynamic words
# description: A segment matches an exclude entry's path, and the options it lacks may come from dynamic words.
# custom:
#   code: command_unprovable
deny contains _uncertain(seg, entry.entry) if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	seg.dynamic[_]
	some key in seg.path_keys
	some entry in data.gate.settings.exclude.paths.run_shell_command[key]
	some option in entry.options
	not option in seg.options
}

# METADATA
# title: unknown program may run an excluded command
# description: |
#   A program the catalogue does not describe may be a wrapper: an operand
#   that names an excluded command, or holds a command line that does, may
#   be what it runs (sshpass -p x ssh h rm v, screen -dm rm v, tmux new
#   "rm v"). Its options are not known, so the entry's options are not
#   required. Programs whose operands are data are listed in
#   data.gate.catalogue.data_operands.
# custom:
#   code: command_unprovable
deny contains {
	"code": "command_unprovable",
	"message": sprintf(
		"Command '%s' cannot be checked: gate does not know what %s runs, and its arguments or input name %s, which is blocked by configuration",
		[concat(" ", seg.argv), seg.program, entry.entry],
	),
	"segment": seg.id,
	"entry": entry.entry,
	"finding": "unknown_wrapper",
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some key in seg.maybe_keys
	some entry in data.gate.settings.exclude.paths.run_shell_command[key]
}

_uncertain(seg, entry) := {
	"code": "command_unprovable",
	"message": sprintf(
		"Command '%s' cannot be proven not to run %s, which is blocked by configuration: part of it is only known at run time",
		[concat(" ", seg.argv), entry],
	),
	"segment": seg.id,
	"entry": entry,
}

# Segments an allowlist entry matches: its argument is a word-boundary prefix
# of argv.
_listed := _listed_by_entry | _listed_modules

_listed_by_entry := {seg.id |
	some seg in input.shell.segments
	some key in seg.keys
	data.gate.settings.core.args.run_shell_command[key]
}

# The module a listed interpreter runs (python3 -m pytest, listed as such
# or by python3 alone) is the same program: its segment needs no entry of
# its own.
_listed_modules := {seg.id |
	some seg in input.shell.segments
	_listed_by_entry[seg.parent]
	some parent in input.shell.segments
	parent.id == seg.parent
	seg.via == concat(" ", [parent.program, "-m", seg.program])
}

# Segments not in the allowlist. Assignments, transparent wrappers that run
# another command (the inner command is checked) and calls of functions
# defined in the same command (their bodies are checked) need no entry of
# their own.
_not_allowed contains seg if {
	input.tool == "run_shell_command"
	allowlist
	some seg in input.shell.segments
	not _listed[seg.id]
	seg.kind != "assignment"
	not passes_through(seg)
	not seg.function_call
}

# Segments that other segments were unwrapped from.
_wrapping := {seg.parent | some seg in input.shell.segments}

# METADATA
# description: |
#   A transparent wrapper (nice, env, timeout, bash -c ...) needs no
#   permission of its own when it runs another command, which is checked
#   instead. With nothing inside (bash, sh -i, env X=1, env) it is itself the
#   program that runs, and it is listed, excluded and approved like any other.
passes_through(seg) if {
	seg.transparent
	_wrapping[seg.id]
}

# METADATA
# title: command not in the allowlist
# custom:
#   code: command_not_allowed
deny contains {
	"code": "command_not_allowed",
	"message": sprintf(
		"Command(s) not in the allowed commands list. Disallowed commands: %s",
		[concat(", ", [sprintf("%q", [concat(" ", seg.argv)]) | some seg in _not_allowed])],
	),
} if {
	count(_not_allowed) > 0
}

# METADATA
# title: unprovable segment
# description: A finding of the parser (dynamic program, inline code, ...) under a restriction.
# custom:
#   code: command_unprovable
deny contains {
	"code": "command_unprovable",
	"message": sprintf("Command '%s' cannot be checked: %s", [concat(" ", seg.argv), finding.message]),
	"segment": seg.id,
	"finding": finding.code,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some finding in seg.findings
	restricted
	finding_action(finding.code) == "deny"
}

# METADATA
# description: |
#   What a parser finding does under a restriction: the settings' override
#   (gate.findings in a settings file), else data.gate.findings, else deny.
finding_action(code) := action if {
	action := data.gate.settings.findings[code]
} else := action if {
	action := data.gate.findings[code]
} else := "deny"

# METADATA
# title: segment needs review
# custom:
#   code: command_review
ask contains {
	"code": "command_review",
	"message": sprintf("Command '%s' needs review: %s", [concat(" ", seg.argv), finding.message]),
	"segment": seg.id,
	"finding": finding.code,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some finding in seg.findings
	restricted
	finding_action(finding.code) == "ask"
}

# METADATA
# title: same effect as an excluded command
# custom:
#   code: command_equivalent
ask contains {
	"code": "command_equivalent",
	"message": sprintf(
		"Command '%s' has the same effect as '%s', which is blocked by configuration",
		[concat(" ", seg.argv), equivalent.target],
	),
	"segment": seg.id,
	"entry": equivalent.entry,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some key in seg.path_keys
	some equivalent in data.gate.settings.equivalents[key]
	excluded_or_broader(equivalent.target)
	every option in equivalent.options {
		option in seg.options
	}
	not dry_run(seg)
}

# METADATA
# title: git deletes files from a tree the command made
# description: |
#   A git subcommand that writes the work tree (merge, switch, rebase,
#   stash, cherry-pick, ...) after git commands earlier in the same command
#   changed the repository or its index (the finding git_own_tree): the tree
#   it writes may lack files the work tree has, and git deletes them, as rm
#   would.
# custom:
#   code: command_equivalent
ask contains {
	"code": "command_equivalent",
	"message": sprintf("Command '%s' has the same effect as 'rm', which is blocked by configuration: %s", [concat(" ", seg.argv), finding.message]),
	"segment": seg.id,
	"finding": finding.code,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	some finding in seg.findings
	finding.code == "git_own_tree"
	excluded_or_broader("rm")
}

# METADATA
# title: a program gate does not know may run an equivalent of an excluded command
# description: |
#   An operand of a program the catalogue describes only in part
#   (maybe_runs: screen, cargo), of a subcommand wrapper after its
#   subcommand (uv run, podman unshare) or a make variable's value, that
#   names a command with the same effect as an excluded one (screen -dm
#   unlink v, make CC='unlink v') may be what it runs. (Operands of
#   programs the catalogue does not describe at all are often subcommands:
#   etcdctl del KEY, turbo unlink.) Entries that need options (find
#   -delete) are not matched: the options of what such a program runs are
#   not known.
# custom:
#   code: command_equivalent
ask contains {
	"code": "command_equivalent",
	"message": sprintf(
		"Command '%s' may run '%s', which has the same effect as '%s', blocked by configuration",
		[concat(" ", seg.argv), equivalent.entry, equivalent.target],
	),
	"segment": seg.id,
	"entry": equivalent.entry,
} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	_described_in_part(seg)
	some key in seg.maybe_keys
	some equivalent in data.gate.settings.equivalents[key]
	count(equivalent.options) == 0
	excluded_or_broader(equivalent.target)
}

_described_in_part(seg) if data.gate.catalogue.programs[seg.program]

# (the parser gives a subcommand wrapper maybe_keys only after its
# subcommand: uv run CMD, podman unshare CMD)
_described_in_part(seg) if data.gate.catalogue.subcommand_wrappers[seg.program]

# METADATA
# description: |
#   The segment only reports what it would do (git clean -n): one of the
#   options of a data.gate.dry_run entry for one of its path keys is given,
#   and none of the entry's unless options.
dry_run(seg) if {
	some key in seg.path_keys
	entry := data.gate.dry_run[key]
	some option in entry.options
	option in seg.options
	every other in object.get(entry, "unless", []) {
		not other in seg.options
	}
}

# METADATA
# description: |
#   An exclude entry covers target when its words are target's or a prefix
#   of them: excluding git covers what git push covers.
excluded_or_broader(target) if {
	words := split(target, " ")
	some n in numbers.range(1, count(words))
	data.gate.settings.exclude.paths.run_shell_command[concat(" ", array.slice(words, 0, n))]
}

# METADATA
# title: interactive shell or REPL
# description: |
#   An interactive shell or REPL reads the commands it runs from the
#   terminal, where no static check sees them. Under any restriction (an
#   allowlist, excluded commands, or an approval mode that asks for commands)
#   it cannot be proven safe, unless the call starts an interactive session
#   (input.session: a pseudo-terminal someone types into) and exec-time
#   supervision decides every program started in it (input.layers holds
#   "exec"). A shell run as a command (bash --rcfile rc -i) stays unprovable.
# custom:
#   code: command_unprovable
deny contains {
	"code": "command_unprovable",
	"message": sprintf(
		"Command '%s' starts an interactive shell or REPL: what it runs cannot be checked, except in an interactive session under exec-time supervision",
		[concat(" ", seg.argv)],
	),
	"segment": seg.id,
	"finding": "interactive",
} if {
	input.tool == "run_shell_command"
	_guarded
	not supervised
	some seg in input.shell.segments
	interactive(seg)
}

# Interactive sessions are guarded by a restriction or by approvals.
_guarded if restricted

_guarded if approval.asks_for_commands

# METADATA
# description: An interactive session whose every program is decided at exec time, also those typed into it.
supervised if {
	input.session
	"exec" in input.layers
}

# METADATA
# description: |
#   The segment reads commands typed at run time: a shell given no script
#   (bash, sh -i, bash -s, bash -, zsh, exec bash), a wrapper that starts a
#   shell when given no command (sudo -s, su, chroot DIR; see
#   data.gate.interactive), or an interpreter that reads its program from
#   stdin given none (python3, node, irb) or told to be interactive
#   (python3 -i x.py). Decided from the parsed segment and the catalogue,
#   whatever the command's spelling.
interactive(seg) if {
	# The parser unwraps a shell's script (-c, a file, stdin from a pipe or
	# a here-document) as its inner segments or reports it as a finding; a
	# shell that is neither reads the terminal.
	some name in _names(seg)
	data.gate.catalogue.programs[name].shell
	not seg.wrapper
	count(seg.findings) == 0
	not _exits(seg)
}

interactive(seg) if {
	some option in data.gate.catalogue.programs[seg.program].wrapper.shell_options
	option in seg.options
	_runs_nothing_else(seg)
}

interactive(seg) if {
	seg.program in data.gate.interactive.shell_wrappers
	_runs_nothing_else(seg)
	not _exits(seg)
}

interactive(seg) if {
	some name in _names(seg)
	code := data.gate.catalogue.programs[name].inline_code
	code.stdin
	count(seg.findings) == 0
	_no_program(seg)
	not _file_option(seg, code)
	not _code_option(seg, code)
	not seg.proven_code
	not _exits(seg)
}

interactive(seg) if {
	some name in _names(seg)
	some option in data.gate.interactive.options[name]
	option in seg.options
}

# The names a segment's program is read as: its own, and the program its
# versioned or flavoured name stands for (python3.11 and lua5.4 are python3
# and lua, whose REPLs they start).
_names(seg) := {seg.program} | {p[0] |
	some p in seg.alt_paths
	count(p) == count(seg.path)
}

_runs_nothing_else(seg) if {
	not _wrapping[seg.id]
	count(seg.findings) == 0
}

# No operand names a program (a dynamic one may be empty); "-" is stdin.
_no_program(seg) if count(seg.path) == 1

_no_program(seg) if {
	count(seg.path) == 2
	seg.path[1] == "-"
}

# Code given as an option's value (dc -e CODE) is the program, run instead
# of what stdin would hold.
_code_option(seg, code) if {
	some option in code.options
	option in seg.options
}

_file_option(seg, code) if {
	some option in code.file_options
	option in seg.options
}

_exits(seg) if {
	some option in data.gate.interactive.exits
	option in seg.options
}

_exits(seg) if {
	some name in _names(seg)
	some option in data.gate.interactive.program_exits[name]
	option in seg.options
}

_exits(seg) if {
	count(seg.path) == 1
	count(seg.options) == 1
	some name in _names(seg)
	some option in data.gate.interactive.program_exits_alone[name]
	option in seg.options
}
