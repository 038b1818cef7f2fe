# METADATA
# title: equivalents at exec time
# description: |
#   A program with the same effect as an excluded command
#   (data.gate.equivalents: unlink, shred or find -delete under exclude rm,
#   git send-pack under exclude git push) asks when it really runs, whoever
#   runs it (a make recipe, an npm script, a Python script), as its segment
#   asks in the static decision. A dry run (git clean -n) does not ask. The
#   call's own segment with the same words and options already asked before
#   the command started, so its exec does not ask again.
package gate.exec.rules.equivalents

import data.gate.rules.shell
import data.gate.settings

# METADATA
# title: same effect as an excluded command
# custom:
#   code: command_equivalent
ask contains {
	"code": "command_equivalent",
	"message": sprintf(
		"Program '%s' has the same effect as '%s', which is blocked by configuration",
		[concat(" ", input.exec.words), equivalent.target],
	),
	"entry": equivalent.entry,
} if {
	some key in input.exec.path_keys
	some equivalent in settings.equivalents[key]
	shell.excluded_or_broader(equivalent.target)
	every option in equivalent.options {
		option in input.exec.options
	}
	not shell.dry_run(input.exec)
	not _asked_before(equivalent)
}

# The call's static decision asked about a segment that runs these words:
# the command runs because that ask was answered.
_asked_before(equivalent) if {
	some seg in input.call.shell.segments
	array.slice(seg.argv, 1, count(seg.argv)) == array.slice(input.exec.words, 1, count(input.exec.words))
	some key in seg.path_keys
	some other in settings.equivalents[key]
	other.entry == equivalent.entry
}
