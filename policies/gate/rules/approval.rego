# METADATA
# title: approval
# description: |
#   Qwen Code's approval modes. In default mode a shell command that passes the
#   policy asks unless every segment is covered by tools.allowed (checked per
#   segment, unlike the reference), and write_file / edit ask. auto-edit allows
#   edits; yolo asks nothing the policy itself does not ask.
package gate.rules.approval

import data.gate.lib

_mode := lib.settings.approval_mode

# METADATA
# title: shell command needs approval
# custom:
#   code: approval_required
ask contains {
	"code": "approval_required",
	"message": "Approval mode 'default': the command is not covered by tools.allowed",
} if {
	_mode == "default"
	input.tool == "run_shell_command"
	not _allowed_command
}

# METADATA
# title: edit needs approval
# custom:
#   code: approval_required
ask contains {
	"code": "approval_required",
	"message": sprintf("Approval mode 'default': %s changes files", [input.tool]),
} if {
	_mode == "default"
	input.tool in lib.edit_tools
}

_allowed_command if lib.names_tool(lib.settings.allowed, "run_shell_command")

_allowed_command if {
	count(input.shell.segments) > 0
	every seg in input.shell.segments {
		_allowed_segment(seg)
		count(seg.findings) == 0
	}
}

_allowed_segment(seg) if not lib.judged(seg)

_allowed_segment(seg) if lib.listed(lib.settings.allowed, seg)
