package fstools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// grep_search limits: lines shown by default, and characters of output.
const (
	DefaultGrepLimit = 1000
	MaxGrepChars     = 20000
)

// grepMatch is one matching line.
type grepMatch struct {
	path string // relative to the search directory, '/'-separated
	line int
	text string
}

// grepQuery is a validated grep_search call.
type grepQuery struct {
	re      *regexp.Regexp
	lit     *foldFinder // a literal every match contains, or nil
	pattern string
	dir     string // search directory relative to the root ('.' for it)
	abs     string
	glob    string
	useGit  bool
}

// Grep runs grep_search: pattern (RE2, case-insensitive), path (default the
// root), glob (a file filter) and limit. It uses rg when it is available and
// searches in process otherwise; both give the same results.
func (f *FS) Grep(args map[string]any) (*Result, error) {
	return f.grep(context.Background(), args, f.rg)
}

func (f *FS) grep(ctx context.Context, args map[string]any, rg string) (*Result, error) {
	pattern, _, err := strArg(args, "pattern")
	if err != nil {
		return nil, err
	}
	if pattern == "" {
		return nil, &ArgError{"pattern", "The 'pattern' parameter cannot be empty."}
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		return nil, &ArgError{"pattern", fmt.Sprintf("Invalid regular expression pattern: %s. Error: %v", pattern, err)}
	}
	p, _, err := PathArg(ToolGrep, args)
	if err != nil {
		return nil, err
	}
	t, err := f.resolve("path", p)
	if err != nil {
		return nil, err
	}
	glob, _, err := strArg(args, "glob")
	if err != nil {
		return nil, err
	}
	if glob == "" {
		if glob, _, err = strArg(args, "include"); err != nil {
			return nil, err
		}
	}
	if glob != "" && !doublestar.ValidatePattern(glob) {
		return nil, &ArgError{"glob", fmt.Sprintf("invalid glob %q", glob)}
	}
	limit, hasLimit, err := intArg(args, "limit")
	if err != nil {
		return nil, err
	}
	if hasLimit && limit <= 0 {
		return nil, &ArgError{"limit", "limit must be a positive integer"}
	}
	if !hasLimit {
		limit = DefaultGrepLimit
	}
	useGit, err := boolArg(args, "respect_git_ignore", true)
	if err != nil {
		return nil, err
	}
	fi, err := f.root.Stat(t.rel)
	if err != nil {
		return nil, &ArgError{"path", "Path does not exist: " + t.abs()}
	}
	q := grepQuery{re: re, pattern: pattern, dir: t.display(), abs: t.abs(), glob: glob, useGit: useGit}
	if lit := requiredLiteral(pattern); lit != "" {
		q.lit = newFoldFinder(lit)
	}
	var matches []grepMatch
	if !fi.IsDir() {
		matches, err = f.grepFile(q, t.display(), path.Base(t.display()))
	} else if rg != "" {
		matches, err = f.grepRipgrep(ctx, q, rg)
	} else {
		matches, err = f.grepGo(q)
	}
	if err != nil {
		return failed(toolErr("grep_execution_error", "", "Error during grep search operation: %v", err)), nil
	}
	sort.Slice(matches, func(i, j int) bool {
		if matches[i].path != matches[j].path {
			return matches[i].path < matches[j].path
		}
		return matches[i].line < matches[j].line
	})
	location := "in the workspace directory"
	if q.dir != "." {
		location = fmt.Sprintf("in path %q", p)
	}
	filter := ""
	if glob != "" {
		filter = fmt.Sprintf(" (filter: %q)", glob)
	}
	if len(matches) == 0 {
		return &Result{Content: fmt.Sprintf("No matches found for pattern %q %s%s.", pattern, location, filter), Display: "No matches found"}, nil
	}
	n := len(matches)
	var b strings.Builder
	fmt.Fprintf(&b, "Found %d %s for pattern %q %s%s:\n---\n", n, plural(n, "match", "matches"), pattern, location, filter)
	shown := 0
	for _, m := range matches {
		line := fmt.Sprintf("%s:%d:%s\n", m.path, m.line, cut(m.text, MaxLineLength))
		if shown == limit || b.Len()+len(line) > MaxGrepChars {
			break
		}
		b.WriteString(line)
		shown++
	}
	display := fmt.Sprintf("Found %d %s", n, plural(n, "match", "matches"))
	if k := n - shown; k > 0 {
		fmt.Fprintf(&b, "---\n[%d %s truncated] ...\n", k, plural(k, "line", "lines"))
		display += " (truncated)"
	}
	return &Result{Content: strings.TrimSuffix(b.String(), "\n"), Display: display}, nil
}

// globMatches applies the file filter: a glob without a slash matches the
// file name, one with a slash the path relative to the search directory.
func globMatches(glob, rel string) bool {
	if glob == "" {
		return true
	}
	target := rel
	if !strings.Contains(glob, "/") {
		target = path.Base(rel)
	}
	ok, _ := doublestar.Match(glob, target)
	return ok
}

// grepFile searches one file; name is how it is reported.
func (f *FS) grepFile(q grepQuery, rel, name string) ([]grepMatch, error) {
	data, err := f.root.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		return nil, nil
	}
	return q.lines(data, name), nil
}

// lines returns the lines of data that the query matches; a file with a NUL
// byte is binary and has none.
func (q grepQuery) lines(data []byte, name string) []grepMatch {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	if q.lit == nil {
		if !q.re.Match(data) {
			return nil
		}
		return grepLines(q.re, data, name, 0, 1)
	}
	// Only lines holding the literal can match.
	var out []grepMatch
	lineNo, counted := 1, 0
	for pos := 0; pos < len(data); {
		i := q.lit.index(data, pos)
		if i < 0 {
			break
		}
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := len(data)
		if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
			end = i + j
		}
		lineNo += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		l := bytes.TrimSuffix(data[start:end], []byte("\r"))
		if q.re.Match(l) {
			out = append(out, grepMatch{name, lineNo, string(l)})
		}
		pos = end + 1
	}
	return out
}

// grepLines returns the lines of data, the first numbered first, that re
// matches.
func grepLines(re *regexp.Regexp, data []byte, name string, _ int, first int) []grepMatch {
	var out []grepMatch
	line := first - 1
	for len(data) > 0 {
		line++
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		if re.Match(l) {
			out = append(out, grepMatch{name, line, string(l)})
		}
	}
	return out
}

// grepGo searches the directory in process, one directory's files per
// job, jobs in parallel.
func (f *FS) grepGo(q grepQuery) ([]grepMatch, error) {
	var (
		mu  sync.Mutex
		out []grepMatch
		wg  sync.WaitGroup
	)
	jobs := make(chan *dirFiles, 64)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for d := range jobs {
				for i := range d.entries {
					rel := d.path(i)
					sub := q.sub(rel)
					if d.ignored[i] || !globMatches(q.glob, sub) {
						continue
					}
					var data []byte
					data, buf = readInto(d.root, d.entries[i].Name(), buf)
					if ms := q.lines(data, sub); len(ms) > 0 {
						mu.Lock()
						out = append(out, ms...)
						mu.Unlock()
					}
				}
				d.root.Close()
			}
		}()
	}
	err := f.walk(q.dir, q.useGit, true, func(d *dirFiles) error {
		// The worker closes the directory; walk's own close comes after
		// and is harmless.
		r, err := d.root.OpenRoot(".")
		if err != nil {
			return nil
		}
		c := *d
		c.root = r
		jobs <- &c
		return nil
	})
	close(jobs)
	wg.Wait()
	return out, err
}

// readInto reads a file of r into buf, growing it as needed; it returns the
// contents and the buffer to reuse. An unreadable file reads as empty.
func readInto(r *os.Root, name string, buf []byte) ([]byte, []byte) {
	fh, err := r.Open(name)
	if err != nil {
		return nil, buf
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, buf
	}
	size := int(fi.Size()) + 1
	if cap(buf) < size {
		buf = make([]byte, size)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := fh.Read(buf[n:])
		n += m
		if err != nil || m == 0 {
			break
		}
		if n == len(buf) {
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
	}
	return buf[:n], buf
}

// sub returns a path relative to the root as relative to the search
// directory.
func (q grepQuery) sub(rel string) string {
	if q.dir == "." {
		return rel
	}
	return strings.TrimPrefix(rel, q.dir+"/")
}

// grepRipgrep runs rg from the root with the same rules as the Go search:
// hidden files searched, .git and node_modules skipped, .gitignore files
// respected whether or not the root is a git repository, and no other
// ignore files; .qwenignore, path globs and binary files are filtered out
// afterwards.
func (f *FS) grepRipgrep(ctx context.Context, q grepQuery, rg string) ([]grepMatch, error) {
	argv := []string{"--json", "--no-messages", "--hidden", "--no-require-git",
		"--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude", "--no-config",
		"--ignore-case", "--glob", "!.git", "--glob", "!node_modules"}
	if !q.useGit {
		argv = append(argv, "--no-ignore-vcs")
	}
	if q.glob != "" && !strings.Contains(q.glob, "/") {
		// A file-name glob means the same to rg; others are applied below.
		argv = append(argv, "--glob", q.glob)
	}
	argv = append(argv, "--regexp", q.pattern, "--", q.dir)
	cmd := exec.CommandContext(ctx, rg, argv...)
	cmd.Dir = f.Root()
	cmd.Env = append(cmd.Environ(), "RIPGREP_CONFIG_PATH=")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("ripgrep: %v", err)
		}
	}
	ig := f.newIgnores(false, true)
	binary := map[string]bool{}
	var matches []grepMatch
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var msg struct {
			Type string `json:"type"`
			Data struct {
				Path  rgText `json:"path"`
				Lines rgText `json:"lines"`
				Line  int    `json:"line_number"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Type != "match" {
			continue
		}
		rel := path.Clean(msg.Data.Path.String())
		sub := q.sub(rel)
		if ignoredPath(ig, rel) || !globMatches(q.glob, sub) {
			continue
		}
		isBin, seen := binary[rel]
		if !seen {
			data, err := f.root.ReadFile(filepath.FromSlash(rel))
			isBin = err != nil || bytes.IndexByte(data, 0) >= 0
			binary[rel] = isBin
		}
		if isBin {
			continue
		}
		text := strings.TrimSuffix(strings.TrimSuffix(msg.Data.Lines.String(), "\n"), "\r")
		matches = append(matches, grepMatch{sub, msg.Data.Line, text})
	}
	return matches, nil
}

// ignoredPath reports whether .qwenignore ignores rel or a directory above it.
func ignoredPath(ig *ignores, rel string) bool {
	elems := strings.Split(rel, "/")
	for i := 1; i < len(elems); i++ {
		if ig.qwenIgnored(strings.Join(elems[:i], "/"), true) {
			return true
		}
	}
	return ig.qwenIgnored(rel, false)
}

// rgText is ripgrep's JSON text: {"text": ...} or {"bytes": base64}.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) String() string {
	if t.Text != nil {
		return *t.Text
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return string(b)
}
