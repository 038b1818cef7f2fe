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
package gate.rules.shell

import data.gate.lib

_settings := lib.settings

_aliases := lib.tool_aliases.run_shell_command

_segments := input.shell.segments if input.tool == "run_shell_command"

# METADATA
# description: A bare run_shell_command or ShellTool in tools.core allows every command.
wildcard if lib.names_tool(_settings.core, "run_shell_command")

# METADATA
# description: tools.core lists specific commands, so it is an allowlist.
allowlist if {
	not wildcard
	some name in _aliases
	count(object.get(_settings.core.args, name, {})) > 0
}

# METADATA
# description: tools.exclude lists specific commands.
excluding if {
	some name in _aliases
	count(object.get(_settings.exclude.paths, name, {})) > 0
}

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

# Segments matching an exclude entry: the entry's words (program and operands)
# are a prefix of the segment's path and its options are all present.
_excluded contains [seg.id, entry.entry] if {
	some seg in _segments
	some name in _aliases
	some key in seg.path_keys
	some entry in _settings.exclude.paths[name][key]
	lib.has_options(seg, entry.options)
}

# METADATA
# title: command excluded
# custom:
#   code: command_excluded
deny contains {
	"code": "command_excluded",
	"message": sprintf("Command '%s' is blocked by configuration", [lib.text(seg)]),
	"segment": id,
	"entry": entry,
} if {
	some [id, entry] in _excluded
	seg := _segments[id]
}

# Segments that may match an exclude entry once run-time values are known: the
# known part of the path is a proper prefix of an entry's, or options the entry
# needs may come from dynamic words.
_uncertain contains [seg.id, entry] if {
	some seg in _segments
	some name in _aliases
	some key in seg.uncertain_keys
	some entry in _settings.exclude.prefixes[name][key]
}

_uncertain contains [seg.id, entry.entry] if {
	some seg in _segments
	count(seg.dynamic) > 0
	some name in _aliases
	some key in seg.path_keys
	some entry in _settings.exclude.paths[name][key]
	not lib.has_options(seg, entry.options)
}

# METADATA
# title: command may be excluded
# custom:
#   code: command_unprovable
deny contains {
	"code": "command_unprovable",
	"message": sprintf(
		"Command '%s' cannot be proven not to run %s, which is blocked by configuration: part of it is only known at run time",
		[lib.text(seg), entry],
	),
	"segment": id,
	"entry": entry,
} if {
	some [id, entry] in _uncertain
	not _excluded[[id, entry]]
	seg := _segments[id]
}

_not_allowed contains seg if {
	allowlist
	some seg in _segments
	lib.judged(seg)
	not lib.listed(_settings.core, seg)
}

# METADATA
# title: command not in the allowlist
# custom:
#   code: command_not_allowed
deny contains {
	"code": "command_not_allowed",
	"message": sprintf(
		"Command(s) not in the allowed commands list. Disallowed commands: %s",
		[concat(", ", [sprintf("%q", [lib.text(seg)]) | some seg in _not_allowed])],
	),
} if {
	count(_not_allowed) > 0
}

_effect(code) := object.get(data.gate.findings, code, "deny")

# METADATA
# title: unprovable segment
# description: A finding of the parser (dynamic program, inline code, ...) under a restriction.
# custom:
#   code: command_unprovable
deny contains {
	"code": "command_unprovable",
	"message": sprintf("Command '%s' cannot be checked: %s", [lib.text(seg), finding.message]),
	"segment": seg.id,
	"finding": finding.code,
} if {
	restricted
	some seg in _segments
	some finding in seg.findings
	_effect(finding.code) == "deny"
}

# METADATA
# title: segment needs review
# custom:
#   code: command_review
ask contains {
	"code": "command_review",
	"message": sprintf("Command '%s' needs review: %s", [lib.text(seg), finding.message]),
	"segment": seg.id,
	"finding": finding.code,
} if {
	restricted
	some seg in _segments
	some finding in seg.findings
	_effect(finding.code) == "ask"
}

# METADATA
# title: same effect as an excluded command
# custom:
#   code: command_equivalent
ask contains {
	"code": "command_equivalent",
	"message": sprintf(
		"Command '%s' has the same effect as '%s', which is blocked by configuration",
		[lib.text(seg), equivalent.target],
	),
	"segment": seg.id,
} if {
	excluding
	some seg in _segments
	some key in seg.path_keys
	some equivalent in _settings.equivalents[key]
	lib.has_options(seg, equivalent.options)
	_target_excluded(equivalent.target)
}

_target_excluded(target) if {
	some name in _aliases
	_settings.exclude.paths[name][target]
}
