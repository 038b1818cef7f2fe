# gate.rules.approval: Qwen Code's approval modes. default asks for shell
# commands not covered by tools.allowed (segment by segment) and for edits;
# auto-edit allows edits but still asks for commands; yolo asks nothing.
package gate_test.approval

import data.gate
import data.gate.rules.approval
import data.gate_test.lib

_mode(mode, allowed) := lib.settings(mode, lib.empty_list, lib.empty_list, allowed)

_ask(call, settings) := rs if {
	rs := approval.ask with input as call with data.gate.settings as settings
}

_asks(call, settings) if count(_ask(call, settings)) > 0

_default := _mode("default", lib.empty_list)

_ls_and_rm := lib.run("ls -la && rm x")

# --- shell commands --------------------------------------------------------------

test_default_mode_asks_for_commands if {
	_ask(lib.run("ls"), _default) == {{
		"code": "approval_required",
		"message": "Approval mode 'default': the command is not covered by tools.allowed",
	}}
}

test_allowed_covers_every_segment if {
	not _asks(_ls_and_rm, _mode("default", lib.cmds(["ls", "rm"])))
}

# Unlike the reference, tools.allowed is checked per segment: ls is allowed,
# rm is not, so the whole command asks.
test_allowed_checked_per_segment if {
	_asks(_ls_and_rm, _mode("default", lib.cmds(["ls"])))
}

# Entries are word-boundary prefixes of argv.
test_allowed_entry_is_a_word_prefix if {
	_asks(lib.run("lsof"), _mode("default", lib.cmds(["ls"])))
	not _asks(lib.run("ls -la"), _mode("default", lib.cmds(["ls"])))
}

test_allowed_multiword_entry if {
	settings := _mode("default", lib.cmds(["git status"]))
	not _asks(lib.run("git status --short"), settings)
	_asks(lib.run("git push"), settings)
}

# A segment with a finding is never covered.
test_segment_with_finding_asks if {
	s := lib.finding(lib.seg(0, ["python", "-c", "print(1)"]), "inline_code")
	_asks(lib.shell("python -c 'print(1)'", [s]), _mode("default", lib.cmds(["python"])))
}

# A bare run_shell_command in tools.allowed allows every command.
test_bare_shell_in_allowed if {
	not _asks(_ls_and_rm, _mode("default", lib.names(["run_shell_command"])))
	s := lib.finding(lib.seg(0, ["python", "-c", "print(1)"]), "inline_code")
	not _asks(lib.shell("python -c 'print(1)'", [s]), _mode("default", lib.names(["run_shell_command"])))
}

# Another tool allowed bare covers no command.
test_other_tool_allowed_bare if {
	_asks(lib.run("ls"), _mode("default", lib.names(["read_file"])))
}

# Assignments, transparent wrappers and calls of functions defined in the
# command need no entry; what they run does.
test_allowed_skips_assignments_transparent_wrappers_and_functions if {
	segs := [
		object.union(lib.seg(0, ["FOO=1"]), {"kind": "assignment", "program": "", "raw_program": "", "argv": [], "path": [], "path_complete": false, "keys": [], "path_keys": []}),
		object.union(lib.seg(1, ["timeout", "5", "ls"]), {"wrapper": true, "transparent": true}),
		object.union(lib.seg(2, ["ls"]), {"parent": 1, "context": ["wrapper"], "via": "timeout"}),
		object.union(lib.seg(3, ["ls", "-la"]), {"context": ["function", "block"]}),
		object.union(lib.seg(4, ["f"]), {"function_call": true}),
	]
	not _asks(lib.shell("FOO=1; timeout 5 ls; f() { ls -la; }; f", segs), _mode("default", lib.cmds(["ls"])))
}

test_allowed_checks_inside_transparent_wrappers if {
	segs := [
		object.union(lib.seg(0, ["timeout", "5", "rm", "x"]), {"wrapper": true, "transparent": true}),
		object.union(lib.seg(1, ["rm", "x"]), {"parent": 0, "context": ["wrapper"], "via": "timeout"}),
	]
	_asks(lib.shell("timeout 5 rm x", segs), _mode("default", lib.cmds(["ls"])))
}

test_allowed_needs_opaque_wrappers_listed if {
	segs := [
		object.union(lib.seg(0, ["sudo", "rm", "x"]), {"wrapper": true}),
		object.union(lib.seg(1, ["rm", "x"]), {"parent": 0, "context": ["wrapper"], "via": "sudo"}),
	]
	_asks(lib.shell("sudo rm x", segs), _mode("default", lib.cmds(["rm"])))
}

# A command without segments (it did not parse) is not covered.
test_no_segments_not_covered if {
	call := object.union(lib.shell("echo \"x", []), {"shell": {"command": "echo \"x", "segments": [], "parse_error": {"line": 1, "col": 6, "message": "reached EOF without closing quote `\"`"}}})
	_asks(call, _mode("default", lib.cmds(["echo"])))
}

# auto-edit still asks for commands, as Qwen Code does, with tools.allowed.
test_auto_edit_asks_for_commands if {
	_ask(lib.run("ls"), _mode("auto-edit", lib.empty_list)) == {{
		"code": "approval_required",
		"message": "Approval mode 'auto-edit': the command is not covered by tools.allowed",
	}}
	not _asks(lib.run("ls"), _mode("auto-edit", lib.cmds(["ls"])))
}

test_yolo_asks_for_no_command if {
	not _asks(_ls_and_rm, _mode("yolo", lib.empty_list))
}

# --- file tools ------------------------------------------------------------------

test_default_mode_asks_for_edits if {
	_ask(lib.write_file("a.txt"), _default) == {{"code": "approval_required", "message": "Approval mode 'default': write_file changes files"}}
	_ask(lib.edit("a.txt"), _default) == {{"code": "approval_required", "message": "Approval mode 'default': edit changes files"}}
}

test_auto_edit_allows_edits if {
	not _asks(lib.write_file("a.txt"), _mode("auto-edit", lib.empty_list))
	not _asks(lib.edit("a.txt"), _mode("auto-edit", lib.empty_list))
}

test_yolo_allows_edits if {
	not _asks(lib.write_file("a.txt"), _mode("yolo", lib.empty_list))
}

# Tools that change nothing never ask.
test_reads_never_ask if {
	every mode in ["default", "auto-edit", "yolo"] {
		not _asks(lib.read_file("a.txt"), _mode(mode, lib.empty_list))
		not _asks(lib.call("glob", {"pattern": "*.go"}, [lib.file("x", "read", "path")]), _mode(mode, lib.empty_list))
	}
}

# --- whole decisions -------------------------------------------------------------

# yolo asks nothing the policy itself does not ask.
test_yolo_keeps_policy_asks if {
	d := gate.decision with input as lib.write_file(".github/workflows/ci.yml") with data.gate.settings as _mode("yolo", lib.empty_list)
	d.decision == "ask"
	lib.codes(d) == {"path_sensitive"}
}

test_default_mode_covered_command_allowed if {
	d := gate.decision with input as lib.run("git status && ls")
		with data.gate.settings as lib.settings("default", lib.cmds(["git", "ls"]), lib.empty_list, lib.cmds(["git status", "ls"]))
	d.decision == "allow"
}

# tools.allowed does not override tools.exclude.
test_allowed_does_not_lift_exclude if {
	d := gate.decision with input as lib.run("rm x")
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.cmds(["rm"]), lib.cmds(["rm"]))
	d.decision == "deny"
	lib.codes(d) == {"command_excluded"}
}
