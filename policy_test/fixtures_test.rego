# The builders of gate_test.lib produce what gate itself produces: each
# expectation here is copied from `gate parse` / `gate parse --data` output
# (HOME=/home/dev, --root /home/dev/proj).
package gate_test.fixtures

import data.gate_test.lib

# gate parse --command 'echo x > .git/hooks/pre-commit'
test_path_keys_inside_root if {
	lib.file(".git/hooks/pre-commit", "write", "redirect").keys == [
		".git/", ".git/hooks/", ".git/hooks/pre-commit",
		"/home/", "/home/dev/", "/home/dev/proj/", "/home/dev/proj/.git/",
		"/home/dev/proj/.git/hooks/", "/home/dev/proj/.git/hooks/pre-commit",
		"hooks/", "hooks/pre-commit", "pre-commit",
		"~/proj/", "~/proj/.git/", "~/proj/.git/hooks/", "~/proj/.git/hooks/pre-commit",
	]
}

# gate parse --command 'echo x >> ~/.bashrc'
test_path_keys_in_home if {
	lib.abs("/home/dev/.bashrc", "write", "redirect").keys == ["/home/", "/home/dev/", "/home/dev/.bashrc", "~/.bashrc"]
}

# gate parse --command 'echo > /etc/hosts'
test_path_keys_elsewhere if {
	lib.abs("/etc/hosts", "write", "redirect").keys == ["/etc/", "/etc/hosts"]
}

# gate parse --command 'git push $X'
test_dynamic_segment if {
	s := lib.dyn(0, ["git", "push", "$X"], 2)
	s.dynamic == [2]
	s.path == ["git", "push"]
	s.path_complete == false
	s.keys == ["git", "git push"]
	s.path_keys == ["git", "git push"]
	s.uncertain_keys == ["git push"]
}

# gate parse --settings s.json --data with
# {"tools": {"exclude": ["run_shell_command(rm -rf)", "run_shell_command(git reset)", "read_file"]}}
test_settings_list if {
	lib.list(["read_file"], [lib.entry_with(["rm", "-rf"], ["rm"], ["-f", "-r"]), lib.entry(["git", "reset"])]) == {
		"args": {"run_shell_command": {
			"git reset": ["run_shell_command(git reset)"],
			"rm -rf": ["run_shell_command(rm -rf)"],
		}},
		"count": 3,
		"names": {"read_file": true},
		"paths": {"run_shell_command": {
			"git reset": [{"entry": "run_shell_command(git reset)", "options": []}],
			"rm": [{"entry": "run_shell_command(rm -rf)", "options": ["-f", "-r"]}],
		}},
		"prefixes": {"run_shell_command": {"git": ["run_shell_command(git reset)"]}},
		"tools": {"read_file": true, "run_shell_command": true},
		"with_args": {"run_shell_command": true},
	}
}

# An empty list, as for settings without tools.core.
test_empty_list if {
	lib.empty_list == {"count": 0, "tools": {}, "with_args": {}, "names": {}, "args": {}, "paths": {}, "prefixes": {}}
}

# The equivalents the tests use are those gate files from data.gate.equivalents.
test_equivalents_are_gates if {
	every _, entries in lib.equivalents {
		every e in entries {
			e.entry in data.gate.equivalents[e.target]
		}
	}
}
