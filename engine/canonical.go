package engine

import (
	"fmt"
	"math"

	"github.com/gate-dev/gate/fstools"
)

// The parameter names of the seed (Qwen Code's documented tools) are the
// contract on every route: run_shell_command(command, directory,
// is_background, ...), read_file(path, offset, limit),
// list_directory(path, ignore, respect_git_ignore), glob(pattern, path,
// ...), grep_search(pattern, path, glob, limit), write_file(file_path,
// content), edit(file_path, old_string, new_string, replace_all). Other
// agents' names for the same parameters are accepted beside them and
// renamed here, once, before a call is decided or run, so that the policy
// decides on exactly what runs.
var argAliases = map[string][][2]string{ // tool -> (alias, seed name)
	ToolShell: {
		{"dir_path", "directory"}, // Gemini CLI 0.61
	},
	ToolReadFile: {
		{"file_path", "path"},     // Qwen Code after the seed, Gemini CLI 0.61
		{"absolute_path", "path"}, // Gemini CLI before 0.10
	},
	ToolListDirectory: {
		{"dir_path", "path"}, // Gemini CLI 0.61
	},
	ToolGlob: {
		{"dir_path", "path"}, // Gemini CLI 0.61
	},
	ToolGrep: {
		{"dir_path", "path"},        // Gemini CLI 0.61
		{"include_pattern", "glob"}, // Gemini CLI 0.61
		{"include", "glob"},         // Gemini CLI before 0.61 (search_file_content)
	},
	ToolEdit: {
		{"allow_multiple", "replace_all"}, // Gemini CLI 0.61 (replace)
	},
}

// CanonicalArgs returns a call's arguments under the seed's parameter
// names: aliases are renamed, and Gemini CLI's read_file start_line and
// end_line (1-based, inclusive) become offset and limit. An alias given
// beside its seed name with a different value is an invalid call (the two
// could name different files). args is not modified.
func CanonicalArgs(tool string, args map[string]any) (map[string]any, error) {
	aliases := argAliases[tool]
	_, hasStart := args["start_line"]
	_, hasEnd := args["end_line"]
	lines := tool == ToolReadFile && (hasStart || hasEnd)
	if len(aliases) == 0 && !lines {
		return args, nil
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	for _, a := range aliases {
		alias, seed := a[0], a[1]
		v, ok := out[alias]
		if !ok {
			continue
		}
		delete(out, alias)
		if v == nil {
			continue
		}
		if have, ok := out[seed]; ok && have != nil {
			if fmt.Sprint(have) != fmt.Sprint(v) {
				return nil, invalid("parameters %q and %q name the same thing and disagree", seed, alias)
			}
			continue
		}
		out[seed] = v
	}
	if lines {
		if err := lineRange(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// lineRange turns start_line and end_line into offset and limit.
func lineRange(args map[string]any) error {
	start, hasStart, err := positiveInt(args, "start_line")
	if err != nil {
		return err
	}
	end, hasEnd, err := positiveInt(args, "end_line")
	if err != nil {
		return err
	}
	delete(args, "start_line")
	delete(args, "end_line")
	if _, ok := args["offset"]; ok && hasStart {
		return invalid("give either offset or start_line, not both")
	}
	if _, ok := args["limit"]; ok && hasEnd {
		return invalid("give either limit or end_line, not both")
	}
	if !hasStart {
		start = 1
	}
	if hasStart {
		args["offset"] = float64(start - 1)
	}
	if hasEnd {
		if end < start {
			return invalid("end_line %d is before start_line %d", end, start)
		}
		args["limit"] = float64(end - start + 1)
	}
	return nil
}

// positiveInt reads a positive integer argument (a line number).
func positiveInt(args map[string]any, name string) (int, bool, error) {
	n, ok, err := fstools.IntArg(args, name)
	if err != nil {
		return 0, false, invalid("parameter %q must be an integer", name)
	}
	if ok && (n < 1 || n > math.MaxInt32) {
		return 0, false, invalid("parameter %q must be a positive integer", name)
	}
	return n, ok, nil
}

// Canonical is call with CanonicalArgs applied.
func Canonical(call Call) (Call, error) {
	args, err := CanonicalArgs(call.Tool, call.Args)
	if err != nil {
		return call, err
	}
	call.Args = args
	return call, nil
}
