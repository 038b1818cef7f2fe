package fstools

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/aymanbagabas/go-udiff"
)

// Change is what a write_file or edit call would do to a file, computed
// before the decision so that the policy sees it.
type Change struct {
	// Path is the resolved path; Rel is it relative to the root.
	Path string `json:"path"`
	Rel  string `json:"rel"`
	// New is set when the file does not exist yet.
	New bool `json:"new"`
	// OldSize and NewSize are the file's sizes before and after, in bytes.
	OldSize int `json:"old_size"`
	NewSize int `json:"new_size"`
	// Diff is the unified diff of the change.
	Diff string `json:"diff"`
	// Replacements is how many occurrences an edit replaced.
	Replacements int `json:"replacements,omitempty"`
	// Repair names the repair that made an edit's old_string match, if any.
	Repair string `json:"repair,omitempty"`

	tool    string
	raw     string
	rel     string
	oldHash string
	content []byte
	snippet string
	mode    fs.FileMode
}

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Prepare computes the change of a write_file or edit call without writing
// anything. An argument that fails validation is an *ArgError; an edit that
// cannot be made (no match, several matches, ...) is a *ToolError.
func (f *FS) Prepare(tool string, args map[string]any) (*Change, error) {
	p, param, err := PathArg(tool, args)
	if err != nil {
		return nil, err
	}
	t, err := f.resolve(param, p)
	if err != nil {
		return nil, err
	}
	if t.rel == "." {
		return nil, &ArgError{param, fmt.Sprintf("Path is a directory, not a file: %s", p)}
	}
	old, mode, exists, err := f.current(t)
	if err != nil {
		return nil, err
	}
	c := &Change{Path: t.abs(), Rel: t.display(), New: !exists, OldSize: len(old), tool: tool, raw: p, rel: t.rel,
		oldHash: hash(old), mode: mode}
	if !exists {
		c.oldHash = ""
	}
	switch tool {
	case ToolWriteFile:
		content, ok, err := strArg(args, "content")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &ArgError{"content", `missing required parameter "content"`}
		}
		c.content = []byte(content)
	case ToolEdit:
		if err := f.prepareEdit(c, args, string(old), exists); err != nil {
			return nil, err
		}
	default:
		return nil, &ArgError{"", tool + " does not change files"}
	}
	c.NewSize = len(c.content)
	from := "a/" + c.Rel
	if c.New {
		from = "/dev/null"
	}
	c.Diff = udiff.Unified(from, "b/"+c.Rel, string(old), string(c.content))
	return c, nil
}

// current reads the file a change applies to.
func (f *FS) current(t *target) ([]byte, fs.FileMode, bool, error) {
	fi, err := f.root.Stat(t.rel)
	if isNotExist(err) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, &ToolError{Type: "file_write_failure", Message: fmt.Sprintf("Error accessing path properties for validation: %s. Reason: %v", t.raw, err)}
	}
	if fi.IsDir() {
		return nil, 0, false, &ArgError{"file_path", fmt.Sprintf("Path is a directory, not a file: %s", t.raw)}
	}
	if fi.Size() > MaxFileSize {
		return nil, 0, false, &ToolError{Type: "file_too_large", Message: fmt.Sprintf("File size exceeds the 20MB limit: %s", t.raw)}
	}
	data, err := f.root.ReadFile(t.rel)
	if err != nil {
		return nil, 0, false, &ToolError{Type: "read_content_failure", Message: fmt.Sprintf("Error reading file %s: %v", t.raw, err)}
	}
	return data, fi.Mode().Perm(), true, nil
}

// Apply writes a prepared change: to a temporary file beside the target,
// renamed over it, so that a failure leaves the file as it was. It refuses
// when the file no longer holds what the change was computed from.
func (f *FS) Apply(c *Change) *Result {
	old, _, exists, err := f.current(&target{raw: c.raw, rel: c.rel})
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			return failed(te)
		}
		return failed(toolErr("file_write_failure", "", "%v", err))
	}
	if links := f.links(c.rel); links > 1 {
		return failed(toolErr("file_write_failure", "File has other hard links.",
			"File %s has %d hard links: its other names may be anywhere on the file system (a protected file, a file outside the root), so it is not written in place; nothing was written.", c.raw, links))
	}
	if exists == c.New || (exists && hash(old) != c.oldHash) {
		return failed(toolErr("file_changed_since_read", "File changed since the change was computed.",
			"File %s was modified after the change was computed and checked; nothing was written. Read it again and retry.", c.raw))
	}
	if err := f.writeAtomic(c.rel, c.content, c.mode); err != nil {
		return failed(writeError(c.raw, err))
	}
	res := &Result{Change: c}
	switch {
	case c.tool == ToolWriteFile && c.New:
		res.Content = fmt.Sprintf("Successfully created and wrote to new file: %s.", c.raw)
		res.Display = "Created " + c.Rel
	case c.tool == ToolWriteFile:
		res.Content = fmt.Sprintf("Successfully overwrote file: %s.", c.raw)
		res.Display = "Wrote " + c.Rel
	case c.New:
		res.Content = fmt.Sprintf("Created new file: %s with provided content.", c.raw)
		res.Display = "Created " + c.Rel
	default:
		res.Content = fmt.Sprintf("The file: %s has been updated.", c.raw)
		if c.Replacements > 1 {
			res.Content = fmt.Sprintf("The file: %s has been updated (%d replacements).", c.raw, c.Replacements)
		}
		if c.Repair != "" {
			res.Content += " The old_string did not match exactly; it matched after this repair: " + c.Repair + "."
		}
		if c.snippet != "" {
			res.Content += c.snippet
		}
		res.Display = "Edited " + c.Rel
	}
	return res
}

// links is the link count of the file at rel, 0 when it does not exist or
// is a directory.
func (f *FS) links(rel string) uint64 {
	fi, err := f.root.Stat(rel)
	if err != nil || fi.IsDir() {
		return 0
	}
	return linkCount(fi)
}

func (f *FS) writeAtomic(rel string, content []byte, mode fs.FileMode) error {
	return writeAtomic(f.root, rel, content, mode)
}

// TempPrefix and TempSuffix frame the names of the temporary files gate
// writes beside a file before renaming them over it.
const (
	TempPrefix = ".gate-"
	TempSuffix = ".tmp"
)

// StaleTemp is the age after which a temporary file is a leftover of a
// write that never finished (gate killed between create and rename), and
// is removed by the next write in its directory.
const StaleTemp = 10 * time.Minute

// WriteFileAtomic writes content to path through a temporary file in the
// same directory, synced and renamed over it; the directory is synced after
// the rename, so the new file survives a crash. A failed write leaves the
// file as it was and no temporary file behind.
func WriteFileAtomic(path string, content []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return writeAtomic(root, filepath.Base(path), content, mode)
}

func writeAtomic(root *os.Root, rel string, content []byte, mode fs.FileMode) error {
	dir := filepath.Dir(rel)
	if dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	removeStaleTemps(root, dir)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(dir, TempPrefix+hex.EncodeToString(rnd[:])+TempSuffix)
	w, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, werr := w.Write(content)
	serr := w.Sync()
	cerr := w.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	if err := root.Rename(tmp, rel); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	// The rename is durable only once the directory is.
	d, err := root.Open(dir)
	if err != nil {
		return err
	}
	serr = d.Sync()
	if cerr := d.Close(); serr == nil {
		serr = cerr
	}
	return serr
}

// removeStaleTemps removes gate's temporary files in dir that are older
// than StaleTemp: those of writes in progress are younger.
func removeStaleTemps(root *os.Root, dir string) {
	d, err := root.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		if !strings.HasPrefix(n, TempPrefix) || !strings.HasSuffix(n, TempSuffix) {
			continue
		}
		p := filepath.Join(dir, n)
		if fi, err := root.Lstat(p); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > StaleTemp {
			_ = root.Remove(p)
		}
	}
}

func writeError(p string, err error) *ToolError {
	switch {
	case errors.Is(err, syscall.EACCES), errors.Is(err, fs.ErrPermission):
		return toolErr("permission_denied", "", "Permission denied writing to file: %s (EACCES)", p)
	case errors.Is(err, syscall.ENOSPC):
		return toolErr("no_space_left", "", "No space left on device: %s (ENOSPC)", p)
	case errors.Is(err, syscall.EISDIR):
		return toolErr("target_is_directory", "", "Target is a directory, not a file: %s (EISDIR)", p)
	}
	return toolErr("file_write_failure", "", "Error writing to file '%s': %v", p, err)
}

// prepareEdit computes an edit's new content.
func (f *FS) prepareEdit(c *Change, args map[string]any, old string, exists bool) error {
	oldStr, ok, err := strArg(args, "old_string")
	if err != nil {
		return err
	}
	if !ok {
		return &ArgError{"old_string", `missing required parameter "old_string"`}
	}
	newStr, ok, err := strArg(args, "new_string")
	if err != nil {
		return err
	}
	if !ok {
		return &ArgError{"new_string", `missing required parameter "new_string"`}
	}
	all, err := boolArg(args, "replace_all", false)
	if err != nil {
		return err
	}
	p := c.raw
	switch {
	case !exists && oldStr == "":
		c.content = []byte(newStr)
		return nil
	case !exists:
		return &ToolError{Type: "file_not_found", Display: "File not found. Cannot apply edit. Use an empty old_string to create a new file.",
			Message: "File not found: " + p}
	case oldStr == "":
		return &ToolError{Type: "attempt_to_create_existing_file", Display: "Failed to edit. Attempted to create a file that already exists.",
			Message: "File already exists, cannot create: " + p}
	case oldStr == newStr:
		return &ToolError{Type: "edit_no_change", Display: "No changes to apply. The old_string and new_string are identical.",
			Message: "No changes to apply. The old_string and new_string are identical in file: " + p}
	}
	crlf := strings.Contains(old, "\r\n")
	text := strings.ReplaceAll(old, "\r\n", "\n")
	oldStr = strings.ReplaceAll(oldStr, "\r\n", "\n")
	newStr = strings.ReplaceAll(newStr, "\r\n", "\n")

	m := findMatch(text, oldStr, newStr)
	if m.count == 0 {
		return &ToolError{Type: "edit_no_occurrence_found", Display: "Failed to edit, could not find the string to replace.",
			Message: fmt.Sprintf("Failed to edit, 0 occurrences found for old_string in %s. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.", p)}
	}
	if m.count > 1 && !all {
		return &ToolError{Type: "edit_expected_occurrence_mismatch",
			Display: "Failed to edit because the text matches multiple locations. Provide more context or set replace_all to true.",
			Message: fmt.Sprintf("Failed to edit. Found %d occurrences for old_string in %s but replace_all was not enabled.", m.count, p)}
	}
	if m.repair != "" && m.count > 1 {
		// A repaired match must be unambiguous, even with replace_all.
		return &ToolError{Type: "edit_expected_occurrence_mismatch",
			Display: "Failed to edit because the repaired text matches multiple locations. Provide more context.",
			Message: fmt.Sprintf("Failed to edit. old_string did not match exactly; after repair (%s) it matches %d locations in %s. Provide more context.", m.repair, m.count, p)}
	}
	result := strings.ReplaceAll(text, m.old, m.new)
	if result == text {
		return &ToolError{Type: "edit_no_change", Display: "No changes to apply. The new content is identical to the current content.",
			Message: "No changes to apply. The new content is identical to the current content in file: " + p}
	}
	c.Replacements = m.count
	c.Repair = m.repair
	c.snippet = snippet(result, m.new)
	if crlf {
		result = strings.ReplaceAll(result, "\n", "\r\n")
	}
	c.content = []byte(result)
	return nil
}

// snippet shows the edited lines with a little context.
func snippet(text, inserted string) string {
	i := strings.Index(text, inserted)
	if i < 0 || inserted == "" {
		return ""
	}
	lines := strings.Split(text, "\n")
	first := strings.Count(text[:i], "\n")
	last := first + strings.Count(inserted, "\n")
	from, to := max(first-3, 0), min(last+4, len(lines))
	return fmt.Sprintf(" Showing lines %d-%d of %d from the edited file:\n\n---\n\n%s", from+1, to, len(lines), strings.Join(lines[from:to], "\n"))
}

// match is how an edit's old_string was found in the text.
type match struct {
	old, new string
	count    int
	repair   string
}

// findMatch looks for oldStr in text: exactly, then with deterministic
// repairs (the reference asks a model instead): over-escaped strings
// unescaped, then lines compared without surrounding whitespace, with
// new_string re-indented like the text it replaces.
func findMatch(text, oldStr, newStr string) match {
	if n := strings.Count(text, oldStr); n > 0 {
		return match{oldStr, newStr, n, ""}
	}
	if u := unescape(oldStr); u != oldStr {
		if n := strings.Count(text, u); n > 0 {
			return match{u, unescape(newStr), n, "unescaped over-escaped old_string and new_string"}
		}
	}
	if m, ok := matchLines(text, oldStr, newStr); ok {
		return m
	}
	if u := unescape(oldStr); u != oldStr {
		if m, ok := matchLines(text, u, unescape(newStr)); ok {
			m.repair = "unescaped, then " + m.repair
			return m
		}
	}
	return match{}
}

// unescape undoes one level of backslash escaping: \n, \t, \", \', \`, \\.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '"', '\'', '`', '\\', '$':
			b.WriteByte(s[i+1])
		default:
			b.WriteByte(s[i])
			continue
		}
		i++
	}
	return b.String()
}

// matchLines finds the runs of whole lines of text equal to oldStr's lines
// when leading and trailing whitespace is ignored.
func matchLines(text, oldStr, newStr string) (match, bool) {
	want := strings.Split(strings.Trim(oldStr, "\n"), "\n")
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	if len(want) == 0 || (len(want) == 1 && want[0] == "") {
		return match{}, false
	}
	lines := strings.Split(text, "\n")
	var found []int
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			if strings.TrimSpace(lines[i+j]) != w {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return match{}, false
	}
	i := found[0]
	actual := strings.Join(lines[i:i+len(want)], "\n")
	// Re-indent new_string: the indentation old_string's first line had is
	// replaced by the one the matched line has.
	gotIndent := indentOf(lines[i])
	oldLines := strings.Split(strings.Trim(oldStr, "\n"), "\n")
	wantIndent := indentOf(oldLines[0])
	var out []string
	for _, l := range strings.Split(strings.Trim(newStr, "\n"), "\n") {
		if strings.HasPrefix(l, wantIndent) {
			l = gotIndent + strings.TrimPrefix(l, wantIndent)
		} else if strings.TrimSpace(l) != "" {
			l = gotIndent + strings.TrimLeft(l, " \t")
		}
		out = append(out, l)
	}
	newText := strings.Join(out, "\n")
	if strings.Trim(newStr, "\n") == "" {
		newText = ""
	}
	count := len(found)
	if strings.Count(text, actual) > count {
		count = strings.Count(text, actual)
	}
	return match{actual, newText, count, "matched lines ignoring leading and trailing whitespace and re-indented new_string"}, true
}

func indentOf(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
