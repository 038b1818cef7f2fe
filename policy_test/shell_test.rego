package gate_test.shell

import data.gate.rules.shell
import data.gate_test.lib

_exclude(entries) := lib.yolo(lib.empty_list, lib.shell_list(entries))

_core(entries) := lib.yolo(lib.shell_list(entries), lib.empty_list)

test_excluded_segment_denied if {
	some r in shell.deny with input as lib.shell([lib.seg(0, ["ls"]), lib.seg(1, ["rm", "x"])])
		with data.gate.settings as _exclude({"rm": []})
	r.code == "command_excluded"
	r.segment == 1
	r.message == "Command 'rm x' is blocked by configuration"
}

test_word_boundary if {
	count(shell.deny) == 0 with input as lib.shell([lib.seg(0, ["rmdir", "x"])])
		with data.gate.settings as _exclude({"rm": []})
}

test_subcommand_entry if {
	some r in shell.deny with input as lib.shell([lib.seg(0, ["git", "push", "origin"])])
		with data.gate.settings as _exclude({"git push": []})
	r.code == "command_excluded"
}

test_other_subcommand_passes if {
	count(shell.deny) == 0 with input as lib.shell([lib.seg(0, ["git", "pull"])])
		with data.gate.settings as _exclude({"git push": []})
}

test_entry_options_must_all_be_present if {
	# rm -rf x has options -r and -f in either order
	s := json.patch(lib.seg(0, ["rm", "-fr", "x"]), [{"op": "replace", "path": "/options", "value": ["-f", "-r"]}])
	some r in shell.deny with input as lib.shell([s])
		with data.gate.settings as _exclude({"rm": ["-f", "-r"]})
	r.code == "command_excluded"
}

test_entry_options_missing if {
	s := json.patch(lib.seg(0, ["rm", "-f", "x"]), [{"op": "replace", "path": "/options", "value": ["-f"]}])
	count(shell.deny) == 0 with input as lib.shell([s])
		with data.gate.settings as _exclude({"rm": ["-f", "-r"]})
}

test_uncertain_prefix_denied if {
	# git $x: the dynamic word may be push
	s := object.union(lib.seg(0, ["git", "$x"]), {"dynamic": [1], "path": ["git"], "path_complete": false, "uncertain_keys": ["git"]})
	some r in shell.deny with input as lib.shell([s])
		with data.gate.settings as lib.yolo(lib.empty_list, object.union(lib.shell_list({"git push": []}), {"prefixes": {"run_shell_command": {"git": ["run_shell_command(git push)"]}}}))
	r.code == "command_unprovable"
	r.entry == "run_shell_command(git push)"
}

test_dynamic_word_may_supply_options if {
	s := object.union(lib.seg(0, ["rm", "$opts", "x"]), {"dynamic": [1], "options": []})
	some r in shell.deny with input as lib.shell([s])
		with data.gate.settings as _exclude({"rm": ["-f", "-r"]})
	r.code == "command_unprovable"
}

test_static_options_missing_no_dynamic if {
	count(shell.deny) == 0 with input as lib.shell([lib.seg(0, ["rm", "x"])])
		with data.gate.settings as _exclude({"rm": ["-f", "-r"]})
}

test_allowlist_denies_unlisted_segment if {
	some r in shell.deny with input as lib.shell([lib.seg(0, ["git", "status"]), lib.seg(1, ["curl", "x"])])
		with data.gate.settings as _core({"git": []})
	r.code == "command_not_allowed"
	contains(r.message, "\"curl x\"")
	not contains(r.message, "git status")
}

test_allowlist_every_segment_listed if {
	count(shell.deny) == 0 with input as lib.shell([lib.seg(0, ["git", "status"]), lib.seg(1, ["ls"])])
		with data.gate.settings as _core({"git": [], "ls": []})
}

test_allowlist_skips_assignments_transparent_and_functions if {
	segs := [
		object.union(lib.seg(0, ["x=1"]), {"kind": "assignment"}),
		object.union(lib.seg(1, ["nice", "ls"]), {"transparent": true}),
		object.union(lib.seg(2, ["f"]), {"function_call": true}),
		lib.seg(3, ["ls"]),
	]
	count(shell.deny) == 0 with input as lib.shell(segs) with data.gate.settings as _core({"ls": []})
}

test_wildcard_core_is_no_allowlist if {
	settings := lib.yolo(object.union(lib.shell_list({}), {"names": {"run_shell_command": true}}), lib.empty_list)
	count(shell.deny) == 0 with input as lib.shell([lib.seg(0, ["anything"])]) with data.gate.settings as settings
}

test_parse_error_denied if {
	i := json.patch(lib.shell([]), [{"op": "add", "path": "/shell/parse_error", "value": {"line": 1, "col": 6, "message": "reached EOF without closing quote '"}}])
	some r in shell.deny with input as i with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
	r.code == "parse_error"
	contains(r.message, "1:6:")
}

_dynamic_program := object.union(lib.seg(0, ["$x"]), {
	"program": "", "dynamic": [0],
	"findings": [{"code": "dynamic_program", "message": "the program name is only known at run time"}],
})

test_finding_denied_under_restriction if {
	some r in shell.deny with input as lib.shell([_dynamic_program]) with data.gate.settings as _exclude({"rm": []})
	r.code == "command_unprovable"
	r.finding == "dynamic_program"
}

test_finding_allowed_without_restriction if {
	count(shell.deny) == 0 with input as lib.shell([_dynamic_program])
		with data.gate.settings as lib.yolo(lib.empty_list, lib.empty_list)
}

test_finding_that_asks if {
	some r in shell.ask with input as lib.shell([_dynamic_program])
		with data.gate.settings as _exclude({"rm": []})
		with data.gate.findings as {"dynamic_program": "ask"}
	r.code == "command_review"
	count(shell.deny) == 0 with input as lib.shell([_dynamic_program])
		with data.gate.settings as _exclude({"rm": []})
		with data.gate.findings as {"dynamic_program": "ask"}
}

test_equivalent_command_asks if {
	s := json.patch(lib.seg(0, ["find", ".", "-delete"]), [{"op": "replace", "path": "/options", "value": ["-delete"]}])
	settings := object.union(_exclude({"rm": []}), {"equivalents": {"find": [{"entry": "find -delete", "options": ["-delete"], "target": "rm"}]}})
	some r in shell.ask with input as lib.shell([s]) with data.gate.settings as settings
	r.code == "command_equivalent"
}

test_equivalent_needs_its_options if {
	settings := object.union(_exclude({"rm": []}), {"equivalents": {"find": [{"entry": "find -delete", "options": ["-delete"], "target": "rm"}]}})
	count(shell.ask) == 0 with input as lib.shell([lib.seg(0, ["find", ".", "-name", "x"])]) with data.gate.settings as settings
}

test_equivalent_only_when_target_excluded if {
	s := json.patch(lib.seg(0, ["find", ".", "-delete"]), [{"op": "replace", "path": "/options", "value": ["-delete"]}])
	settings := object.union(_exclude({"git push": []}), {"equivalents": {"find": [{"entry": "find -delete", "options": ["-delete"], "target": "rm"}]}})
	count(shell.ask) == 0 with input as lib.shell([s]) with data.gate.settings as settings
}
