package gate_test.paths

import data.gate.rules.paths
import data.gate_test.lib

_settings := lib.yolo(lib.empty_list, lib.empty_list)

_outside := object.union(lib.path("x", "write"), {
	"raw": "../x", "path": "/ws/x", "resolved": "/ws/x", "inside_root": false, "keys": ["/ws/x"],
})

_redirect(p) := json.patch(lib.shell([lib.seg(0, ["echo", "x"])]), [{"op": "replace", "path": "/paths", "value": [p]}])

test_protected_write_denied if {
	some r in paths.deny with input as lib.file_call("write_file", lib.path(".git/config", "write"))
		with data.gate.settings as _settings
		with data.gate.paths.deny as {".git/config": "git configuration can run code"}
	r.code == "path_protected"
	r.path == "/ws/proj/.git/config"
}

test_protected_read_allowed if {
	count(paths.deny) == 0 with input as lib.file_call("read_file", lib.path(".git/config", "read"))
		with data.gate.settings as _settings
		with data.gate.paths.deny as {".git/config": "git configuration can run code"}
}

test_gate_settings_protected if {
	p := object.union(lib.path("s.json", "write"), {"keys": ["/ws/proj/s.json"]})
	some r in paths.deny with input as lib.file_call("write_file", p)
		with data.gate.settings as object.union(_settings, {"protected": {"/ws/proj/s.json": "gate settings"}})
	r.code == "path_protected"
}

test_shell_redirect_uses_the_same_rules if {
	some r in paths.deny with input as _redirect(object.union(lib.path(".git/config", "write"), {"source": "redirect"}))
		with data.gate.settings as _settings
		with data.gate.paths.deny as {".git/config": "git configuration can run code"}
	r.code == "path_protected"
}

test_sensitive_path_asks if {
	some r in paths.ask with input as lib.file_call("write_file", lib.path(".vscode/tasks.json", "write"))
		with data.gate.settings as _settings
		with data.gate.paths.ask as {".vscode/tasks.json": "tasks run code"}
	r.code == "path_sensitive"
}

test_file_tool_outside_root_denied if {
	some r in paths.deny with input as lib.file_call("read_file", object.union(_outside, {"access": "read"}))
		with data.gate.settings as _settings
	r.code == "path_outside_root"
}

test_file_tool_inside_root_allowed if {
	count(paths.deny) == 0 with input as lib.file_call("read_file", lib.path("src/a.go", "read"))
		with data.gate.settings as _settings
	count(paths.ask) == 0 with input as lib.file_call("read_file", lib.path("src/a.go", "read"))
		with data.gate.settings as _settings
}

test_shell_write_outside_root_asks if {
	some r in paths.ask with input as _redirect(_outside) with data.gate.settings as _settings
	r.code == "path_outside_root"
	count(paths.deny) == 0 with input as _redirect(_outside) with data.gate.settings as _settings
}

test_shell_write_to_writable_path if {
	p := object.union(_outside, {"raw": "/dev/null", "resolved": "/dev/null", "keys": ["/dev/null"]})
	count(paths.ask) == 0 with input as _redirect(p)
		with data.gate.settings as _settings
		with data.gate.paths.writable as {"/dev/null": true}
}

test_shell_read_outside_root_allowed if {
	count(paths.ask) == 0 with input as _redirect(object.union(_outside, {"access": "read"}))
		with data.gate.settings as _settings
}

test_dynamic_write_asks if {
	p := object.union(lib.path("$f", "write"), {"dynamic": true, "keys": []})
	some r in paths.ask with input as _redirect(p) with data.gate.settings as _settings
	r.code == "path_unknown"
}
