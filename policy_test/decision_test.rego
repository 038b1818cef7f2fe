# data.gate.decision: deny when any rule denies, ask when any rule asks,
# allow otherwise; the reasons of the winning kind only.
package gate_test.decision

import data.gate
import data.gate_test.lib

test_allow_when_no_rule_objects if {
	d := gate.decision with input as lib.run("ls -la") with data.gate.settings as lib.open
	d == {"decision": "allow", "reasons": [{"code": "allowed", "message": "No rule denied or asked."}]}
}

test_ask_when_a_rule_asks if {
	d := gate.decision with input as lib.run("ls -la")
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.empty_list, lib.empty_list)
	d == {"decision": "ask", "reasons": [{
		"code": "approval_required",
		"message": "Approval mode 'default': the command is not covered by tools.allowed",
	}]}
}

# rm is excluded (deny) and default mode asks: the deny wins and its reasons
# alone are given.
test_deny_wins_over_ask if {
	d := gate.decision with input as lib.run("ls && rm x")
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.cmds(["rm"]), lib.empty_list)
	d.decision == "deny"
	d.reasons == [{
		"code": "command_excluded",
		"message": "Command 'rm x' is blocked by configuration",
		"segment": 1,
		"entry": "run_shell_command(rm)",
	}]
}

# Reasons of several rules are all given, sorted, each once.
test_every_deny_reason_is_given_sorted if {
	d := gate.decision with input as lib.run("rm x && curl y")
		with data.gate.settings as lib.yolo(lib.cmds(["git"]), lib.cmds(["rm"]))
	d.decision == "deny"
	lib.codes(d) == {"command_excluded", "command_not_allowed"}
	count(d.reasons) == 2
	d.reasons == sort(d.reasons)
}

# Asks of several rules are all given.
test_every_ask_reason_is_given if {
	call := lib.with_paths(lib.run("echo x"), [lib.in_segment(lib.file(".vscode/tasks.json", "write", "redirect"), 0)])
	d := gate.decision with input as call
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.empty_list, lib.empty_list)
	d.decision == "ask"
	lib.codes(d) == {"approval_required", "path_sensitive"}
}

# Every package under data.gate.rules takes part, not only gate's own.
test_user_rules_take_part if {
	d := gate.decision with input as lib.run("ls") with data.gate.settings as lib.open
		with data.gate.rules.extra.deny as {{"code": "extra", "message": "no"}}
	d == {"decision": "deny", "reasons": [{"code": "extra", "message": "no"}]}
}

test_user_asks_take_part if {
	d := gate.decision with input as lib.run("ls") with data.gate.settings as lib.open
		with data.gate.rules.extra.ask as {{"code": "extra", "message": "sure?"}}
	d == {"decision": "ask", "reasons": [{"code": "extra", "message": "sure?"}]}
}

# Rules outside data.gate.rules do not.
test_rules_elsewhere_do_not_take_part if {
	d := gate.decision with input as lib.run("ls") with data.gate.settings as lib.open
		with data.gate.extra.deny as {{"code": "extra", "message": "no"}}
	d.decision == "allow"
}

# An empty deny set is no deny.
test_empty_sets_allow if {
	d := gate.decision with input as lib.run("ls") with data.gate.settings as lib.open
		with data.gate.rules.extra.deny as set()
		with data.gate.rules.extra.ask as set()
	d.decision == "allow"
}
