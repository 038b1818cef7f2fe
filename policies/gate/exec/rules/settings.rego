# METADATA
# title: settings at exec time
# description: |
#   tools.exclude and tools.core applied to the programs a command really
#   runs. An exclude entry matches a program whatever runs it (make, npm, a
#   script, git's aliases), with the same word and option semantics as for
#   a command's segments: the entry's words are a prefix of the program's
#   path and all its options are present. Under a tools.core allowlist, a
#   program the command's own shell runs (exec.by_shell: directly, or
#   through wrappers such as env, xargs or bash -c) must be listed, as its
#   segment had to be; what an allowed program runs itself (git's helpers,
#   the compiler under go build, sh -c under make) is judged by exclude
#   entries and team rules only.
package gate.exec.rules.settings

import data.gate.settings

# METADATA
# title: program excluded
# custom:
#   code: command_excluded
deny contains {
	"code": "command_excluded",
	"message": sprintf("Program '%s' is blocked by configuration", [concat(" ", input.exec.words)]),
	"entry": entry.entry,
} if {
	some key in input.exec.path_keys
	some entry in settings.exclude.paths.run_shell_command[key]
	every option in entry.options {
		option in input.exec.options
	}
}

# METADATA
# description: tools.core lists specific commands, so it is an allowlist.
allowlist if {
	not settings.core.names.run_shell_command
	settings.core.with_args.run_shell_command
}

_listed if {
	some key in input.exec.keys
	settings.core.args.run_shell_command[key]
}

# METADATA
# title: program not in the allowlist
# custom:
#   code: command_not_allowed
deny contains {
	"code": "command_not_allowed",
	"message": sprintf("Program '%s' is not in the allowed commands list", [concat(" ", input.exec.words)]),
} if {
	allowlist
	input.exec.by_shell
	not input.exec.transparent
	not _listed
}
