# METADATA
# title: gate.exec
# description: |
#   gate's decision on one program a supervised command is about to run,
#   taken when the kernel has loaded it and before its first instruction.
#   The input is {"exec": {...}, "call": <the call's input>, "layers": [...]}:
#   exec.program (the script for a #! script, the program ld.so loads, or
#   the executed file), exec.exe, exec.argv, exec.cwd, exec.pid, exec.ppid,
#   exec.depth, exec.script, exec.parent_program, exec.by_shell (the
#   command's own shell runs it, directly or through wrappers), and what
#   gate reads from them: exec.name and exec.names (the program's names),
#   exec.identity, exec.words (name and the program's own arguments),
#   exec.options, exec.path, exec.keys and exec.path_keys (the lookup keys
#   of tools.core and tools.exclude entries), exec.transparent.
#   Rules live in packages under data.gate.exec.rules, each contributing
#   `deny` and `ask` sets of reasons; team rules go there too.
package gate.exec

# METADATA
# title: decision
# description: |
#   The decision on input.exec: {"decision": "deny"|"ask"|"allow", "reasons": [...]}.
#   Deny when any rule denies, ask when any rule asks, allow otherwise.
# entrypoint: true
decision := {"decision": "deny", "reasons": _sorted(_deny)} if {
	count(_deny) > 0
} else := {"decision": "ask", "reasons": _sorted(_ask)} if {
	count(_ask) > 0
} else := {"decision": "allow", "reasons": [{"code": "allowed", "message": "No rule denied or asked."}]}

_deny contains reason if some reason in data.gate.exec.rules[_].deny

# No settings for this decision: every rule that reads them would be
# undefined, so the program is denied.
_deny contains {"code": "bad_settings", "message": "No settings for this decision (data.gate.settings_by_key)"} if {
	not data.gate.settings
}

_ask contains reason if some reason in data.gate.exec.rules[_].ask

_sorted(reasons) := [r | some r in reasons]
