# METADATA
# description: |
#   Builders for the tests of gate's default policies. Inputs are shaped like
#   `gate parse` output and settings like the "settings" of `gate parse --data`
#   (data.gate.settings), cut down to what a test needs. The workspace root is
#   /home/dev/proj and the home directory /home/dev.
package gate_test.lib

root := "/home/dev/proj"

home := "/home/dev"

# --- data.gate.settings ------------------------------------------------------

# An empty settings list (tools.core, tools.exclude or tools.allowed).
empty_list := list([], [])

# entry(argv) is a run_shell_command(<argv>) entry whose words starting with
# "-" are options (without values) and the others its path.
entry(argv) := entry_with(argv, [w | some w in argv; not startswith(w, "-")], [w | some w in argv; startswith(w, "-")])

# entry_with(argv, path, options) is an entry whose path and options are given
# as gate's parser reads them (option values dropped, aliases applied, sorted).
entry_with(argv, path, options) := {
	"entry": sprintf("run_shell_command(%s)", [concat(" ", argv)]),
	"key": concat(" ", argv),
	"path": path,
	"options": options,
}

# list(names, entries) indexes a settings list as engine/settings.go does:
# bare tool names (canonical) and run_shell_command entries.
list(names, entries) := {
	"count": count(names) + count(entries),
	"tools": object.union({n: true | some n in names}, {"run_shell_command": true | count(entries) > 0}),
	"with_args": {"run_shell_command": true | count(entries) > 0},
	"names": {n: true | some n in names},
	"args": {"run_shell_command": {e.key: [x.entry | some x in entries; x.key == e.key] | some e in entries} |
		count(entries) > 0
	},
	"paths": {"run_shell_command": {k: [{"entry": x.entry, "options": x.options} |
		some x in entries
		concat(" ", x.path) == k
	] |
		some e in entries
		k := concat(" ", e.path)
	} |
		count(entries) > 0
	},
	"prefixes": {"run_shell_command": {k: [x.entry | some x in entries; k in proper_prefixes(x.path)] |
		some e in entries
		some k in proper_prefixes(e.path)
	} |
		count(entries) > 0
	},
}

# names(["read_file", ...]) lists bare tool names.
names(tools) := list(tools, [])

# cmds(["git push", "rm"]) lists run_shell_command entries of plain words.
cmds(commands) := list([], [entry(split(c, " ")) | some c in commands])

# settings(mode, core, exclude, allowed) is data.gate.settings.
settings(mode, core, exclude, allowed) := {
	"approval_mode": mode,
	"core": core,
	"exclude": exclude,
	"allowed": allowed,
	"equivalents": equivalents,
	"protected": {},
	"secret": {},
}

yolo(core, exclude) := settings("yolo", core, exclude, empty_list)

# No settings at all, in yolo mode: nothing is restricted and nothing asks.
open := yolo(empty_list, empty_list)

# Part of data.gate.settings.equivalents as gate files data.gate.equivalents
# (by the equivalent's path key; options parsed, aliases applied).
equivalents := {
	"gh repo sync": [{"entry": "gh repo sync", "options": [], "target": "git push"}],
	"find": [{"entry": "find -delete", "options": ["-delete"], "target": "rm"}],
	"unlink": [{"entry": "unlink", "options": [], "target": "rm"}],
	"git checkout": [{"entry": "git checkout --force", "options": ["-f"], "target": "git reset"}],
}

# --- input -------------------------------------------------------------------

# prefixes(words) are the word-boundary prefixes of words, shortest first.
prefixes(words) := [concat(" ", array.slice(words, 0, i + 1)) | some i, _ in words]

proper_prefixes(words) := [p | some i, p in prefixes(words); i + 1 < count(words)]

# seg(id, argv) is a segment of a static simple command: words starting with
# "-" are options, the others its path.
seg(id, argv) := {
	"id": id,
	"parent": -1,
	"kind": "command",
	"program": argv[0],
	"raw_program": argv[0],
	"argv": argv,
	"dynamic": [],
	"options": [w | some w in argv; startswith(w, "-")],
	"path": _path(argv),
	"path_complete": true,
	"assigns": [],
	"redirects": [],
	"writes": [],
	"context": [],
	"background": false,
	"findings": [],
	"keys": prefixes(argv),
	"path_keys": prefixes(_path(argv)),
	"uncertain_keys": [],
}

_path(argv) := [w | some w in argv; not startswith(w, "-")]

# dyn(id, argv, i) is seg(id, argv) whose word i (i > 0) is only known at run
# time: keys and path stop before it, and the path is uncertain.
dyn(id, argv, i) := object.union(seg(id, argv), {
	"dynamic": [i],
	"options": [w | some w in array.slice(argv, 0, i); startswith(w, "-")],
	"path": _path(array.slice(argv, 0, i)),
	"path_complete": false,
	"keys": prefixes(array.slice(argv, 0, i)),
	"path_keys": prefixes(_path(array.slice(argv, 0, i))),
	"uncertain_keys": [concat(" ", _path(array.slice(argv, 0, i)))],
})

# finding(s, code) adds a parser finding to segment s.
finding(s, code) := object.union(s, {"findings": [{"code": code, "message": sprintf("%s finding", [code])}]})

# shell(command, segments) is a run_shell_command input.
shell(command, segments) := {
	"tool": "run_shell_command",
	"args": {"command": command},
	"root": root,
	"cwd": root,
	"home": home,
	"shell": {"command": command, "segments": segments},
	"paths": [],
}

# run("a b && c d") is the input of a list of simple static commands.
run(command) := shell(command, [object.union(seg(i, split(part, " ")), {"context": _and(command)}) |
	some i, part in split(command, " && ")
])

_and(command) := ["and"] if contains(command, " && ")

_and(command) := [] if not contains(command, " && ")

# with_paths(in, paths) sets the paths of an input.
with_paths(x, paths) := object.union(x, {"paths": paths})

# --- paths -------------------------------------------------------------------

# file(rel, access, source) is a path inside the root, given relative to it.
file(rel, access, source) := {
	"raw": rel,
	"path": concat("/", [root, rel]),
	"resolved": concat("/", [root, rel]),
	"inside_root": true,
	"rel": rel,
	"exists": false,
	"dir": false,
	"symlink": false,
	"git_ignored": false,
	"access": access,
	"source": source,
	"dynamic": false,
	"keys": path_keys(concat("/", [root, rel])),
}

# abs(p, access, source) is a path outside the root.
abs(p, access, source) := {
	"raw": p,
	"path": p,
	"resolved": p,
	"inside_root": false,
	"exists": false,
	"dir": false,
	"symlink": false,
	"git_ignored": false,
	"access": access,
	"source": source,
	"dynamic": false,
	"keys": path_keys(p),
}

# dynamic_write(raw) is a path written by a shell command that is only known
# at run time.
dynamic_write(raw) := {
	"raw": raw,
	"path": "",
	"resolved": "",
	"inside_root": false,
	"exists": false,
	"dir": false,
	"symlink": false,
	"git_ignored": false,
	"access": "write",
	"source": "redirect",
	"dynamic": true,
	"keys": [],
}

# in_segment(p, id) is path p of shell segment id.
in_segment(p, id) := object.union(p, {"segment": id})

# path_keys(p) are the lookup keys engine/input.go gives a file (not a
# directory) at absolute path p: its anchored prefixes, the same from the home
# directory, and inside the root every run of elements at any depth.
path_keys(p) := sort(union({_anchored("/", _elems(p)), _home_keys(p), _floating_keys(p)}))

_elems(p) := split(trim_prefix(p, "/"), "/")

_home_keys(p) := _anchored("~/", _elems(substring(p, count(home) + 1, -1))) if startswith(p, concat("", [home, "/"]))

_home_keys(p) := set() if not startswith(p, concat("", [home, "/"]))

_floating_keys(p) := _floating(_elems(substring(p, count(root) + 1, -1))) if startswith(p, concat("", [root, "/"]))

_floating_keys(p) := set() if not startswith(p, concat("", [root, "/"]))

_anchored(prefix, elems) := {_key(prefix, array.slice(elems, 0, i + 1), (i + 1) < count(elems)) | some i, _ in elems}

_floating(elems) := {_key("", array.slice(elems, i, j + 1), (j + 1) < count(elems)) |
	some i, _ in elems
	some j, _ in elems
	i <= j
}

_key(prefix, elems, true) := concat("", [prefix, concat("/", elems), "/"])

_key(prefix, elems, false) := concat("", [prefix, concat("/", elems)])

# --- file tool calls ---------------------------------------------------------

call(tool, args, paths) := {
	"tool": tool,
	"args": args,
	"root": root,
	"cwd": root,
	"home": home,
	"paths": paths,
}

write_file(rel) := object.union(call("write_file", {"file_path": rel, "content": "x"}, [file(rel, "write", "file_path")]), {"change": {
	"path": concat("/", [root, rel]),
	"rel": rel,
	"new": true,
	"old_size": 0,
	"new_size": 1,
	"diff": sprintf("--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n", [rel]),
}})

edit(rel) := call("edit", {"file_path": rel, "old_string": "x", "new_string": "y"}, [file(rel, "write", "file_path")])

read_file(rel) := call("read_file", {"absolute_path": concat("/", [root, rel])}, [file(rel, "read", "path")])

# --- decisions ---------------------------------------------------------------

# codes(d) are the reason codes of a decision.
codes(d) := {r.code | some r in d.reasons}

# reasons(set, code) are the reasons of a deny or ask set with this code.
reasons(rs, code) := [r | some r in rs; r.code == code]
