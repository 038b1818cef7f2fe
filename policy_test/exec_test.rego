# gate.exec: the exec-time decision on a program a supervised command runs.
# Exec inputs are built as gate builds them (engine.ExecFacts): the
# program's name, its words, options, path and lookup keys.
package gate_test.exec

import data.gate.exec
import data.gate_test.lib

# _exec(argv, by_shell) is input.exec for a program whose argv has no
# options taking values: keys and path keys are argv's prefixes.
_exec(argv, by_shell) := {
	"program": sprintf("/usr/bin/%s", [argv[0]]),
	"exe": sprintf("/usr/bin/%s", [argv[0]]),
	"argv": argv,
	"cwd": "/home/dev/proj",
	"pid": 100,
	"ppid": 99,
	"depth": 1,
	"script": "",
	"parent_program": "/usr/bin/bash",
	"by_shell": by_shell,
	"name": argv[0],
	"names": [argv[0]],
	"words": argv,
	"options": [w | some w in argv; startswith(w, "-")],
	"path": [w | some w in argv; not startswith(w, "-")],
	"keys": lib.prefixes(argv),
	"path_keys": lib.prefixes([w | some w in argv; not startswith(w, "-")]),
	"transparent": false,
}

_decide(x, settings) := d if {
	d := exec.decision with input as {"exec": x, "layers": ["static", "exec"]}
		with data.gate.settings as settings
}

_exclude(commands) := lib.yolo(lib.empty_list, lib.cmds(commands))

_core(commands) := lib.yolo(lib.cmds(commands), lib.empty_list)

test_excluded_program_is_denied_whoever_runs_it if {
	some by_shell in [true, false]
	d := _decide(_exec(["rm", "-rf", "build"], by_shell), _exclude(["rm"]))
	d.decision == "deny"
	d.reasons[0].code == "command_excluded"
	d.reasons[0].entry == "run_shell_command(rm)"
}

test_exclude_matches_words_and_options if {
	_decide(_exec(["git", "push", "origin"], false), _exclude(["git push"])).decision == "deny"
	_decide(_exec(["git", "status"], false), _exclude(["git push"])).decision == "allow"
	s := lib.yolo(lib.empty_list, lib.list([], [lib.entry_with(["rm", "-rf"], ["rm"], ["-f", "-r"])]))
	_decide(_exec(["rm", "-f", "-r", "x"], false), s).decision == "deny"
	_decide(_exec(["rm", "x"], false), s).decision == "allow"
}

test_allowlist_applies_to_what_the_shell_runs if {
	d := _decide(_exec(["curl", "x"], true), _core(["ls"]))
	d.decision == "deny"
	d.reasons[0].code == "command_not_allowed"
	_decide(_exec(["ls", "-la"], true), _core(["ls"])).decision == "allow"
}

# What an allowed program runs itself (a compiler under make) is judged by
# exclude entries only.
test_allowlist_leaves_programs_run_by_programs if {
	_decide(_exec(["cc", "-c", "x.c"], false), _core(["make"])).decision == "allow"
}

test_transparent_wrappers_need_no_entry if {
	x := object.union(_exec(["env", "ls"], true), {"transparent": true})
	_decide(x, _core(["ls"])).decision == "allow"
}

test_no_restriction_allows if {
	_decide(_exec(["rm", "-rf", "/"], true), lib.open).decision == "allow"
}

test_team_rules_add_reasons if {
	d := exec.decision with input as {"exec": _exec(["curl", "x"], false), "layers": ["static", "exec"]}
		with data.gate.settings as lib.open
		with data.gate.exec.rules.team.ask as {{"code": "network", "message": "network access"}}
	d.decision == "ask"
	d.reasons == [{"code": "network", "message": "network access"}]
}

# --- command_equivalent at exec time ---------------------------------------------

_decide_call(x, call, settings) := d if {
	d := exec.decision with input as {"exec": x, "call": call, "layers": ["static", "exec"]}
		with data.gate.settings as settings
}

# unlink under exclude rm asks whoever runs it (a make recipe here), as its
# segment asks in the static decision; find asks only with -delete.
test_equivalent_asks_at_exec if {
	d := _decide(_exec(["unlink", "victim.txt"], false), _exclude(["rm"]))
	d.decision == "ask"
	d.reasons == [{
		"code": "command_equivalent",
		"message": "Program 'unlink victim.txt' has the same effect as 'rm', which is blocked by configuration",
		"entry": "unlink",
	}]
	_decide(_exec(["find", ".", "-delete"], false), _exclude(["rm"])).decision == "ask"
	_decide(_exec(["find", ".", "-name", "x"], false), _exclude(["rm"])).decision == "allow"
	_decide(_exec(["unlink", "victim.txt"], false), _exclude(["git push"])).decision == "allow"
	_decide(_exec(["unlink", "victim.txt"], false), lib.open).decision == "allow"
}

# A dry run does not ask (data.gate.dry_run: git clean -n).
test_equivalent_dry_run_at_exec if {
	settings := object.union(_exclude(["rm"]), {"equivalents": {"git clean": [{"entry": "git clean", "options": [], "target": "rm"}]}})
	_decide(_exec(["git", "clean", "-n"], false), settings).decision == "allow"
	_decide(_exec(["git", "clean", "-f"], false), settings).decision == "ask"
}

# The segment the static decision asked about (and a human approved) does
# not ask again when it runs; another unlink the command runs does.
test_equivalent_asked_before_the_command_ran if {
	call := lib.shell("unlink a.txt", [lib.seg(0, ["unlink", "a.txt"])])
	_decide_call(_exec(["unlink", "a.txt"], true), call, _exclude(["rm"])).decision == "allow"
	_decide_call(_exec(["unlink", "victim.txt"], false), call, _exclude(["rm"])).decision == "ask"
	other := lib.shell("ls a.txt", [lib.seg(0, ["ls", "a.txt"])])
	_decide_call(_exec(["unlink", "a.txt"], false), other, _exclude(["rm"])).decision == "ask"
}
