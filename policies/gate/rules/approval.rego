# METADATA
# title: approval
# description: |
#   Qwen Code's approval modes. In default mode a shell command that passes the
#   policy asks unless every segment is covered by tools.allowed (checked per
#   segment, unlike the reference), and write_file / edit ask. auto-edit allows
#   edits but still asks for shell commands, as Qwen Code does; yolo asks
#   nothing the policy itself does not ask.
package gate.rules.approval

import data.gate.rules.shell

# METADATA
# title: shell command needs approval
# custom:
#   code: approval_required
ask contains {
	"code": "approval_required",
	"message": sprintf("Approval mode '%s': the command is not covered by tools.allowed", [data.gate.settings.approval_mode]),
} if {
	asks_for_commands
	input.tool == "run_shell_command"
	not _covered
}

# METADATA
# description: |
#   The approval mode asks before shell commands (default, auto-edit) and a
#   bare run_shell_command in tools.allowed does not approve them all.
asks_for_commands if {
	data.gate.settings.approval_mode in {"default", "auto-edit"}
	not data.gate.settings.allowed.names.run_shell_command
}

# METADATA
# title: edit needs approval
# custom:
#   code: approval_required
ask contains {
	"code": "approval_required",
	"message": sprintf("Approval mode 'default': %s changes files", [input.tool]),
} if {
	data.gate.settings.approval_mode == "default"
	input.tool in {"write_file", "edit"}
}

# Every segment is covered by tools.allowed, and none has a finding.
_covered if {
	count(input.shell.segments) > 0
	every seg in input.shell.segments {
		count(seg.findings) == 0
		_allowed[seg.id]
	}
}

# Segments that need no approval. A complete rule, computed once.
_allowed := {seg.id |
	some seg in input.shell.segments
	_allowed_segment(seg)
}

_allowed_segment(seg) if seg.kind == "assignment"

_allowed_segment(seg) if shell.passes_through(seg)

_allowed_segment(seg) if seg.function_call

_allowed_segment(seg) if {
	some key in seg.keys
	data.gate.settings.allowed.args.run_shell_command[key]
}
