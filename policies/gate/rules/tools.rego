# METADATA
# title: tools
# description: |
#   Which tools exist. A non-empty tools.core lists the tools that exist
#   (run_shell_command(...) entries enable the shell tool); a bare tool name in
#   tools.exclude removes it.
package gate.rules.tools

import data.gate.lib

# METADATA
# title: unknown tool
# custom:
#   code: tool_unknown
deny contains {"code": "tool_unknown", "message": sprintf("Tool %q is not a tool gate knows.", [input.tool])} if {
	not lib.tool_aliases[input.tool]
}

# METADATA
# title: tool not in tools.core
# custom:
#   code: tool_not_enabled
deny contains {
	"code": "tool_not_enabled",
	"message": sprintf("Tool %q is not enabled: tools.core does not list it.", [input.tool]),
} if {
	lib.tool_aliases[input.tool]
	count(lib.settings.core.tools) > 0
	not _core_lists(input.tool)
}

# METADATA
# title: shell disabled
# custom:
#   code: shell_disabled
deny contains {"code": "shell_disabled", "message": "Shell tool is globally disabled in configuration"} if {
	input.tool == "run_shell_command"
	lib.names_tool(lib.settings.exclude, input.tool)
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
	lib.names_tool(lib.settings.exclude, input.tool)
}

_core_lists(tool) if {
	some name in lib.tool_aliases[tool]
	lib.settings.core.tools[name]
}
