# METADATA
# title: gate library
# description: Helpers shared by gate's rule packages.
package gate.lib

# METADATA
# description: Tool names and the aliases Qwen Code and Gemini CLI accept for them.
tool_aliases := {
	"run_shell_command": {"run_shell_command", "ShellTool"},
	"read_file": {"read_file", "ReadFileTool"},
	"write_file": {"write_file", "WriteFileTool"},
	"edit": {"edit", "EditTool", "replace"},
	"glob": {"glob", "GlobTool"},
	"grep_search": {"grep_search", "GrepTool", "search_file_content"},
	"list_directory": {"list_directory", "LSTool"},
}

# METADATA
# description: Tools that change files.
edit_tools := {"write_file", "edit"}

# METADATA
# description: The settings index built from Qwen Code settings (see README, "The input document").
settings := data.gate.settings

# METADATA
# description: |
#   Segments whose own permission is checked: commands, [[ ]] and (( )), but not
#   assignments, transparent wrappers (their inner commands are checked) or calls
#   of functions defined in the same command (their bodies are checked).
judged(seg) if {
	seg.kind != "assignment"
	not seg.transparent
	not seg.function_call
}

# METADATA
# description: The segment as text, for messages.
text(seg) := concat(" ", seg.argv)

# METADATA
# description: |
#   Whether a segment matches a tools.core / tools.allowed list: some shell entry's
#   argument is a word-boundary prefix of the segment's argv (seg.keys).
listed(list, seg) if {
	some name in tool_aliases.run_shell_command
	some key in seg.keys
	list.args[name][key]
}

# METADATA
# description: Whether a list names a tool bare (run_shell_command, ShellTool...).
names_tool(list, tool) if {
	some name in tool_aliases[tool]
	list.names[name]
}

# METADATA
# description: Whether every option in opts is among the segment's options.
has_options(seg, opts) if {
	every o in opts {
		o in seg.options
	}
}
