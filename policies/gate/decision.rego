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

# No settings for this decision: every rule that reads them would be
# undefined, so the call is denied.
_deny contains {"code": "bad_settings", "message": sprintf("No settings under key '%s' on this decision point (data.gate.settings_by_key)", [_settings_key])} if {
	not settings
}

# METADATA
# title: settings
# description: |
#   The settings index this decision is made with (what the rules read as
#   data.gate.settings). Each gate keeps its settings under a key of their
#   own, a hash of the index, in data.gate.settings_by_key, and names it in
#   input.settings_key, so that gates with different settings can share one
#   OPA server. An input without a key uses data.gate.default_settings_key
#   (the embedded engine's own settings; a shared server has none).
settings := data.gate.settings_by_key[_settings_key]

_settings_key := input.settings_key

_settings_key := data.gate.default_settings_key if not input.settings_key

_settings_key := "" if {
	not input.settings_key
	not data.gate.default_settings_key
}

_ask contains reason if some reason in data.gate.rules[_].ask

_sorted(reasons) := [r | some r in reasons]
