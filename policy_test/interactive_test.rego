# Interactive shells and REPLs (gate.rules.shell `interactive`) and wrappers
# with nothing inside (`passes_through`). Segments are shaped as `gate parse`
# prints them: a shell reading the terminal is transparent but no wrapper, a
# shell given a script wraps it (inner segments, or a finding).
package gate_test.interactive

import data.gate
import data.gate.rules.approval
import data.gate.rules.shell
import data.gate_test.lib

# --- constructors ---------------------------------------------------------------

# A shell reading its commands from the terminal (bash, sh -i, zsh).
_tty_shell(id, argv) := object.union(lib.seg(id, argv), {"transparent": true})

# A transparent wrapper (env, nice, exec, bash -c) with or without inner segments.
_wrapper(id, argv) := object.union(lib.seg(id, argv), {"wrapper": true, "transparent": true})

# s run by the wrapper segment parent.
_inside(s, parent, via) := object.union(s, {"parent": parent, "context": ["wrapper"], "via": via})

_one(command, s) := lib.shell(command, [s])

# env X=1: env with an assignment and no command (the assignment is env's
# argument, not a segment).
_env_assign := _one("env X=1", object.union(_wrapper(0, ["env", "X=1"]), {"path": ["env", "X=1"]}))

_ls_in_env := lib.shell("env X=1 ls", [
	_wrapper(0, ["env", "X=1", "ls"]),
	_inside(lib.seg(1, ["ls"]), 0, "env"),
])

# Commands that read commands typed at run time.
_interactive := {
	"bash": _one("bash", _tty_shell(0, ["bash"])),
	"sh -i": _one("sh -i", _tty_shell(0, ["sh", "-i"])),
	"bash -s": _one("bash -s", _tty_shell(0, ["bash", "-s"])),
	"bash -": _one("bash -", _tty_shell(0, ["bash", "-"])),
	"zsh": _one("zsh", _tty_shell(0, ["zsh"])),
	"exec bash": lib.shell("exec bash", [_wrapper(0, ["exec", "bash"]), _inside(_tty_shell(1, ["bash"]), 0, "exec")]),
	"env bash": lib.shell("env bash", [_wrapper(0, ["env", "bash"]), _inside(_tty_shell(1, ["bash"]), 0, "env")]),
	"python3": _one("python3", lib.seg(0, ["python3"])),
	"python3 -": _one("python3 -", object.union(lib.seg(0, ["python3"]), {"argv": ["python3", "-"], "path": ["python3", "-"]})),
	"python3 -i x.py": _one("python3 -i x.py", lib.seg(0, ["python3", "-i", "x.py"])),
	"python3 -v": _one("python3 -v", lib.seg(0, ["python3", "-v"])),
	"python3 $X": _one("python3 $X", lib.dyn(0, ["python3", "$X"], 1)),
	"node": _one("node", lib.seg(0, ["node"])),
	"irb": _one("irb", lib.seg(0, ["irb"])),
	"sudo -s": _one("sudo -s", object.union(lib.seg(0, ["sudo", "-s"]), {"wrapper": true})),
	"su": _one("su", lib.seg(0, ["su"])),
	"chroot /srv": _one("chroot /srv", lib.seg(0, ["chroot", "/srv"])),
	# ruby -v exits only when given no program: ruby -v - reads stdin
	"ruby -v -": _one("ruby -v -", object.union(lib.seg(0, ["ruby", "-v"]), {"argv": ["ruby", "-v", "-"], "path": ["ruby", "-"]})),
	"ruby -w": _one("ruby -w", lib.seg(0, ["ruby", "-w"])),
	"lua -v -": _one("lua -v -", object.union(lib.seg(0, ["lua", "-v"]), {"argv": ["lua", "-v", "-"], "path": ["lua", "-"]})),
}

# Commands that run what gate sees, or nothing.
_not_interactive := {
	"bash -c ls": lib.shell("bash -c ls", [_wrapper(0, ["bash", "-c", "ls"]), _inside(lib.seg(1, ["ls"]), 0, "bash -c")]),
	"bash x.sh": lib.shell("bash x.sh", [_wrapper(0, ["bash", "x.sh"]), _inside(lib.seg(1, ["x.sh"]), 0, "bash")]),
	"bash --version": _one("bash --version", _tty_shell(0, ["bash", "--version"])),
	"echo ls | bash": _one("bash", lib.finding(_wrapper(0, ["bash"]), "stdin_script")),
	"python3 x.py": _one("python3 x.py", lib.seg(0, ["python3", "x.py"])),
	"python3 -m pytest": _one("python3 -m pytest", object.union(lib.seg(0, ["python3", "-m", "pytest"]), {"path": ["python3"]})),
	"python3 -c": _one("python3 -c 'print(1)'", lib.finding(lib.seg(0, ["python3", "-c", "print(1)"]), "inline_code")),
	"python3 -c proven": _one("python3 -c 'print(1)'", object.union(lib.seg(0, ["python3", "-c", "print(1)"]), {"proven_code": true})),
	"python3 - proven": _one("python3 - <<<'print(1)'", object.union(lib.seg(0, ["python3", "-"]), {"path": ["python3", "-"], "proven_code": true})),
	"node --version": _one("node --version", lib.seg(0, ["node", "--version"])),
	"python3 -V": _one("python3 -V", lib.seg(0, ["python3", "-V"])),
	"python -V": _one("python -V", lib.seg(0, ["python", "-V"])),
	"node -v": _one("node -v", lib.seg(0, ["node", "-v"])),
	"perl -v": _one("perl -v", lib.seg(0, ["perl", "-v"])),
	"perl -V": _one("perl -V", lib.seg(0, ["perl", "-V"])),
	"ruby -v": _one("ruby -v", lib.seg(0, ["ruby", "-v"])),
	"lua -v": _one("lua -v", lib.seg(0, ["lua", "-v"])),
	"luajit -v": _one("luajit -v", lib.seg(0, ["luajit", "-v"])),
	"sudo ls": lib.shell("sudo ls", [object.union(lib.seg(0, ["sudo", "ls"]), {"wrapper": true}), _inside(lib.seg(1, ["ls"]), 0, "sudo")]),
	"ls": lib.run("ls"),
	"env X=1": _env_assign,
}

_exclude_rm := lib.yolo(lib.empty_list, lib.cmds(["rm"]))

_core_ls := lib.yolo(lib.cmds(["ls"]), lib.empty_list)

_default := lib.settings("default", lib.empty_list, lib.empty_list, lib.empty_list)

_auto_edit := lib.settings("auto-edit", lib.empty_list, lib.empty_list, lib.empty_list)

_deny(call, settings) := rs if {
	rs := shell.deny with input as call with data.gate.settings as settings
}

_interactive_reasons(call, settings) := [r | some r in _deny(call, settings); r.finding == "interactive"]

_with_layers(call, layers) := object.union(call, {"layers": layers})

# --- the class ------------------------------------------------------------------

test_interactive_class if {
	every _, call in _interactive {
		some seg in call.shell.segments
		shell.interactive(seg) with input as call
	}
}

test_not_interactive_class if {
	every _, call in _not_interactive {
		every seg in call.shell.segments {
			not shell.interactive(seg) with input as call
		}
	}
}

# --- under restrictions ---------------------------------------------------------

test_interactive_unprovable_under_every_restriction if {
	every settings in [_exclude_rm, _core_ls, _default, _auto_edit] {
		every _, call in _interactive {
			count(_interactive_reasons(call, settings)) > 0
			gate.decision.decision == "deny" with input as call with data.gate.settings as settings
		}
	}
}

test_interactive_reason if {
	_interactive_reasons(_interactive.bash, _exclude_rm) == [{
		"code": "command_unprovable",
		"message": "Command 'bash' starts an interactive shell or REPL: what it runs cannot be checked, except in an interactive session under exec-time supervision",
		"segment": 0,
		"finding": "interactive",
	}]
}

# The inner bash of exec bash is the interactive one.
test_interactive_reason_names_the_segment if {
	[r.segment | some r in _interactive_reasons(_interactive["exec bash"], _exclude_rm)] == [1]
}

test_interactive_allowed_without_restriction if {
	every _, call in _interactive {
		gate.decision.decision == "allow" with input as call with data.gate.settings as lib.open
	}
}

# tools.allowed listing the shell does not make it provable in default mode.
test_interactive_not_approved_by_allowed if {
	settings := lib.settings("default", lib.empty_list, lib.empty_list, lib.cmds(["bash"]))
	gate.decision.decision == "deny" with input as _interactive.bash with data.gate.settings as settings
}

# A bare run_shell_command in tools.allowed approves every command: no guard.
test_interactive_with_every_command_approved if {
	settings := lib.settings("default", lib.empty_list, lib.empty_list, lib.names(["run_shell_command"]))
	_interactive_reasons(_interactive.bash, settings) == []
}

_session(call) := object.union(call, {"session": true})

test_exec_supervision_decides_typed_commands if {
	every _, call in _interactive {
		_interactive_reasons(_session(_with_layers(call, ["static", "exec"])), _exclude_rm) == []
	}
	count(_interactive_reasons(_session(_with_layers(_interactive.bash, ["static"])), _exclude_rm)) == 1
	count(_interactive_reasons(_session(_with_layers(_interactive.bash, [])), _exclude_rm)) == 1
}

# A shell run as a command, not typed into, stays unprovable under
# supervision: bash --rcfile rc -i runs what rc says.
test_exec_supervision_leaves_commands_unprovable if {
	count(_interactive_reasons(_with_layers(_interactive.bash, ["static", "exec"]), _exclude_rm)) == 1
}

test_not_interactive_not_denied_as_such if {
	every settings in [_exclude_rm, _core_ls, _default] {
		every _, call in _not_interactive {
			_interactive_reasons(call, settings) == []
		}
	}
}

# --- wrappers with nothing inside -------------------------------------------------

test_wrapper_with_nothing_inside_is_the_program if {
	not shell.passes_through(_env_assign.shell.segments[0]) with input as _env_assign
	shell.passes_through(_ls_in_env.shell.segments[0]) with input as _ls_in_env
}

test_empty_wrapper_needs_an_allowlist_entry if {
	d := gate.decision with input as _env_assign with data.gate.settings as _core_ls
	d.decision == "deny"
	"command_not_allowed" in lib.codes(d)
	e := gate.decision with input as _ls_in_env with data.gate.settings as _core_ls
	e.decision == "allow"
	gate.decision.decision == "allow" with input as _env_assign with data.gate.settings as lib.yolo(lib.cmds(["env"]), lib.empty_list)
}

test_empty_wrapper_needs_approval if {
	d := gate.decision with input as _env_assign with data.gate.settings as _default
	d.decision == "ask"
	lib.codes(d) == {"approval_required"}
	approved := lib.settings("default", lib.empty_list, lib.empty_list, lib.cmds(["env"]))
	count(approval.ask) == 0 with input as _env_assign with data.gate.settings as approved
}

test_empty_shell_needs_an_allowlist_entry if {
	d := gate.decision with input as _interactive.bash with data.gate.settings as _core_ls
	lib.codes(d) == {"command_not_allowed", "command_unprovable"}
}
