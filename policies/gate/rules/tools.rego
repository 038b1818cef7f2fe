# METADATA
# title: tools
# description: |
#   Which tools exist. A non-empty tools.core lists the tools that exist
#   (run_shell_command(...) entries enable the shell tool); a bare tool name in
#   tools.exclude removes it. Tool names are canonical here: the settings index
#   (data.gate.settings) files each entry under the tool its name is an alias of
#   (data.gate.tools.aliases).
package gate.rules.tools

# METADATA
# title: unknown tool
# custom:
#   code: tool_unknown
deny contains {"code": "tool_unknown", "message": sprintf("Tool %q is not a tool gate knows.", [input.tool])} if {
	not data.gate.tools.aliases[input.tool]
}

# METADATA
# title: tool not in tools.core
# custom:
#   code: tool_not_enabled
deny contains {
	"code": "tool_not_enabled",
	"message": sprintf("Tool %q is not enabled: tools.core does not list it.", [input.tool]),
} if {
	data.gate.settings.core.count > 0
	not data.gate.settings.core.tools[input.tool]
	data.gate.tools.aliases[input.tool]
}

# METADATA
# title: shell disabled
# custom:
#   code: shell_disabled
deny contains {"code": "shell_disabled", "message": "Shell tool is globally disabled in configuration"} if {
	input.tool == "run_shell_command"
	data.gate.settings.exclude.names.run_shell_command
}

# METADATA
# title: tool excluded
# custom:
#   code: tool_excluded
deny contains {
	"code": "tool_excluded",
	"message": sprintf("Tool %q is disabled in configuration (tools.exclude).", [input.tool]),
} if {
	input.tool != "run_shell_command"
	data.gate.settings.exclude.names[input.tool]
}
