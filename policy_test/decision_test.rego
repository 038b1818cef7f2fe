package gate_test.decision

import data.gate
import data.gate_test.lib

test_allow_when_no_rule_objects if {
	d := gate.decision with input as lib.shell([lib.seg(0, ["ls", "-la"])])
		with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
	d.decision == "allow"
	lib.codes(d) == {"allowed"}
}

test_deny_wins_over_ask if {
	d := gate.decision with input as lib.shell([lib.seg(0, ["rm", "x"])])
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.shell_list({"rm": []}), lib.empty_list)
	d.decision == "deny"
	lib.codes(d) == {"command_excluded"}
}

test_ask_when_only_asked if {
	d := gate.decision with input as lib.shell([lib.seg(0, ["ls"])])
		with data.gate.settings as lib.settings("default", lib.empty_list, lib.empty_list, lib.empty_list)
	d.decision == "ask"
	lib.codes(d) == {"approval_required"}
}

test_user_rules_take_part if {
	d := gate.decision with input as lib.shell([lib.seg(0, ["ls"])])
		with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
		with data.gate.rules.extra.deny as {{"code": "extra", "message": "no"}}
	d.decision == "deny"
	lib.codes(d) == {"extra"}
}
