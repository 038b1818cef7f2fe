# METADATA
# title: paths
# description: |
#   One path policy for shell and file tools. Files written through shell
#   redirections or arguments, and every path a file tool touches, are checked
#   against protected paths (data.gate.paths.deny, denied even inside the root)
#   and paths that make code run later (data.gate.paths.ask). Secrets
#   (data.gate.paths.secret and gate's state directory) may not be read
#   either. File tools are confined to the root; a shell command writing
#   outside it asks.
package gate.rules.paths

# METADATA
# title: protected path
# custom:
#   code: path_protected
deny contains {
	"code": "path_protected",
	"message": sprintf("Writing %s is not allowed: %s", [p.raw, why]),
	"path": p.resolved,
} if {
	some p in input.paths
	p.access == "write"
	some key in p.keys
	why := data.gate.settings.protected[key]
}

# gate's own files (settings, policies) first; a key listed in both places
# gives one reason, not a conflict. (Two rules rather than a function: a
# function call costs more than the lookups it makes.)
deny contains {
	"code": "path_protected",
	"message": sprintf("Writing %s is not allowed: %s", [p.raw, why]),
	"path": p.resolved,
} if {
	some p in input.paths
	p.access == "write"
	some key in p.keys
	why := data.gate.paths.deny[key]
	not data.gate.settings.protected[key]
}

# METADATA
# title: secret path
# description: |
#   Reading or writing gate's state (its bearer token approves calls), by a
#   file tool or a shell command's arguments and redirections.
# custom:
#   code: path_protected
deny contains {
	"code": "path_protected",
	"message": sprintf("%s %s is not allowed: %s", [_verb[p.access], p.raw, why]),
	"path": p.resolved,
} if {
	some p in input.paths
	some key in p.keys
	why := data.gate.settings.secret[key]
}

# As above: the settings' reason first, one reason for a key in both.
deny contains {
	"code": "path_protected",
	"message": sprintf("%s %s is not allowed: %s", [_verb[p.access], p.raw, why]),
	"path": p.resolved,
} if {
	some p in input.paths
	some key in p.keys
	why := data.gate.paths.secret[key]
	not data.gate.settings.secret[key]
}

_verb := {"read": "Reading", "write": "Writing"}

# METADATA
# title: path that runs code later
# custom:
#   code: path_sensitive
ask contains {
	"code": "path_sensitive",
	"message": sprintf("Writing %s needs approval: %s", [p.raw, why]),
	"path": p.resolved,
} if {
	some p in input.paths
	p.access == "write"
	some key in p.keys
	why := data.gate.paths.ask[key]
}

# METADATA
# title: file tool outside the root
# custom:
#   code: path_outside_root
deny contains {
	"code": "path_outside_root",
	"message": sprintf("Path %s is outside the workspace root %s", [p.raw, input.root]),
	"path": p.resolved,
} if {
	some p in input.paths
	input.tool != "run_shell_command"
	not p.inside_root
}

# METADATA
# title: shell write outside the root
# custom:
#   code: path_outside_root
ask contains {
	"code": "path_outside_root",
	"message": sprintf("Command writes %s, outside the workspace root %s", [p.raw, input.root]),
	"path": p.resolved,
} if {
	some p in input.paths
	input.tool == "run_shell_command"
	p.access == "write"
	not p.dynamic
	not p.inside_root
	not _writable_outside(p)
}

# A device is written in place only: a program that puts a new file under
# its name (mv, install, sed -i) or changes its mode (chmod) changes it for
# every program (mv x /dev/null replaces /dev/null, and x is gone).
_writable_outside(p) if {
	not p.replaces
	some key in p.keys
	data.gate.paths.writable[key]
}

# Below the temporary directory ($TMPDIR, /tmp), which the fs layer lets
# the command write too (path facts: temp). Its protected and secret
# paths, hard links and symlinks leading elsewhere are judged as anywhere.
_writable_outside(p) if p.temp

# METADATA
# title: write to a path not known statically
# custom:
#   code: path_unknown
ask contains {
	"code": "path_unknown",
	"message": sprintf("Command writes to %s, which is only known at run time", [p.raw]),
} if {
	some p in input.paths
	p.access == "write"
	p.dynamic
}

# METADATA
# title: write through a hard link
# description: |
#   A file with more than one link has other names, which may be anywhere on
#   the same file system (.git/config, a file outside the root): writing it
#   in place, by a file tool or a shell command, writes there too, and where
#   that is is not known. The file tools also refuse at apply time.
# custom:
#   code: path_unknown
deny contains {
	"code": "path_unknown",
	"message": sprintf("Writing %s is not allowed: the file has %d hard links, and where its other names lead is not known", [p.raw, p.links]),
	"path": p.resolved,
} if {
	some p in input.paths
	p.access == "write"
	p.source != "removed"
	not p.dir
	p.links > 1
}
