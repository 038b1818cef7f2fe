package fstools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Tool names.
const (
	ToolListDirectory = "list_directory"
	ToolReadFile      = "read_file"
	ToolWriteFile     = "write_file"
	ToolGlob          = "glob"
	ToolGrep          = "grep_search"
	ToolEdit          = "edit"
)

// FS runs file tools inside one root. It is safe for concurrent use.
type FS struct {
	root     *os.Root
	resolver *Resolver
	// rg is the ripgrep binary grep_search uses, or "" for the Go search.
	rg string
}

// Option configures an FS.
type Option func(*FS)

// WithRipgrep sets the ripgrep binary grep_search runs; "" makes it use
// the in-process search. By default rg is looked up on PATH.
func WithRipgrep(path string) Option { return func(f *FS) { f.rg = path } }

// New opens root for the file tools.
func New(root string, opts ...Option) (*FS, error) {
	res, err := NewResolver(root)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(res.Root())
	if err != nil {
		return nil, err
	}
	f := &FS{root: r, resolver: res}
	if p, err := exec.LookPath("rg"); err == nil {
		f.rg = p
	}
	for _, o := range opts {
		o(f)
	}
	return f, nil
}

// Close releases the root.
func (f *FS) Close() error { return f.root.Close() }

// Root returns the resolved root directory.
func (f *FS) Root() string { return f.resolver.Root() }

// Resolver returns the resolver of the root.
func (f *FS) Resolver() *Resolver { return f.resolver }

// Ripgrep returns the ripgrep binary grep_search uses, or "".
func (f *FS) Ripgrep() string { return f.rg }

// ToolError is a failure the tool reports to the agent, with the
// reference's error type (file_not_found, edit_no_occurrence_found, ...).
type ToolError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// Display is the short text for the user.
	Display string `json:"display,omitempty"`
}

func (e *ToolError) Error() string { return e.Message }

func toolErr(typ, display, format string, args ...any) *ToolError {
	return &ToolError{Type: typ, Display: display, Message: fmt.Sprintf(format, args...)}
}

// ArgError is an argument that fails validation; Param names it.
type ArgError struct {
	Param   string
	Message string
}

func (e *ArgError) Error() string { return e.Message }

// Result is what a file tool returns.
type Result struct {
	// Content is the text for the model (the reference's llmContent).
	Content string `json:"content"`
	// Display is the short text for the user (returnDisplay).
	Display string `json:"display"`
	// MimeType and Data (base64) carry images and PDFs.
	MimeType string `json:"mime_type,omitempty"`
	Data     string `json:"data,omitempty"`
	// Error is set when the tool failed; Content then explains why.
	Error *ToolError `json:"error,omitempty"`
	// Change is the change a write or edit made.
	Change *Change `json:"change,omitempty"`
}

func failed(e *ToolError) *Result {
	d := e.Display
	if d == "" {
		d = e.Message
	}
	return &Result{Content: e.Message, Display: "Error: " + d, Error: e}
}

// target is a path argument resolved for I/O.
type target struct {
	raw  string
	info PathInfo
	// rel is the resolved path relative to the root, with the OS
	// separator, for os.Root.
	rel string
}

// resolve resolves a path argument (absolute, or relative to the root).
// A path that leads out of the root is an error: the policy denies such
// calls, and the I/O would be refused anyway.
func (f *FS) resolve(param, p string) (*target, error) {
	if p == "" {
		return nil, &ArgError{param, fmt.Sprintf("The '%s' parameter must be non-empty.", param)}
	}
	info := f.resolver.Resolve("", p)
	if !info.InsideRoot {
		return nil, &ArgError{param, fmt.Sprintf("Path %s is not within the workspace root %s", p, f.resolver.Root())}
	}
	rel := info.Rel
	if rel == "" {
		rel = "."
	}
	return &target{raw: p, info: info, rel: filepath.FromSlash(rel)}, nil
}

// display returns a path as the tools print it: relative to the root with
// forward slashes.
func (t *target) display() string { return filepath.ToSlash(t.rel) }

// abs returns the resolved absolute path.
func (t *target) abs() string { return t.info.Resolved }

func strArg(args map[string]any, name string) (string, bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, &ArgError{name, fmt.Sprintf("parameter %q must be a string", name)}
	}
	return s, true, nil
}

func boolArg(args map[string]any, name string, def bool) (bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, &ArgError{name, fmt.Sprintf("parameter %q must be a boolean", name)}
	}
	return b, nil
}

// IntArg reads an integer argument (JSON numbers arrive as float64 or
// json.Number); a value that is not an integer is an *ArgError.
func IntArg(args map[string]any, name string) (int, bool, error) { return intArg(args, name) }

// intArg reads an integer argument (JSON numbers arrive as float64 or
// json.Number).
func intArg(args map[string]any, name string) (int, bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return 0, false, nil
	}
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case interface{ Float64() (float64, error) }:
		x, err := n.Float64()
		if err != nil {
			return 0, false, &ArgError{name, fmt.Sprintf("parameter %q must be an integer", name)}
		}
		f = x
	default:
		return 0, false, &ArgError{name, fmt.Sprintf("parameter %q must be an integer", name)}
	}
	if f != float64(int(f)) {
		return 0, false, &ArgError{name, fmt.Sprintf("parameter %q must be an integer", name)}
	}
	return int(f), true, nil
}

func stringsArg(args map[string]any, name string) ([]string, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return nil, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, &ArgError{name, fmt.Sprintf("parameter %q must be a list of strings", name)}
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, isStr := x.(string)
		if !isStr {
			return nil, &ArgError{name, fmt.Sprintf("parameter %q must be a list of strings", name)}
		}
		out = append(out, s)
	}
	return out, nil
}

// PathArg returns the path argument of a file tool call and the parameter
// it came from ("" for glob and grep_search without a path: the root).
func PathArg(tool string, args map[string]any) (string, string, error) {
	names := map[string][]string{
		ToolReadFile:      {"file_path", "absolute_path", "path"},
		ToolWriteFile:     {"file_path"},
		ToolEdit:          {"file_path"},
		ToolListDirectory: {"path"},
		ToolGlob:          {"path"},
		ToolGrep:          {"path"},
	}[tool]
	for _, n := range names {
		if s, ok, err := strArg(args, n); err != nil {
			return "", n, err
		} else if ok {
			return s, n, nil
		}
	}
	if tool == ToolGlob || tool == ToolGrep {
		return ".", "path", nil
	}
	if len(names) == 0 {
		return "", "", &ArgError{"", "unknown file tool " + tool}
	}
	return "", names[0], &ArgError{names[0], fmt.Sprintf("The '%s' parameter must be non-empty.", names[0])}
}

// Run runs a read-only tool, or a write or edit (computing its change and
// applying it at once). Callers that decide on the change first use Prepare
// and Apply instead.
func (f *FS) Run(tool string, args map[string]any) (*Result, error) {
	switch tool {
	case ToolListDirectory:
		return f.List(args)
	case ToolReadFile:
		return f.Read(args)
	case ToolGlob:
		return f.Glob(args)
	case ToolGrep:
		return f.Grep(args)
	case ToolWriteFile, ToolEdit:
		c, err := f.Prepare(tool, args)
		if err != nil {
			var te *ToolError
			if errors.As(err, &te) {
				return failed(te), nil
			}
			return nil, err
		}
		return f.Apply(c), nil
	}
	return nil, &ArgError{"", "unknown file tool " + tool}
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
