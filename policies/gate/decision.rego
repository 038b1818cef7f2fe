# METADATA
# title: gate
# description: |
#   gate's decision on one tool call. Rules live in packages under
#   data.gate.rules; each contributes `deny` and `ask` sets of reasons
#   ({code, message, ...}). Every package under gate.rules takes part,
#   gate's own and those loaded from --policy directories.
package gate

# METADATA
# title: decision
# description: |
#   The decision on input: {"decision": "deny"|"ask"|"allow", "reasons": [...]}.
#   Deny when any rule denies, ask when any rule asks, allow otherwise.
# entrypoint: true
decision := {"decision": "deny", "reasons": _sorted(_deny)} if {
	count(_deny) > 0
} else := {"decision": "ask", "reasons": _sorted(_ask)} if {
	count(_ask) > 0
} else := {"decision": "allow", "reasons": [{"code": "allowed", "message": "No rule denied or asked."}]}

_deny contains reason if some reason in data.gate.rules[_].deny

_ask contains reason if some reason in data.gate.rules[_].ask

_sorted(reasons) := [r | some r in reasons]
