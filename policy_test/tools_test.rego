# gate.rules.tools: which tools exist. A non-empty tools.core lists them (its
# run_shell_command(...) entries enable the shell); a bare name in
# tools.exclude removes a tool, the shell included, whatever tools.core says.
package gate_test.tools

import data.gate
import data.gate.rules.tools
import data.gate_test.lib

_read := lib.read_file("src/a.go")

_write := lib.write_file("src/a.go")

_ls := lib.run("ls")

_codes(call, settings) := codes if {
	codes := {r.code | some r in tools.deny} with input as call with data.gate.settings as settings
}

# --- tool_unknown --------------------------------------------------------------

test_unknown_tool_denied if {
	d := gate.decision with input as lib.call("web_fetch", {"url": "https://example.org"}, [])
		with data.gate.settings as lib.open
	d == {"decision": "deny", "reasons": [{"code": "tool_unknown", "message": "Tool \"web_fetch\" is not a tool gate knows."}]}
}

# Calls name tools canonically; an alias accepted in settings is not a tool.
test_alias_is_not_a_tool_name if {
	_codes(lib.call("ShellTool", {"command": "ls"}, []), lib.open) == {"tool_unknown"}
}

test_every_known_tool_is_known if {
	every tool in ["run_shell_command", "read_file", "write_file", "edit", "glob", "grep_search", "list_directory"] {
		_codes(lib.call(tool, {}, []), lib.open) == set()
	}
}

# An unknown tool is only unknown, not also "not enabled".
test_unknown_tool_not_also_not_enabled if {
	_codes(lib.call("web_fetch", {}, []), lib.yolo(lib.names(["read_file"]), lib.empty_list)) == {"tool_unknown"}
}

# --- tool_not_enabled ------------------------------------------------------------

test_core_lists_the_tools if {
	d := gate.decision with input as _write with data.gate.settings as lib.yolo(lib.names(["read_file"]), lib.empty_list)
	d == {"decision": "deny", "reasons": [{"code": "tool_not_enabled", "message": "Tool \"write_file\" is not enabled: tools.core does not list it."}]}
}

test_core_listing_the_tool_enables_it if {
	_codes(_read, lib.yolo(lib.names(["read_file"]), lib.empty_list)) == set()
}

test_empty_core_enables_every_tool if {
	_codes(_write, lib.open) == set()
	_codes(_ls, lib.open) == set()
}

# run_shell_command(...) entries enable the shell, and only the shell.
test_shell_entries_enable_the_shell if {
	settings := lib.yolo(lib.cmds(["ls"]), lib.empty_list)
	_codes(_ls, settings) == set()
	_codes(_read, settings) == {"tool_not_enabled"}
}

# Listing only file tools leaves the shell out.
test_core_without_the_shell if {
	_codes(_ls, lib.yolo(lib.names(["read_file"]), lib.empty_list)) == {"tool_not_enabled"}
}

# --- shell_disabled --------------------------------------------------------------

test_bare_shell_in_exclude_disables_it if {
	d := gate.decision with input as _ls with data.gate.settings as lib.yolo(lib.empty_list, lib.names(["run_shell_command"]))
	d == {"decision": "deny", "reasons": [{"code": "shell_disabled", "message": "Shell tool is globally disabled in configuration"}]}
}

# Exclude wins over a bare run_shell_command in core.
test_shell_exclude_wins_over_core if {
	settings := lib.yolo(lib.names(["run_shell_command"]), lib.names(["run_shell_command"]))
	_codes(_ls, settings) == {"shell_disabled"}
}

test_shell_entry_in_exclude_does_not_disable_it if {
	_codes(_ls, lib.yolo(lib.empty_list, lib.cmds(["rm"]))) == set()
}

test_shell_disabled_only_for_the_shell if {
	_codes(_read, lib.yolo(lib.empty_list, lib.names(["run_shell_command"]))) == set()
}

# --- tool_excluded ---------------------------------------------------------------

test_excluded_tool_denied if {
	d := gate.decision with input as _write with data.gate.settings as lib.yolo(lib.empty_list, lib.names(["write_file"]))
	d == {"decision": "deny", "reasons": [{"code": "tool_excluded", "message": "Tool \"write_file\" is disabled in configuration (tools.exclude)."}]}
}

test_exclude_wins_over_core_for_tools if {
	_codes(_read, lib.yolo(lib.names(["read_file"]), lib.names(["read_file"]))) == {"tool_excluded"}
}

test_other_tool_excluded_does_not_matter if {
	_codes(_read, lib.yolo(lib.empty_list, lib.names(["write_file"]))) == set()
}

# The shell, excluded bare, is shell_disabled rather than tool_excluded.
test_shell_is_not_tool_excluded if {
	not "tool_excluded" in _codes(_ls, lib.yolo(lib.empty_list, lib.names(["run_shell_command"])))
}
