package gate_test.approval

import data.gate.rules.approval
import data.gate_test.lib

_mode(mode, allowed) := lib.settings(mode, lib.empty_list, lib.empty_list, allowed)

_ls_and_rm := lib.shell([lib.seg(0, ["ls", "-la"]), lib.seg(1, ["rm", "x"])])

test_default_mode_asks if {
	some r in approval.ask with input as lib.shell([lib.seg(0, ["ls"])]) with data.gate.settings as _mode("default", lib.empty_list)
	r.code == "approval_required"
}

test_allowed_covers_every_segment if {
	count(approval.ask) == 0 with input as _ls_and_rm
		with data.gate.settings as _mode("default", lib.shell_list({"ls": [], "rm": []}))
}

test_allowed_checked_per_segment if {
	# ls is allowed, rm is not: the whole command asks
	some r in approval.ask with input as _ls_and_rm
		with data.gate.settings as _mode("default", lib.shell_list({"ls": []}))
	r.code == "approval_required"
}

test_allowed_entry_is_a_word_prefix if {
	some r in approval.ask with input as lib.shell([lib.seg(0, ["lsof"])])
		with data.gate.settings as _mode("default", lib.shell_list({"ls": []}))
	r.code == "approval_required"
}

test_segment_with_finding_asks if {
	s := object.union(lib.seg(0, ["ls"]), {"findings": [{"code": "inline_code", "message": "x"}]})
	some r in approval.ask with input as lib.shell([s])
		with data.gate.settings as _mode("default", lib.shell_list({"ls": []}))
	r.code == "approval_required"
}

test_bare_shell_in_allowed if {
	allowed := object.union(lib.empty_list, {"names": {"run_shell_command": true}})
	count(approval.ask) == 0 with input as _ls_and_rm with data.gate.settings as _mode("default", allowed)
}

test_yolo_asks_nothing if {
	count(approval.ask) == 0 with input as _ls_and_rm with data.gate.settings as _mode("yolo", lib.empty_list)
	count(approval.ask) == 0 with input as lib.file_call("write_file", lib.path("a", "write"))
		with data.gate.settings as _mode("yolo", lib.empty_list)
}

test_default_mode_edits_ask if {
	some r in approval.ask with input as lib.file_call("edit", lib.path("a", "write"))
		with data.gate.settings as _mode("default", lib.empty_list)
	r.code == "approval_required"
}

test_auto_edit_allows_edits if {
	count(approval.ask) == 0 with input as lib.file_call("write_file", lib.path("a", "write"))
		with data.gate.settings as _mode("auto-edit", lib.empty_list)
}

test_reads_never_ask if {
	count(approval.ask) == 0 with input as lib.file_call("read_file", lib.path("a", "read"))
		with data.gate.settings as _mode("default", lib.empty_list)
}

test_auto_edit_still_asks_for_commands if {
	some r in approval.ask with input as lib.shell([lib.seg(0, ["ls"])]) with data.gate.settings as _mode("auto-edit", lib.empty_list)
	r.message == "Approval mode 'auto-edit': the command is not covered by tools.allowed"
}
