package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/gate-dev/gate/supervise"
)

// Timeout limits, as Qwen Code's run_shell_command has them.
const (
	DefaultTimeout = 120 * time.Second
	MaxTimeout     = 600 * time.Second
)

// Request is one run_shell_command call.
type Request struct {
	// Command is the command line, run with bash -c.
	Command string
	// Description is shown to the user; background calls get a
	// "[background]" marker.
	Description string
	// Directory is where the command runs, relative to the root; empty
	// means the root.
	Directory string
	// IsBackground starts the command and returns at once with its PID.
	IsBackground bool
	// Timeout bounds a foreground command; zero means the runner's default.
	Timeout time.Duration
	// Exec decides every program the command's tree runs, when the runner
	// supervises commands (Options.Supervise); nil means the runner's
	// Supervision.Default, and without one the call is refused.
	Exec supervise.Decider `json:"-"`
}

// ArgError is a call argument that is missing or malformed.
type ArgError struct {
	// Param is the parameter at fault.
	Param   string
	Message string
}

func (e *ArgError) Error() string { return e.Message }

// ParseArgs validates run_shell_command arguments: command (a non-empty
// string), is_background (a boolean, required as in the spec), and the
// optional description, directory and timeout (milliseconds, 1 to 600000).
func ParseArgs(args map[string]any) (Request, error) {
	var r Request
	cmd, ok := args["command"].(string)
	switch {
	case args["command"] == nil:
		return r, &ArgError{"command", "missing required parameter \"command\""}
	case !ok:
		return r, &ArgError{"command", "parameter \"command\" must be a string"}
	case len(cmd) == 0:
		return r, &ArgError{"command", "Command cannot be empty."}
	}
	r.Command = cmd
	switch v := args["is_background"].(type) {
	case bool:
		r.IsBackground = v
	case nil:
		return r, &ArgError{"is_background", "missing required parameter \"is_background\" (true to run the command in the background, false to wait for it)"}
	default:
		return r, &ArgError{"is_background", "parameter \"is_background\" must be a boolean"}
	}
	for _, name := range []string{"description", "directory"} {
		switch v := args[name].(type) {
		case nil:
		case string:
			if name == "description" {
				r.Description = v
			} else {
				r.Directory = v
			}
		default:
			return r, &ArgError{name, fmt.Sprintf("parameter %q must be a string", name)}
		}
	}
	if v, present := args["timeout"]; present && v != nil {
		ms, err := milliseconds(v)
		if err != nil {
			return r, &ArgError{"timeout", err.Error()}
		}
		r.Timeout = time.Duration(ms) * time.Millisecond
	}
	return r, nil
}

// milliseconds checks a timeout the way the reference does.
func milliseconds(v any) (int64, error) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			return 0, fmt.Errorf("Timeout must be an integer number of milliseconds.")
		}
	default:
		return 0, fmt.Errorf("Timeout must be an integer number of milliseconds.")
	}
	switch {
	case f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f):
		return 0, fmt.Errorf("Timeout must be an integer number of milliseconds.")
	case f <= 0:
		return 0, fmt.Errorf("Timeout must be a positive number.")
	case f > float64(MaxTimeout/time.Millisecond):
		return 0, fmt.Errorf("Timeout cannot exceed 600000ms (10 minutes).")
	}
	return int64(f), nil
}
