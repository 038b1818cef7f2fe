package gate_test.tools

import data.gate.rules.tools
import data.gate_test.lib

_read := lib.file_call("read_file", lib.path("a.txt", "read"))

test_unknown_tool_denied if {
	some r in tools.deny with input as {"tool": "format_disk", "args": {}, "paths": []}
		with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
	r.code == "tool_unknown"
}

test_known_tool_not_unknown if {
	count(tools.deny) == 0 with input as _read with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
}

test_core_lists_tools if {
	some r in tools.deny with input as _read
		with data.gate.settings as lib.yolo(lib.names_list(["write_file"]), lib.empty_list)
	r.code == "tool_not_enabled"
}

test_core_listing_the_tool_enables_it if {
	count(tools.deny) == 0 with input as _read
		with data.gate.settings as lib.yolo(lib.names_list(["read_file"]), lib.empty_list)
}

test_shell_entries_enable_the_shell if {
	count(tools.deny) == 0 with input as lib.shell([lib.seg(0, ["ls"])])
		with data.gate.settings as lib.yolo(lib.shell_list({"ls": []}), lib.empty_list)
}

test_excluded_tool_denied if {
	some r in tools.deny with input as _read
		with data.gate.settings as lib.yolo(lib.empty_list, lib.names_list(["read_file"]))
	r.code == "tool_excluded"
}

test_other_tool_excluded_does_not_matter if {
	count(tools.deny) == 0 with input as _read
		with data.gate.settings as lib.yolo(lib.empty_list, lib.names_list(["write_file"]))
}

test_bare_shell_in_exclude_disables_it if {
	some r in tools.deny with input as lib.shell([lib.seg(0, ["ls"])])
		with data.gate.settings as lib.yolo(lib.empty_list, lib.names_list(["run_shell_command"]))
	r.code == "shell_disabled"
}
