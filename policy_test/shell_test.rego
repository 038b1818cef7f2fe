# gate.rules.shell: Qwen Code's tools.core / tools.exclude semantics for
# run_shell_command, applied to every segment of the parsed command.
package gate_test.shell

import data.gate
import data.gate.rules.shell
import data.gate_test.lib

_exclude(commands) := lib.yolo(lib.empty_list, lib.cmds(commands))

_core(commands) := lib.yolo(lib.cmds(commands), lib.empty_list)

# exclude run_shell_command(rm -rf): path rm, options -f and -r.
_rm_rf := lib.yolo(lib.empty_list, lib.list([], [lib.entry_with(["rm", "-rf"], ["rm"], ["-f", "-r"])]))

_deny(call, settings) := rs if {
	rs := shell.deny with input as call with data.gate.settings as settings
}

_ask(call, settings) := rs if {
	rs := shell.ask with input as call with data.gate.settings as settings
}

_deny_codes(call, settings) := {r.code | some r in _deny(call, settings)}

_ask_codes(call, settings) := {r.code | some r in _ask(call, settings)}

# $X push: the command name is only known at run time.
_dynamic_program := object.union(lib.seg(0, ["$X", "push"]), {
	"program": "",
	"raw_program": "$X",
	"dynamic": [0],
	"path": [],
	"path_complete": false,
	"keys": [],
	"path_keys": [],
	"findings": [{"code": "dynamic_program", "message": "the command name $X is not known statically"}],
})

# --- wildcard, allowlist, excluding, restricted ----------------------------------

test_bare_shell_in_core_is_a_wildcard if {
	settings := lib.yolo(lib.list(["run_shell_command"], [lib.entry(["git"])]), lib.empty_list)
	shell.wildcard with data.gate.settings as settings
	not shell.allowlist with data.gate.settings as settings
	not shell.restricted with data.gate.settings as settings
	_deny(lib.run("curl x && rm -rf y"), settings) == set()
}

test_core_entries_make_an_allowlist if {
	settings := _core(["git"])
	shell.allowlist with data.gate.settings as settings
	shell.restricted with data.gate.settings as settings
	not shell.wildcard with data.gate.settings as settings
	not shell.excluding with data.gate.settings as settings
}

test_core_names_only_make_no_allowlist if {
	settings := lib.yolo(lib.names(["read_file"]), lib.empty_list)
	not shell.allowlist with data.gate.settings as settings
	not shell.restricted with data.gate.settings as settings
}

test_exclude_entries_restrict if {
	settings := _exclude(["rm"])
	shell.excluding with data.gate.settings as settings
	shell.restricted with data.gate.settings as settings
	not shell.allowlist with data.gate.settings as settings
}

test_bare_exclude_is_not_excluding if {
	not shell.excluding with data.gate.settings as lib.yolo(lib.empty_list, lib.names(["run_shell_command"]))
}

test_no_settings_no_restriction if {
	not shell.restricted with data.gate.settings as lib.open
	not shell.wildcard with data.gate.settings as lib.open
	_deny(lib.run("curl x && rm -rf y"), lib.open) == set()
}

# A wildcard core does not lift the restriction exclude entries make.
test_wildcard_with_exclude_entries_is_restricted if {
	settings := lib.yolo(lib.names(["run_shell_command"]), lib.cmds(["rm"]))
	shell.restricted with data.gate.settings as settings
	_deny_codes(lib.run("rm x"), settings) == {"command_excluded"}
	_deny_codes(lib.shell("$X push", [_dynamic_program]), settings) == {"command_unprovable"}
}

# --- parse_error -----------------------------------------------------------------

# gate parse --command 'echo "x': no segments, the error's position.
_unclosed := object.union(lib.shell("echo \"x", []), {"shell": {
	"command": "echo \"x",
	"segments": [],
	"parse_error": {"line": 1, "col": 6, "message": "reached EOF without closing quote `\"`"},
}})

# Fail closed: a command that cannot be parsed is denied even when nothing
# restricts the shell.
test_parse_error_denied_without_restriction if {
	d := gate.decision with input as _unclosed with data.gate.settings as lib.open
	d == {"decision": "deny", "reasons": [{
		"code": "parse_error",
		"message": "Command cannot be parsed, so it cannot be checked: 1:6: reached EOF without closing quote `\"`",
	}]}
}

test_parse_error_denied_under_wildcard if {
	_deny_codes(_unclosed, lib.yolo(lib.names(["run_shell_command"]), lib.empty_list)) == {"parse_error"}
}

test_parse_error_without_position if {
	call := json.patch(_unclosed, [{"op": "replace", "path": "/shell/parse_error", "value": {"line": 0, "col": 0, "message": "cannot read the command"}}])
	_deny(call, lib.open) == {{"code": "parse_error", "message": "Command cannot be parsed, so it cannot be checked: cannot read the command"}}
}

test_no_parse_error_no_deny if {
	_deny(lib.run("echo x"), lib.open) == set()
}

test_parse_error_only_for_the_shell if {
	call := object.union(lib.read_file("a.txt"), {"shell": _unclosed.shell})
	_deny(call, lib.open) == set()
}

# --- command_excluded ------------------------------------------------------------

test_excluded_segment_denied if {
	_deny(lib.run("ls && rm x"), _exclude(["rm"])) == {{
		"code": "command_excluded",
		"message": "Command 'rm x' is blocked by configuration",
		"segment": 1,
		"entry": "run_shell_command(rm)",
	}}
}

# Entries match whole words: rm does not match rmdir.
test_exclude_word_boundary if {
	_deny(lib.run("rmdir x"), _exclude(["rm"])) == set()
}

test_exclude_subcommand_prefix if {
	_deny_codes(lib.run("git push origin main"), _exclude(["git push"])) == {"command_excluded"}
	_deny(lib.run("git pull"), _exclude(["git push"])) == set()
	_deny(lib.run("git push-all"), _exclude(["git push"])) == set()
	_deny(lib.run("git"), _exclude(["git push"])) == set()
}

# gate parse --command 'git -C x push': global options and their values are
# not in the path, so the entry still matches.
test_exclude_matches_the_path_not_the_text if {
	s := object.union(lib.seg(0, ["git", "-C", "x", "push"]), {
		"options": ["-C"],
		"path": ["git", "push"],
		"keys": ["git", "git -C", "git -C x", "git -C x push"],
		"path_keys": ["git", "git push"],
	})
	_deny_codes(lib.shell("git -C x push", [s]), _exclude(["git push"])) == {"command_excluded"}
}

# An entry with options matches when all of them are present, in any order
# and spelling (the parser splits clusters and applies aliases).
test_exclude_entry_options_all_present if {
	s := object.union(lib.seg(0, ["rm", "--force", "-R", "x"]), {"options": ["-f", "-r"]})
	_deny_codes(lib.shell("rm --force -R x", [s]), _rm_rf) == {"command_excluded"}
}

test_exclude_entry_options_missing if {
	s := object.union(lib.seg(0, ["rm", "-r", "x"]), {"options": ["-r"]})
	_deny(lib.shell("rm -r x", [s]), _rm_rf) == set()
}

# gate parse --command 'sshpass -p x ssh h rm v': sshpass is not in the
# catalogue, so each operand that could be a command name starts a command
# it may run; one an exclude entry matches is unprovable, whatever the
# entry's options.
test_unknown_program_naming_an_excluded_command if {
	s := object.union(lib.seg(0, ["sshpass", "-p", "x", "ssh", "h", "rm", "v"]), {
		"maybe_runs": [["x", "ssh", "h", "rm", "v"], ["ssh", "h", "rm", "v"], ["h", "rm", "v"], ["rm", "v"], ["v"]],
		"maybe_keys": ["x", "x ssh", "x ssh h", "ssh", "ssh h", "ssh h rm", "h", "h rm", "h rm v", "rm", "rm v", "v"],
	})
	_deny(lib.shell("sshpass -p x ssh h rm v", [s]), _exclude(["rm"])) == {{
		"code": "command_unprovable",
		"message": "Command 'sshpass -p x ssh h rm v' cannot be checked: gate does not know what sshpass runs, and its arguments or input name run_shell_command(rm), which is blocked by configuration",
		"segment": 0,
		"entry": "run_shell_command(rm)",
		"finding": "unknown_wrapper",
	}}
	_deny_codes(lib.shell("sshpass -p x ssh h rm v", [s]), _rm_rf) == {"command_unprovable"}
	_deny(lib.shell("sshpass -p x ssh h rm v", [s]), _exclude(["git push"])) == set()
}

# Every segment is checked: pipelines, lists, commands run by wrappers and
# function bodies.
test_exclude_checks_every_segment if {
	_deny_codes(lib.run("ls && echo x && rm x"), _exclude(["rm"])) == {"command_excluded"}
}

test_exclude_checks_wrapped_commands if {
	# gate parse --command 'sudo rm x'
	segs := [
		object.union(lib.seg(0, ["sudo", "rm", "x"]), {"wrapper": true}),
		object.union(lib.seg(1, ["rm", "x"]), {"parent": 0, "context": ["wrapper"], "via": "sudo"}),
	]
	some r in _deny(lib.shell("sudo rm x", segs), _exclude(["rm"]))
	r.code == "command_excluded"
	r.segment == 1
}

test_exclude_checks_function_bodies if {
	# gate parse --command 'f() { rm x; }; f'
	segs := [
		object.union(lib.seg(0, ["rm", "x"]), {"context": ["function", "block"]}),
		object.union(lib.seg(1, ["f"]), {"function_call": true}),
	]
	_deny_codes(lib.shell("f() { rm x; }; f", segs), _exclude(["rm"])) == {"command_excluded"}
}

# Exclude is checked first and wins over core.
test_exclude_wins_over_core if {
	settings := lib.yolo(lib.cmds(["git"]), lib.cmds(["git push"]))
	_deny_codes(lib.run("git push origin"), settings) == {"command_excluded"}
	_deny(lib.run("git status"), settings) == set()
}

# --- command_unprovable: the known part of a path is a prefix of an entry ---------

test_dynamic_subcommand_may_be_excluded if {
	_deny(lib.shell("git $X", [lib.dyn(0, ["git", "$X"], 1)]), _exclude(["git push"])) == {{
		"code": "command_unprovable",
		"message": "Command 'git $X' cannot be proven not to run run_shell_command(git push), which is blocked by configuration: part of it is only known at run time",
		"segment": 0,
		"entry": "run_shell_command(git push)",
	}}
}

test_dynamic_word_after_another_subcommand if {
	_deny(lib.shell("git status $X", [lib.dyn(0, ["git", "status", "$X"], 2)]), _exclude(["git push"])) == set()
}

test_dynamic_word_of_another_program if {
	_deny(lib.shell("git $X", [lib.dyn(0, ["git", "$X"], 1)]), _exclude(["rm"])) == set()
}

# A path that already matches the entry is excluded, not merely unprovable.
test_dynamic_word_after_an_excluded_path if {
	_deny_codes(lib.shell("git push $X", [lib.dyn(0, ["git", "push", "$X"], 2)]), _exclude(["git push"])) == {"command_excluded"}
}

# --- command_unprovable: options may come from dynamic words ----------------------

# gate parse --command 'rm $X x'
test_dynamic_word_may_supply_options if {
	some r in _deny(lib.shell("rm $X x", [lib.dyn(0, ["rm", "$X", "x"], 1)]), _rm_rf)
	r == {
		"code": "command_unprovable",
		"message": "Command 'rm $X x' cannot be proven not to run run_shell_command(rm -rf), which is blocked by configuration: part of it is only known at run time",
		"segment": 0,
		"entry": "run_shell_command(rm -rf)",
	}
}

test_missing_options_without_dynamic_words if {
	_deny(lib.run("rm x"), _rm_rf) == set()
}

test_options_present_before_a_dynamic_word if {
	s := object.union(lib.dyn(0, ["rm", "-rf", "$X"], 2), {"options": ["-f", "-r"]})
	_deny_codes(lib.shell("rm -rf $X", [s]), _rm_rf) == {"command_excluded"}
}

test_dynamic_word_of_a_path_not_excluded if {
	_deny(lib.shell("ls $X", [lib.dyn(0, ["ls", "$X"], 1)]), _rm_rf) == set()
}

# --- command_not_allowed ---------------------------------------------------------

test_allowlist_denies_unlisted_segment if {
	_deny(lib.run("git status && curl x"), _core(["git"])) == {{
		"code": "command_not_allowed",
		"message": "Command(s) not in the allowed commands list. Disallowed commands: \"curl x\"",
	}}
}

test_allowlist_names_every_unlisted_segment if {
	some r in _deny(lib.run("curl x && git status && wget y"), _core(["git"]))
	r.code == "command_not_allowed"
	contains(r.message, "\"curl x\"")
	contains(r.message, "\"wget y\"")
	not contains(r.message, "git status")
}

# python3 -m pytest: the module's segment (via "python3 -m pytest") is the
# listed interpreter's; a module of an unlisted interpreter is not listed.
test_allowlist_module_of_a_listed_interpreter if {
	outer := lib.seg(0, ["python3", "-m", "pytest", "-q"])
	inner := object.union(lib.seg(1, ["pytest", "-q"]), {"parent": 0, "via": "python3 -m pytest", "context": ["wrapper"]})
	call := lib.shell("python3 -m pytest -q", [outer, inner])
	_deny(call, _core(["python3 -m pytest"])) == set()
	_deny(call, _core(["python3"])) == set()
	count(_deny(call, _core(["pytest"]))) == 1
	other := object.union(lib.seg(1, ["pip", "install", "x"]), {"parent": 0, "via": "python3 -m pip", "context": ["wrapper"]})
	count(_deny(lib.shell("python3 -m pip install x", [lib.seg(0, ["python3", "-m", "pip", "install", "x"]), other]), _core(["python3 -m pytest"]))) == 1
}

test_allowlist_every_segment_listed if {
	_deny(lib.run("git status && ls -la"), _core(["git", "ls"])) == set()
}

# Entries are word-boundary prefixes of argv: git lists git and git status,
# not gitk.
test_allowlist_word_boundary if {
	_deny(lib.run("git"), _core(["git"])) == set()
	_deny_codes(lib.run("gitk"), _core(["git"])) == {"command_not_allowed"}
}

test_allowlist_multiword_entry if {
	_deny(lib.run("git status --short"), _core(["git status"])) == set()
	_deny_codes(lib.run("git push"), _core(["git status"])) == {"command_not_allowed"}
}

# As in Qwen Code, allowlist entries are prefixes of the words as written:
# git -C x status does not start with git status.
test_allowlist_matches_argv_not_path if {
	s := object.union(lib.seg(0, ["git", "-C", "x", "status"]), {"options": ["-C"], "path": ["git", "status"], "path_keys": ["git", "git status"]})
	_deny_codes(lib.shell("git -C x status", [s]), _core(["git status"])) == {"command_not_allowed"}
}

# Assignments, transparent wrappers (their inner command is checked) and calls
# of functions defined in the command (their bodies are checked) need no entry.
test_allowlist_skips_assignments_transparent_wrappers_and_functions if {
	segs := [
		object.union(lib.seg(0, ["FOO=1"]), {"kind": "assignment", "program": "", "raw_program": "", "argv": [], "path": [], "path_complete": false, "keys": [], "path_keys": []}),
		object.union(lib.seg(1, ["timeout", "5", "ls"]), {"wrapper": true, "transparent": true}),
		object.union(lib.seg(2, ["ls"]), {"parent": 1, "context": ["wrapper"], "via": "timeout"}),
		object.union(lib.seg(3, ["ls", "-la"]), {"context": ["function", "block"]}),
		object.union(lib.seg(4, ["f"]), {"function_call": true}),
	]
	_deny(lib.shell("FOO=1; timeout 5 ls; f() { ls -la; }; f", segs), _core(["ls"])) == set()
}

test_allowlist_checks_inside_transparent_wrappers if {
	segs := [
		object.union(lib.seg(0, ["timeout", "5", "rm", "x"]), {"wrapper": true, "transparent": true}),
		object.union(lib.seg(1, ["rm", "x"]), {"parent": 0, "context": ["wrapper"], "via": "timeout"}),
	]
	_deny(lib.shell("timeout 5 rm x", segs), _core(["ls"])) == {{
		"code": "command_not_allowed",
		"message": "Command(s) not in the allowed commands list. Disallowed commands: \"rm x\"",
	}}
}

# A wrapper that is not transparent needs an entry of its own.
test_allowlist_needs_opaque_wrappers_listed if {
	segs := [
		object.union(lib.seg(0, ["sudo", "ls"]), {"wrapper": true}),
		object.union(lib.seg(1, ["ls"]), {"parent": 0, "context": ["wrapper"], "via": "sudo"}),
	]
	_deny(lib.shell("sudo ls", segs), _core(["ls"])) == {{
		"code": "command_not_allowed",
		"message": "Command(s) not in the allowed commands list. Disallowed commands: \"sudo ls\"",
	}}
}

# gate parse --command '[[ -f x ]]': a test clause is checked like a command.
test_allowlist_checks_test_clauses if {
	s := object.union(lib.seg(0, ["[[", "-f x", "]]"]), {"kind": "test", "options": [], "path": ["[["], "path_keys": ["[["]})
	_deny_codes(lib.shell("[[ -f x ]]", [s]), _core(["ls"])) == {"command_not_allowed"}
}

test_allowlist_denies_dynamic_programs if {
	_deny_codes(lib.shell("$X push", [_dynamic_program]), _core(["git"])) == {"command_not_allowed", "command_unprovable"}
}

test_no_allowlist_for_other_tools if {
	_deny(lib.read_file("a.txt"), _core(["git"])) == set()
}

# --- command_unprovable: parser findings under a restriction ----------------------

test_finding_denied_under_exclude if {
	_deny(lib.shell("$X push", [_dynamic_program]), _exclude(["rm"])) == {{
		"code": "command_unprovable",
		"message": "Command '$X push' cannot be checked: the command name $X is not known statically",
		"segment": 0,
		"finding": "dynamic_program",
	}}
}

test_finding_denied_under_allowlist if {
	s := lib.finding(lib.seg(0, ["python", "-c", "print(1)"]), "inline_code")
	_deny_codes(lib.shell("python -c 'print(1)'", [s]), _core(["python"])) == {"command_unprovable"}
}

# Unprovable segments are only denied when a restriction applies.
test_finding_allowed_without_restriction if {
	_deny(lib.shell("$X push", [_dynamic_program]), lib.open) == set()
	_deny(lib.shell("$X push", [_dynamic_program]), lib.yolo(lib.names(["run_shell_command"]), lib.empty_list)) == set()
}

test_every_deny_finding_denied if {
	every code, action in data.gate.findings {
		denies := action == "deny"
		_finding_denied(code) == denies
	}
}

_finding_denied(code) := "command_unprovable" in _deny_codes(lib.shell("ls", [lib.finding(lib.seg(0, ["ls"]), code)]), _exclude(["rm"]))

# Fail closed: a finding data.gate.findings does not classify denies.
test_unknown_finding_denied if {
	some r in _deny(lib.shell("ls", [lib.finding(lib.seg(0, ["ls"]), "brand_new_finding")]), _exclude(["rm"]))
	r.code == "command_unprovable"
	r.finding == "brand_new_finding"
}

# --- command_review: findings that ask -------------------------------------------

# gate parse --command 'git config core.pager less'
_git_config := object.union(lib.seg(0, ["git", "config", "core.pager", "less"]), {"findings": [{
	"code": "git_config_plants",
	"message": "git config sets core.pager, which makes git run code later",
}]})

test_finding_that_asks if {
	call := lib.shell("git config core.pager less", [_git_config])
	_ask(call, _exclude(["rm"])) == {{
		"code": "command_review",
		"message": "Command 'git config core.pager less' needs review: git config sets core.pager, which makes git run code later",
		"segment": 0,
		"finding": "git_config_plants",
	}}
	_deny(call, _exclude(["rm"])) == set()
}

test_finding_that_asks_without_restriction if {
	_ask(lib.shell("git config core.pager less", [_git_config]), lib.open) == set()
}

test_every_ask_finding_asks if {
	every code, action in data.gate.findings {
		asks := action == "ask"
		_finding_asks(code) == asks
	}
}

_finding_asks(code) := "command_review" in _ask_codes(lib.shell("ls", [lib.finding(lib.seg(0, ["ls"]), code)]), _exclude(["rm"]))

test_review_follows_the_findings_data if {
	call := lib.shell("$X push", [_dynamic_program])
	codes := _ask_codes(call, _exclude(["rm"])) with data.gate.findings as {"dynamic_program": "ask"}
	codes == {"command_review"}
	_deny(call, _exclude(["rm"])) == set() with data.gate.findings as {"dynamic_program": "ask"}
}

# The settings' gate.findings override data.gate.findings, both ways.
test_review_follows_the_settings_findings if {
	call := lib.shell("$X push", [_dynamic_program])
	asking := object.union(_exclude(["rm"]), {"findings": {"dynamic_program": "ask"}})
	_ask_codes(call, asking) == {"command_review"}
	_deny(call, asking) == set()
	denying := object.union(_exclude(["rm"]), {"findings": {"dynamic_program": "deny"}})
	_ask_codes(call, denying) == set() with data.gate.findings as {"dynamic_program": "ask"}
	count(_deny(call, denying)) == 1 with data.gate.findings as {"dynamic_program": "ask"}
}

# --- command_equivalent ----------------------------------------------------------

# git writing the work tree from a tree the command made (git_own_tree, an
# "effect" finding) is rm's effect: it asks where rm is excluded, and is no
# reason to deny or ask otherwise.
test_git_own_tree_asks_where_rm_is_excluded if {
	call := lib.shell("git switch d", [lib.finding(lib.seg(0, ["git", "switch", "d"]), "git_own_tree")])
	_ask_codes(call, _exclude(["rm"])) == {"command_equivalent"}
	_deny(call, _exclude(["rm"])) == set()
	_ask(call, _exclude(["git push"])) == set()
	_deny(call, _exclude(["git push"])) == set()
}

test_equivalent_command_asks if {
	d := gate.decision with input as lib.run("gh repo sync") with data.gate.settings as _exclude(["git push"])
	d == {"decision": "ask", "reasons": [{
		"code": "command_equivalent",
		"message": "Command 'gh repo sync' has the same effect as 'git push', which is blocked by configuration",
		"segment": 0,
		"entry": "gh repo sync",
	}]}
}

test_equivalent_only_when_target_excluded if {
	_ask(lib.run("gh repo sync"), _exclude(["rm"])) == set()
	_ask(lib.run("gh repo sync"), lib.open) == set()
}

# Excluding git covers git push, so its equivalents ask too.
test_equivalent_of_a_broader_exclude if {
	_ask_codes(lib.run("gh repo sync"), _exclude(["git"])) == {"command_equivalent"}
	_ask(lib.run("gh repo sync"), _exclude(["gitk"])) == set()
}

# find -delete is equivalent to rm; find without -delete is not.
test_equivalent_needs_its_options if {
	_ask_codes(lib.run("find . -delete"), _exclude(["rm"])) == {"command_equivalent"}
	_ask(lib.run("find . -name x"), _exclude(["rm"])) == set()
}

# git clean -n only lists what it would remove; with -e its value may be the
# -n (git clean -f -e -n removes files), so it asks.
test_equivalent_dry_run if {
	eq := {"git clean": [{"entry": "git clean", "options": [], "target": "rm"}]}
	settings := object.union(_exclude(["rm"]), {"equivalents": eq})
	_ask(lib.run("git clean -n -d"), settings) == set()
	_ask(lib.run("git clean --dry-run"), settings) == set()
	_ask_codes(lib.run("git clean -f -d"), settings) == {"command_equivalent"}
	_ask_codes(lib.run("git clean -f -e -n"), settings) == {"command_equivalent"}
	s := object.union(lib.seg(0, ["git", "clean", "-f", "--exclude=-n"]), {"options": ["--exclude", "-f"]})
	_ask_codes(lib.shell("git clean -f --exclude=-n", [s]), settings) == {"command_equivalent"}
}

# gate parse --command 'git checkout --force main': --force is read as -f.
test_equivalent_with_aliased_option if {
	s := object.union(lib.seg(0, ["git", "checkout", "--force", "main"]), {"options": ["-f"]})
	_ask_codes(lib.shell("git checkout --force main", [s]), _exclude(["git reset"])) == {"command_equivalent"}
	_ask(lib.run("git checkout main"), _exclude(["git reset"])) == set()
}

# Checked in every segment.
test_equivalent_in_any_segment if {
	some r in _ask(lib.run("ls && unlink x"), _exclude(["rm"]))
	r.code == "command_equivalent"
	r.segment == 1
}

# An equivalent that is itself excluded is denied.
test_excluded_equivalent_denied if {
	d := gate.decision with input as lib.run("unlink x") with data.gate.settings as _exclude(["rm", "unlink"])
	d.decision == "deny"
	lib.codes(d) == {"command_excluded"}
}

# gate parse --command 'uv run unlink x': after a subcommand wrapper's
# subcommand, an operand naming an equivalent of an excluded command may be
# what it runs; before it (docker rm NAME) the parser gives no maybe_keys.
test_subcommand_wrapper_may_run_an_equivalent if {
	s := object.union(lib.seg(0, ["uv", "run", "unlink", "x"]), {
		"maybe_runs": [["unlink", "x"], ["x"]],
		"maybe_keys": ["unlink", "unlink x", "x"],
	})
	_ask_codes(lib.shell("uv run unlink x", [s]), _exclude(["rm"])) == {"command_equivalent"}
	_ask(lib.shell("uv run unlink x", [s]), _exclude(["git push"])) == set()
	u := object.union(lib.seg(0, ["etcdctl", "del", "unlink"]), {
		"maybe_runs": [["del", "unlink"], ["unlink"]],
		"maybe_keys": ["del", "del unlink", "unlink"],
	})
	_ask(lib.shell("etcdctl del unlink", [u]), _exclude(["rm"])) == set()
}
