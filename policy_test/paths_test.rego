# gate.rules.paths: one path policy for file tools and for files shell commands
# write (redirections and arguments), with the default data.gate.paths.
package gate_test.paths

import data.gate
import data.gate.rules.paths
import data.gate_test.lib

_deny(call) := rs if {
	rs := paths.deny with input as call with data.gate.settings as lib.open
}

_ask(call) := rs if {
	rs := paths.ask with input as call with data.gate.settings as lib.open
}

_codes(call) := {r.code | some r in (_deny(call) | _ask(call))}

# echo x > <p>: a shell command writing p through a redirection.
_redirect(p) := lib.with_paths(lib.run("echo x"), [lib.in_segment(p, 0)])

# --- path_protected --------------------------------------------------------------

test_protected_write_denied if {
	d := gate.decision with input as lib.write_file(".git/hooks/pre-commit") with data.gate.settings as lib.open
	d.decision == "deny"
	d.reasons == [{
		"code": "path_protected",
		"message": "Writing .git/hooks/pre-commit is not allowed: git hooks run code on git operations",
		"path": "/home/dev/proj/.git/hooks/pre-commit",
	}]
}

test_protected_edit_denied if {
	some r in _deny(lib.edit("sub/.git/config"))
	r.code == "path_protected"
	r.path == "/home/dev/proj/sub/.git/config"
}

test_protected_read_allowed if {
	_codes(lib.read_file(".git/config")) == set()
}

# Keys are whole path elements: .github/hooks/x is not under .git/hooks/.
test_protected_near_miss if {
	_codes(lib.write_file(".github/hooks/x")) == set()
	_codes(lib.write_file("docs/envrc")) == set()
}

test_protected_directory_at_any_depth if {
	some r in _deny(lib.write_file("packages/a/.qwen/settings.json"))
	r.code == "path_protected"
}

# The same rules for shell redirections ...
test_protected_redirect_denied if {
	some r in _deny(_redirect(lib.file(".git/config", "write", "redirect")))
	r == {
		"code": "path_protected",
		"message": "Writing .git/config is not allowed: git configuration can run commands (core.fsmonitor, aliases, hooksPath)",
		"path": "/home/dev/proj/.git/config",
	}
}

# ... and for files programs write through their arguments: tee .envrc.
test_protected_argument_denied if {
	s := object.union(lib.seg(0, ["tee", ".envrc"]), {"writes": [{"value": ".envrc", "dynamic": false}]})
	call := lib.with_paths(lib.shell("tee .envrc", [s]), [lib.in_segment(lib.file(".envrc", "write", "argument"), 0)])
	some r in _deny(call)
	r.code == "path_protected"
}

# Outside the root too: the home directory and absolute paths. The deny wins
# over the shell's ask for writing outside the root.
test_protected_home_file_denied if {
	# gate parse --command 'echo x >> ~/.bashrc'
	call := _redirect(lib.abs("/home/dev/.bashrc", "write", "redirect"))
	d := gate.decision with input as call with data.gate.settings as lib.open
	d.decision == "deny"
	lib.codes(d) == {"path_protected"}
	"path_outside_root" in {r.code | some r in _ask(call)}
}

test_protected_absolute_path_denied if {
	some r in _deny(_redirect(lib.abs("/etc/hosts", "write", "redirect")))
	r == {"code": "path_protected", "message": "Writing /etc/hosts is not allowed: system configuration", "path": "/etc/hosts"}
}

# gate's own settings and policy files, given by Go in data.gate.settings.
test_gate_settings_protected if {
	call := lib.write_file(".qwen-local/settings.json")
	settings := object.union(lib.open, {"protected": {"/home/dev/proj/.qwen-local/settings.json": "gate settings"}})
	rs := paths.deny with input as call with data.gate.settings as settings
	rs == {{
		"code": "path_protected",
		"message": "Writing .qwen-local/settings.json is not allowed: gate settings",
		"path": "/home/dev/proj/.qwen-local/settings.json",
	}}
	_deny(call) == set()
}

test_gate_policy_directory_protected if {
	settings := object.union(lib.open, {"protected": {"/home/dev/proj/policies/": "gate policies"}})
	rs := paths.deny with input as lib.write_file("policies/x.rego") with data.gate.settings as settings
	{r.code | some r in rs} == {"path_protected"}
	count(paths.deny) == 0 with input as lib.write_file("policies.txt") with data.gate.settings as settings
}

# --- path_sensitive --------------------------------------------------------------

test_sensitive_path_asks if {
	d := gate.decision with input as lib.write_file(".github/workflows/ci.yml") with data.gate.settings as lib.open
	d == {"decision": "ask", "reasons": [{
		"code": "path_sensitive",
		"message": "Writing .github/workflows/ci.yml needs approval: CI workflows run on the next push",
		"path": "/home/dev/proj/.github/workflows/ci.yml",
	}]}
}

test_sensitive_redirect_asks if {
	_codes(_redirect(lib.file(".vscode/tasks.json", "write", "redirect"))) == {"path_sensitive"}
}

# Inside .git/, hooks are protected and other files ask.
test_git_directory_asks if {
	_codes(lib.write_file(".git/HEAD")) == {"path_sensitive"}
}

test_sensitive_near_miss if {
	_codes(lib.write_file(".github/README.md")) == set()
	_codes(lib.read_file(".github/workflows/ci.yml")) == set()
}

# --- path_outside_root: file tools -----------------------------------------------

test_file_tool_outside_root_denied if {
	# gate parse --call: {"tool": "read_file", "args": {"absolute_path": "/etc/passwd"}}
	call := lib.call("read_file", {"absolute_path": "/etc/passwd"}, [lib.abs("/etc/passwd", "read", "path")])
	_deny(call) == {{
		"code": "path_outside_root",
		"message": "Path /etc/passwd is outside the workspace root /home/dev/proj",
		"path": "/etc/passwd",
	}}
}

# gate parse --call: {"tool": "glob", "args": {"pattern": "../../*.txt"}}:
# the search directory is the root, the pattern leaves it.
test_glob_pattern_outside_root_denied if {
	root := object.union(lib.abs(lib.root, "read", "path"), {"raw": ".", "inside_root": true, "rel": ".", "dir": true})
	up := object.union(lib.abs("/home", "read", "pattern"), {"raw": "../..", "dir": true})
	some r in _deny(lib.call("glob", {"pattern": "../../*.txt"}, [root, up]))
	r.code == "path_outside_root"
	r.path == "/home"
}

test_file_tool_inside_root_allowed if {
	_codes(lib.read_file("src/a.go")) == set()
	_codes(lib.write_file("src/a.go")) == set()
}

# Paths a shell command may write outside the root are no exception for file
# tools: they stay confined to the root.
test_file_tool_writable_path_still_outside if {
	call := lib.call("write_file", {"file_path": "/dev/null", "content": "x"}, [lib.abs("/dev/null", "write", "file_path")])
	"path_outside_root" in {r.code | some r in _deny(call)}
}

# --- path_outside_root: shell writes ---------------------------------------------

test_shell_write_outside_root_asks if {
	call := _redirect(lib.abs("/tmp/out.txt", "write", "redirect"))
	_ask(call) == {{
		"code": "path_outside_root",
		"message": "Command writes /tmp/out.txt, outside the workspace root /home/dev/proj",
		"path": "/tmp/out.txt",
	}}
	_deny(call) == set()
}

# Below the temporary directory (path facts: temp), as the fs layer allows:
# also a new file under the name (mv, sed -i). The directory itself, and a
# file tool, are no exception.
test_shell_writes_below_temp_dir if {
	every replaces in [false, true] {
		p := object.union(lib.abs("/tmp/out.txt", "write", "redirect"), {"temp": true, "replaces": replaces})
		_codes(_redirect(p)) == set()
	}
	_codes(_redirect(lib.abs("/tmp", "write", "redirect"))) == {"path_outside_root"}
	call := lib.call("write_file", {"file_path": "/tmp/x", "content": "x"}, [object.union(lib.abs("/tmp/x", "write", "file_path"), {"temp": true})])
	"path_outside_root" in {r.code | some r in _deny(call)}
}

# A protected or secret path below the temporary directory is judged as
# anywhere: temp only lifts the ask for leaving the root.
test_shell_temp_dir_protected_path_still_denied if {
	p := object.union(lib.abs("/tmp/x/.git/hooks/pre-commit", "write", "redirect"), {"temp": true, "keys": [".git/hooks/", ".git/hooks/pre-commit"]})
	"path_protected" in _codes(_redirect(p))
}

test_shell_writes_to_writable_paths if {
	every p in ["/dev/null", "/dev/stderr", "/dev/fd/3"] {
		_codes(_redirect(lib.abs(p, "write", "redirect"))) == set()
	}
}

# mv x /dev/null, sed -i, chmod: a new file under the device's name, or a
# new mode, is not a write into the device.
test_shell_replacing_a_writable_path if {
	every p in ["/dev/null", "/dev/stderr"] {
		_codes(_redirect(object.union(lib.abs(p, "write", "argument"), {"replaces": true}))) == {"path_outside_root"}
	}
}

# /dev/nullx is not /dev/null.
test_shell_writable_near_miss if {
	_codes(_redirect(lib.abs("/dev/nullx", "write", "redirect"))) == {"path_outside_root"}
}

test_shell_write_inside_root if {
	_codes(_redirect(lib.file("out.txt", "write", "redirect"))) == set()
}

# --- path_unknown ----------------------------------------------------------------

# gate parse --command 'echo hi > "$F"'
test_dynamic_write_asks if {
	call := _redirect(lib.dynamic_write("\"$F\""))
	_ask(call) == {{"code": "path_unknown", "message": "Command writes to \"$F\", which is only known at run time"}}
	_deny(call) == set()
}

# gate parse --command 'cd $D && echo x > f': f is relative to an unknown
# directory.
test_write_after_unknown_cd_asks if {
	segs := [
		object.union(lib.dyn(0, ["cd", "$D"], 1), {"context": ["and"]}),
		object.union(lib.seg(1, ["echo", "x"]), {"context": ["and"], "chdir_unknown": true}),
	]
	call := lib.with_paths(lib.shell("cd $D && echo x > f", segs), [lib.in_segment(lib.dynamic_write("f"), 1)])
	_codes(call) == {"path_unknown"}
}

test_static_write_is_known if {
	not "path_unknown" in _codes(_redirect(lib.abs("/tmp/out.txt", "write", "redirect")))
}

# Only writes are checked: a shell command reading outside the root, or from a
# path known only at run time, asks nothing here.
test_shell_reads_not_checked if {
	_codes(_redirect(lib.abs("/tmp/in.txt", "read", "redirect"))) == set()
	_codes(_redirect(object.union(lib.dynamic_write("$F"), {"access": "read"}))) == set()
}

# A key that is both a default protected path and one of gate's own files
# gives one reason, not a conflict.
test_protected_twice_is_not_a_conflict if {
	settings := object.union(lib.open, {"protected": {".git/config": "gate settings"}})
	d := gate.decision with input as lib.write_file(".git/config") with data.gate.settings as settings
	d.decision == "deny"
	[r] := d.reasons
	r.code == "path_protected"
	contains(r.message, "gate settings")
}

# --- secrets: gate's state, neither read nor written ---------------------------

_token := "/home/dev/.local/state/gate/token"

_state_reason(verb, raw) := {
	"code": "path_protected",
	"message": sprintf("%s %s is not allowed: gate's state holds the server's bearer token, which approves calls", [verb, raw]),
	"path": _token,
}

# gate parse --call: read_file of the token.
test_secret_read_file_denied if {
	call := lib.call("read_file", {"absolute_path": _token}, [lib.abs(_token, "read", "path")])
	d := gate.decision with input as call with data.gate.settings as lib.open
	d.decision == "deny"
	_state_reason("Reading", _token) in d.reasons
}

# cat ~/.local/state/gate/token: a shell argument gate resolved as a read.
test_secret_shell_argument_denied if {
	call := lib.with_paths(lib.run("cat ~/.local/state/gate/token"), [lib.in_segment(lib.abs(_token, "read", "argument"), 0)])
	_state_reason("Reading", _token) in _deny(call)
}

# echo x > ~/.local/state/gate/token: writes are denied too.
test_secret_write_denied if {
	_state_reason("Writing", _token) in _deny(_redirect(lib.abs(_token, "write", "redirect")))
}

# list_directory and grep_search of the directory itself (a directory's keys
# end in "/").
test_secret_directory_denied if {
	dir := "/home/dev/.local/state/gate"
	p := object.union(lib.abs(dir, "read", "path"), {"dir": true, "keys": ["/home/", "/home/dev/", "/home/dev/.local/", "/home/dev/.local/state/", "/home/dev/.local/state/gate", "/home/dev/.local/state/gate/", "~/.local/", "~/.local/state/", "~/.local/state/gate", "~/.local/state/gate/"]})
	every tool in ["list_directory", "grep_search", "glob"] {
		some r in _deny(lib.call(tool, {"path": dir}, [p]))
		r.code == "path_protected"
		startswith(r.message, "Reading /home/dev/.local/state/gate is not allowed")
	}
}

# Where XDG_STATE_HOME puts it, gate names it in data.gate.settings.secret.
test_secret_from_settings if {
	s := object.union(lib.open, {"secret": {"/srv/state/gate/": "gate's state", "/srv/state/gate": "gate's state"}})
	p := lib.abs("/srv/state/gate/token", "read", "argument")
	some r in paths.deny with input as lib.with_paths(lib.run("cat /srv/state/gate/token"), [lib.in_segment(p, 0)]) with data.gate.settings as s
	r.message == "Reading /srv/state/gate/token is not allowed: gate's state"
}

# Whole elements only, and other state is not gate's (outside the root,
# file tools are denied path_outside_root, but not path_protected).
test_secret_near_miss_allowed if {
	every f in ["/home/dev/.local/state/gatex/token", "/home/dev/.local/state/other/token"] {
		_codes(lib.call("read_file", {"absolute_path": f}, [lib.abs(f, "read", "path")])) == {"path_outside_root"}
		_codes(lib.with_paths(lib.run("cat x"), [lib.in_segment(lib.abs(f, "read", "argument"), 0)])) == set()
	}
}

# Reading other protected paths stays allowed (only writes plant code).
test_secret_only_secrets_read_protected if {
	_codes(lib.read_file(".git/hooks/pre-commit")) == set()
}

# --- hard links ---------------------------------------------------------------

# _linked(rel, n) is rel existing with n links.
_linked(rel, n, access, source) := object.union(lib.file(rel, access, source), {"exists": true, "links": n})

test_edit_hard_link_denied if {
	call := lib.with_paths(lib.edit("cfg.txt"), [_linked("cfg.txt", 2, "write", "file_path")])
	d := gate.decision with input as call with data.gate.settings as lib.open
	d.decision == "deny"
	d.reasons == [{
		"code": "path_unknown",
		"message": "Writing cfg.txt is not allowed: the file has 2 hard links, and where its other names lead is not known",
		"path": "/home/dev/proj/cfg.txt",
	}]
}

test_write_file_hard_link_denied if {
	some r in _deny(lib.with_paths(lib.write_file("a.txt"), [_linked("a.txt", 3, "write", "file_path")]))
	r.code == "path_unknown"
}

test_redirect_hard_link_denied if {
	some r in _deny(_redirect(_linked("cfg.txt", 2, "write", "redirect")))
	r.code == "path_unknown"
}

# One link, a new file, a read of a linked file and a directory stay allowed.
test_hard_link_benign if {
	_codes(lib.with_paths(lib.edit("a.txt"), [_linked("a.txt", 1, "write", "file_path")])) == set()
	_codes(lib.write_file("new.txt")) == set()
	_codes(lib.with_paths(lib.read_file("cfg.txt"), [_linked("cfg.txt", 2, "read", "path")])) == set()
	_codes(_redirect(object.union(_linked("d", 4, "write", "redirect"), {"dir": true}))) == set()
}

# ln -s /etc a && echo x > a/passwd: the engine marks a write through a name
# the same command links or moves as dynamic; it asks path_unknown like any
# write only known at run time, even under yolo, and never counts as inside
# the root.
test_write_after_relink_asks if {
	segs := [
		object.union(lib.seg(0, ["ln", "-s", "/etc", "a"]), {"context": ["and"], "relinks": true}),
		object.union(lib.seg(1, ["echo", "x"]), {"context": ["and"]}),
	]
	call := lib.with_paths(lib.shell("ln -s /etc a && echo x > a/passwd", segs), [
		lib.in_segment(lib.file("a", "write", "argument"), 0),
		lib.in_segment(lib.dynamic_write("a/passwd"), 1),
	])
	_codes(call) == {"path_unknown"}
	d := gate.decision with input as call with data.gate.settings as lib.open
	d.decision == "ask"
}
