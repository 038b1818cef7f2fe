# METADATA
# description: |
#   Builders for the tests of gate's default policies: inputs shaped like
#   `gate parse` output and settings shaped like `gate parse --data`.
package gate_test.lib

# An empty settings list (tools.core, tools.exclude or tools.allowed).
empty_list := {"count": 0, "tools": {}, "with_args": {}, "names": {}, "args": {}, "paths": {}, "prefixes": {}}

# settings(mode, core, exclude, allowed) is data.gate.settings.
settings(mode, core, exclude, allowed) := {
	"approval_mode": mode,
	"core": core,
	"exclude": exclude,
	"allowed": allowed,
	"equivalents": {},
	"protected": {},
}

yolo(core, exclude) := settings("yolo", core, exclude, empty_list)

# shell_list is a list of run_shell_command(<entry>) entries: entries maps
# each entry's words (its path) to its options.
shell_list(entries) := {
	"count": count(entries),
	"tools": {"run_shell_command": true},
	"with_args": {"run_shell_command": true},
	"names": {},
	"args": {"run_shell_command": {words: [sprintf("run_shell_command(%s)", [words])] | some words, _ in entries}},
	"paths": {"run_shell_command": {words: [{"entry": sprintf("run_shell_command(%s)", [words]), "options": options}] |
		some words, options in entries
	}},
	"prefixes": {"run_shell_command": {}},
}

# names_list lists bare tool names.
names_list(names) := {
	"count": count(names),
	"tools": {name: true | some name in names},
	"with_args": {},
	"names": {name: true | some name in names},
	"args": {},
	"paths": {},
	"prefixes": {},
}

# prefixes(words) are the word-boundary prefixes of a list of words.
prefixes(words) := [concat(" ", array.slice(words, 0, n)) | some n in numbers.range(1, count(words))]

# seg is a static segment running argv.
seg(id, argv) := {
	"id": id,
	"parent": -1,
	"kind": "command",
	"program": argv[0],
	"argv": argv,
	"dynamic": [],
	"options": [w | some w in argv; startswith(w, "-")],
	"path": [w | some w in argv; not startswith(w, "-")],
	"path_complete": true,
	"assigns": [],
	"redirects": [],
	"writes": [],
	"context": [],
	"background": false,
	"findings": [],
	"keys": prefixes(argv),
	"path_keys": prefixes([w | some w in argv; not startswith(w, "-")]),
	"uncertain_keys": [],
}

# shell is a run_shell_command input with these segments.
shell(segments) := {
	"tool": "run_shell_command",
	"args": {"command": concat(" ; ", [concat(" ", s.argv) | some s in segments])},
	"root": "/ws/proj",
	"cwd": "/ws/proj",
	"home": "/home/u",
	"shell": {"command": "", "segments": segments},
	"paths": [],
}

# file_call is a file tool call touching one path.
file_call(tool, path) := {
	"tool": tool,
	"args": {},
	"root": "/ws/proj",
	"cwd": "/ws/proj",
	"home": "/home/u",
	"paths": [path],
}

# path is a path inside the root, given relative to it.
path(rel, access) := {
	"raw": rel,
	"path": concat("/", ["/ws/proj", rel]),
	"resolved": concat("/", ["/ws/proj", rel]),
	"inside_root": true,
	"rel": rel,
	"exists": false,
	"dir": false,
	"symlink": false,
	"access": access,
	"source": "file_path",
	"dynamic": false,
	"keys": [rel],
}

# codes are the reason codes of a decision.
codes(d) := {r.code | some r in d.reasons}
