# A team rule served to the whole fleet as a bundle: programs that reach
# the network need a review.
package gate.rules.team

ask contains {"code": "network", "message": sprintf("Command '%s' reaches the network: it needs a review", [concat(" ", seg.argv)]), "segment": seg.id} if {
	input.tool == "run_shell_command"
	some seg in input.shell.segments
	seg.program in {"curl", "wget"}
}
