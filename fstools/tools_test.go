package fstools

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// files writes a tree of files (name → content) under a new root; a name
// ending in / is a directory.
func files(t *testing.T, tree map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range tree {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func newFS(t testing.TB, root string, opts ...Option) *FS {
	t.Helper()
	f, err := New(root, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func args(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// toolCase is one call and what its result must hold.
type toolCase struct {
	name    string
	args    map[string]any
	content string // exact content, or "~substring"
	display string
	errType string // the ToolError type, or "arg:<param>" for an ArgError
}

func runToolCases(t *testing.T, f *FS, tool string, cases []toolCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := f.Run(tool, tc.args)
			if strings.HasPrefix(tc.errType, "arg:") {
				ae, ok := err.(*ArgError)
				if !ok || ae.Param != strings.TrimPrefix(tc.errType, "arg:") || (tc.content != "" && !strings.Contains(ae.Message, strings.TrimPrefix(tc.content, "~"))) {
					t.Fatalf("got %v, %+v; want an argument error about %s", err, res, tc.errType)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gotType := ""
			if res.Error != nil {
				gotType = res.Error.Type
			}
			if gotType != tc.errType {
				t.Errorf("error type %q, want %q (%s)", gotType, tc.errType, res.Content)
			}
			if sub, ok := strings.CutPrefix(tc.content, "~"); ok {
				if !strings.Contains(res.Content, sub) {
					t.Errorf("content %q lacks %q", res.Content, sub)
				}
			} else if res.Content != tc.content {
				t.Errorf("content:\n%s\nwant:\n%s", res.Content, tc.content)
			}
			if tc.display != "" && res.Display != tc.display {
				t.Errorf("display %q, want %q", res.Display, tc.display)
			}
		})
	}
}

func TestListDirectory(t *testing.T) {
	root := files(t, map[string]string{
		"b-file.txt": "", "a-file.txt": "", "y-dir/": "", "x-dir/": "", "c.log": "", "empty/": "",
		"ign/kept.txt": "", "ign/drop.tmp": "", "ign/.gitignore": "*.tmp\n", ".qwenignore": "secret.txt\n", "secret.txt": "",
		"many/": "",
	})
	for i := 0; i < 105; i++ {
		os.WriteFile(filepath.Join(root, "many", fmt.Sprintf("f%03d", i)), nil, 0o644)
	}
	f := newFS(t, root)
	runToolCases(t, f, ToolListDirectory, []toolCase{
		{"order", args("path", "."), "Listed 9 item(s) in .:\n---\n[DIR] empty\n[DIR] ign\n[DIR] many\n[DIR] x-dir\n[DIR] y-dir\n.qwenignore\na-file.txt\nb-file.txt\nc.log\n\n(1 qwen-ignored)", "Listed 9 item(s). (1 qwen-ignored)", ""},
		{"ignore globs", args("path", ".", "ignore", []any{"*.log", "*-dir"}), "~[DIR] empty\n[DIR] ign\n[DIR] many\n.qwenignore\na-file.txt\nb-file.txt\n", "Listed 6 item(s). (1 qwen-ignored)", ""},
		{"git-ignored", args("path", "ign"), "Listed 2 item(s) in ign:\n---\n.gitignore\nkept.txt\n\n(1 git-ignored)", "", ""},
		{"git-ignore off", args("path", "ign", "respect_git_ignore", false), "Listed 3 item(s) in ign:\n---\n.gitignore\ndrop.tmp\nkept.txt", "", ""},
		{"empty", args("path", "empty"), "Directory empty is empty.", "Directory is empty.", ""},
		{"truncated", args("path", "many"), "~f099\n---\n[5 items truncated] ...", "Listed 105 item(s) (truncated)", ""},
		{"a file", args("path", "a-file.txt"), "Error: Path is not a directory: a-file.txt", "Error: Path is not a directory.", "path_is_not_a_directory"},
		{"missing", args("path", "nope"), "~Error listing directory:", "Error: Failed to list directory.", "ls_execution_error"},
		{"outside", args("path", ".."), "", "", "arg:path"},
		{"no path", args(), "", "", "arg:path"},
	})
}

func TestReadFile(t *testing.T) {
	var twenty, long strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&twenty, "line%d\n", i)
	}
	for i := 0; i < 2500; i++ {
		long.WriteString("line\n")
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	root := files(t, map[string]string{
		"a.txt": "This is a test file.", "empty.txt": "", "twenty.txt": twenty.String(), "long.txt": long.String(),
		"wide.txt": "a\n" + strings.Repeat("x", 2500) + "\nb", "img.png": string(png), "bin.dat": "\x00\x01\x02",
		"nul.txt": "abc\x00def", "pic.svg": "<svg/>", "dir/": "", "bom.txt": "\xEF\xBB\xBFhello", "u16.txt": "\xFF\xFEh\x00i\x00",
		"s.ts": "let x = 1", ".qwenignore": "secret*\n", "secret.txt": "s",
	})
	os.WriteFile(filepath.Join(root, "big.txt"), make([]byte, MaxFileSize+1), 0o644)
	f := newFS(t, root)
	runToolCases(t, f, ToolReadFile, []toolCase{
		{"whole", args("file_path", "a.txt"), "This is a test file.", "", ""},
		{"absolute", args("absolute_path", filepath.Join(root, "a.txt")), "This is a test file.", "", ""},
		{"path alias", args("path", "a.txt"), "This is a test file.", "", ""},
		{"empty", args("file_path", "empty.txt"), "", "", ""},
		{"offset limit", args("file_path", "twenty.txt", "offset", 5.0, "limit", 3.0),
			"Showing lines 6-8 of 21 total lines. Use offset: 8 to read more.\n\n---\n\nline6\nline7\nline8", "Read lines 6-8 of 21 from twenty.txt", ""},
		{"default limit", args("file_path", "long.txt"), "~Showing lines 1-2000 of 2501 total lines. Use offset: 2000", "Read lines 1-2000 of 2501 from long.txt", ""},
		{"long line", args("file_path", "wide.txt"), "a\n" + strings.Repeat("x", 2000) + "... [truncated]\nb", "Read all 3 lines from wide.txt (some lines were shortened)", ""},
		{"beyond end", args("file_path", "twenty.txt", "offset", 30.0), "~Showing lines 22-21 of 21", "", ""},
		{"image", args("file_path", "img.png"), "~[image file img.png", "Read image file: img.png", ""},
		{"binary ext", args("file_path", "bin.dat"), "Cannot display content of binary file: bin.dat", "Skipped binary file: bin.dat", ""},
		{"binary sniffed", args("file_path", "nul.txt"), "Cannot display content of binary file: nul.txt", "", ""},
		{"svg", args("file_path", "pic.svg"), "<svg/>", "Read SVG as text: pic.svg", ""},
		{"bom", args("file_path", "bom.txt"), "hello", "", ""},
		{"utf16", args("file_path", "u16.txt"), "hi", "", ""},
		{"typescript", args("file_path", "s.ts"), "let x = 1", "", ""},
		{"missing", args("file_path", "nope.txt"), "Could not read file because no file was found at the specified path.", "Error: File not found.", "file_not_found"},
		{"directory", args("file_path", "dir"), "Could not read file because the provided path is a directory, not a file.", "Error: Path is a directory.", "target_is_directory"},
		{"too large", args("file_path", "big.txt"), "~File size exceeds the 20MB limit: big.txt (20.00MB)", "Error: File size exceeds the 20MB limit.", "file_too_large"},
		{"qwen-ignored", args("file_path", "secret.txt"), "~is ignored by .qwenignore pattern(s)", "", "arg:file_path"},
		{"negative offset", args("file_path", "a.txt", "offset", -1.0), "Offset must be a non-negative integer", "", "arg:offset"},
		{"zero limit", args("file_path", "a.txt", "limit", 0.0), "Limit must be a positive integer", "", "arg:limit"},
		{"empty path", args("file_path", ""), "The 'file_path' parameter must be non-empty.", "", "arg:file_path"},
		{"outside", args("file_path", "../x"), "~not within the workspace root", "", "arg:file_path"},
	})
	res, _ := f.Read(args("file_path", "img.png"))
	if res.MimeType != "image/png" || res.Data != base64.StdEncoding.EncodeToString(png) {
		t.Errorf("image: %s %q", res.MimeType, res.Data)
	}
}

func TestWriteFile(t *testing.T) {
	root := files(t, map[string]string{"old.txt": "old\n", "dir/": ""})
	f := newFS(t, root)
	runToolCases(t, f, ToolWriteFile, []toolCase{
		{"overwrite", args("file_path", "old.txt", "content", "new\n"), "Successfully overwrote file: old.txt.", "", ""},
		{"create with parents", args("file_path", "a/b/c.txt", "content", "x"), "Successfully created and wrote to new file: a/b/c.txt.", "", ""},
		{"directory", args("file_path", "dir", "content", "x"), "~Path is a directory, not a file: dir", "", "arg:file_path"},
		{"no content", args("file_path", "x.txt"), "", "", "arg:content"},
		{"outside", args("file_path", "../x.txt", "content", "x"), "", "", "arg:file_path"},
	})
	for name, want := range map[string]string{"old.txt": "new\n", "a/b/c.txt": "x"} {
		if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != want {
			t.Errorf("%s holds %q", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "x.txt")); err == nil {
		t.Error("a write escaped the root")
	}
}

func TestPrepareDiff(t *testing.T) {
	root := files(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	f := newFS(t, root)
	c, err := f.Prepare(ToolEdit, args("file_path", "a.txt", "old_string", "two", "new_string", "2"))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
	if c.Diff != want || c.OldSize != 14 || c.NewSize != 12 || c.New || c.Replacements != 1 {
		t.Fatalf("change %+v\ndiff:\n%s", c, c.Diff)
	}
	// The file changes between the decision and the write: nothing is written.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644)
	res := f.Apply(c)
	if res.Error == nil || res.Error.Type != "file_changed_since_read" {
		t.Fatalf("stale change applied: %+v", res)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "changed\n" {
		t.Fatalf("file now %q", got)
	}
	n, err := f.Prepare(ToolWriteFile, args("file_path", "n.txt", "content", "x\n"))
	if err != nil || !n.New || n.Diff != "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("new file change %+v %v", n, err)
	}
}

func TestEdit(t *testing.T) {
	const src = "func main() {\n\tfmt.Println(\"hi\")\n\tx := 1\n\tx := 1\n}\n"
	cases := []struct {
		toolCase
		file string // content after, when the edit succeeds
	}{
		{toolCase{"exact", args("file_path", "m.go", "old_string", "\"hi\"", "new_string", "\"hello\""), "~The file: m.go has been updated.", "", ""},
			"func main() {\n\tfmt.Println(\"hello\")\n\tx := 1\n\tx := 1\n}\n"},
		{toolCase{"several without replace_all", args("file_path", "m.go", "old_string", "x := 1", "new_string", "y"),
			"Failed to edit. Found 2 occurrences for old_string in m.go but replace_all was not enabled.",
			"Error: Failed to edit because the text matches multiple locations. Provide more context or set replace_all to true.", "edit_expected_occurrence_mismatch"}, src},
		{toolCase{"replace_all", args("file_path", "m.go", "old_string", "x := 1", "new_string", "y := 2", "replace_all", true), "~(2 replacements)", "", ""},
			"func main() {\n\tfmt.Println(\"hi\")\n\ty := 2\n\ty := 2\n}\n"},
		{toolCase{"no match", args("file_path", "m.go", "old_string", "absent", "new_string", "y"),
			"~Failed to edit, 0 occurrences found for old_string in m.go. No edits made.", "Error: Failed to edit, could not find the string to replace.", "edit_no_occurrence_found"}, src},
		{toolCase{"identical strings", args("file_path", "m.go", "old_string", "x", "new_string", "x"),
			"No changes to apply. The old_string and new_string are identical in file: m.go", "", "edit_no_change"}, src},
		{toolCase{"create existing", args("file_path", "m.go", "old_string", "", "new_string", "y"),
			"File already exists, cannot create: m.go", "Error: Failed to edit. Attempted to create a file that already exists.", "attempt_to_create_existing_file"}, src},
		{toolCase{"over-escaped", args("file_path", "m.go", "old_string", `fmt.Println(\"hi\")`, "new_string", `fmt.Println(\"bye\")`),
			"~after this repair: unescaped over-escaped old_string and new_string", "", ""},
			"func main() {\n\tfmt.Println(\"bye\")\n\tx := 1\n\tx := 1\n}\n"},
		{toolCase{"indentation", args("file_path", "m.go", "old_string", "    fmt.Println(\"hi\")", "new_string", "    fmt.Println(\"hi\")\n    return"),
			"~matched lines ignoring leading and trailing whitespace", "", ""},
			"func main() {\n\tfmt.Println(\"hi\")\n\treturn\n\tx := 1\n\tx := 1\n}\n"},
		{toolCase{"repair must be unambiguous", args("file_path", "m.go", "old_string", "  x := 1", "new_string", "y", "replace_all", true),
			"~after repair", "", "edit_expected_occurrence_mismatch"}, src},
		{toolCase{"literal dollars", args("file_path", "m.go", "old_string", "\"hi\"", "new_string", "\"$$1 $&\""), "~updated", "", ""},
			"func main() {\n\tfmt.Println(\"$$1 $&\")\n\tx := 1\n\tx := 1\n}\n"},
	}
	for _, tc := range cases {
		root := files(t, map[string]string{"m.go": src})
		runToolCases(t, newFS(t, root), ToolEdit, []toolCase{tc.toolCase})
		if got, _ := os.ReadFile(filepath.Join(root, "m.go")); string(got) != tc.file {
			t.Errorf("%s: file now %q, want %q", tc.name, got, tc.file)
		}
	}
	root := files(t, map[string]string{"crlf.txt": "a\r\nb\r\n"})
	f := newFS(t, root)
	runToolCases(t, f, ToolEdit, []toolCase{
		{"create", args("file_path", "new/n.txt", "old_string", "", "new_string", "x"), "Created new file: new/n.txt with provided content.", "", ""},
		{"missing", args("file_path", "nope.txt", "old_string", "a", "new_string", "b"), "File not found: nope.txt",
			"Error: File not found. Cannot apply edit. Use an empty old_string to create a new file.", "file_not_found"},
		{"crlf kept", args("file_path", "crlf.txt", "old_string", "a\nb", "new_string", "c\nd"), "~updated", "", ""},
	})
	if got, _ := os.ReadFile(filepath.Join(root, "crlf.txt")); string(got) != "c\r\nd\r\n" {
		t.Errorf("crlf file now %q", got)
	}
}

func TestGlob(t *testing.T) {
	root := files(t, map[string]string{
		"fileA.txt": "", "FileB.TXT": "", "sub/c.txt": "", "sub/deep/d.txt": "", ".hidden/e.txt": "", "node_modules/m.txt": "",
		".git/x.txt": "", "build/out.txt": "", "x.tmp.txt": "", ".gitignore": "build/\n*.tmp.txt\n", "src/app/[test]/code.tsx": "", "older.sortme": "", "newer.sortme": "",
	})
	// Everything is old, so sorted by name, but fileA.txt and newer.sortme
	// (recent: newest first, before the rest).
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error {
		old := time.Now().Add(-48 * time.Hour)
		return os.Chtimes(p, old, old)
	})
	for name, age := range map[string]time.Duration{"fileA.txt": time.Hour, "newer.sortme": 2 * time.Hour} {
		at := time.Now().Add(-age)
		os.Chtimes(filepath.Join(root, name), at, at)
	}
	f := newFS(t, root)
	abs := func(names ...string) string {
		for i, n := range names {
			names[i] = filepath.Join(f.Root(), n)
		}
		return strings.Join(names, "\n")
	}
	runToolCases(t, f, ToolGlob, []toolCase{
		{"case-insensitive", args("pattern", "*.txt"), "~Found 2 file(s) matching \"*.txt\" within " + f.Root() + ", sorted by modification time (newest first):\n---\n" + abs("fileA.txt", "FileB.TXT"), "Found 2 matching file(s)", ""},
		{"recursive with dotfiles and ignores", args("pattern", "**/*.txt"), "~" + abs("fileA.txt", ".hidden/e.txt", "FileB.TXT", "sub/c.txt", "sub/deep/d.txt") + "\n(1 additional files were git-ignored)", "", ""},
		{"in path", args("pattern", "*.txt", "path", "sub"), "~" + abs("sub/c.txt"), "Found 1 matching file(s)", ""},
		{"newest first, then by name", args("pattern", "*.sortme"), "~" + abs("newer.sortme", "older.sortme"), "", ""},
		{"literal metacharacters", args("pattern", "src/app/[test]/code.tsx"), "~" + abs("src/app/[test]/code.tsx"), "", ""},
		{"no match", args("pattern", "*.go"), "No files found matching pattern \"*.go\" within " + f.Root(), "No files found", ""},
		{"empty pattern", args("pattern", " "), "The 'pattern' parameter cannot be empty.", "", "arg:pattern"},
		{"path outside", args("pattern", "*", "path", ".."), "", "", "arg:path"},
		{"path is a file", args("pattern", "*", "path", "fileA.txt"), "~Search path is not a directory", "", "arg:path"},
	})
}

func TestGlobTruncates(t *testing.T) {
	tree := map[string]string{}
	for i := 0; i < 150; i++ {
		tree[fmt.Sprintf("d/f%03d.txt", i)] = ""
	}
	f := newFS(t, files(t, tree))
	runToolCases(t, f, ToolGlob, []toolCase{
		{"cap", args("pattern", "**/*.txt"), "~---\n[50 files truncated] ...", "Found 150 matching file(s) (truncated)", ""},
	})
}

// TestStaleTemps leaves the temporary files of writes that never finished
// (gate killed between create and rename) beside a file: the next write in
// that directory removes those older than StaleTemp, keeps younger ones (a
// write in progress) and leaves none of its own.
func TestStaleTemps(t *testing.T) {
	root := files(t, map[string]string{
		"d/.gate-0123456789ab.tmp": "stale",
		"d/.gate-ba9876543210.tmp": "in progress",
		"d/.gate-notes.txt":        "not gate's",
		"d/keep.txt":               "k",
	})
	old := time.Now().Add(-2 * StaleTemp)
	if err := os.Chtimes(filepath.Join(root, "d/.gate-0123456789ab.tmp"), old, old); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(root, "d/.gate-notes.txt"), old, old)
	f := newFS(t, root)
	if res, err := f.Run(ToolWriteFile, args("file_path", "d/new.txt", "content", "x")); err != nil || res.Error != nil {
		t.Fatalf("%v %+v", err, res)
	}
	ents, _ := os.ReadDir(filepath.Join(root, "d"))
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := ".gate-ba9876543210.tmp,.gate-notes.txt,keep.txt,new.txt"; strings.Join(got, ",") != want {
		t.Fatalf("d holds %v, want %s", got, want)
	}
	// WriteFileAtomic, used for gate's own files, leaves only the file.
	p := filepath.Join(root, "own", "rules.json")
	for _, content := range []string{"1", "22"} {
		if err := WriteFileAtomic(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if bs, _ := os.ReadFile(p); string(bs) != content {
			t.Fatalf("%s holds %q", p, bs)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("own holds %v", ents)
	}
	// A failed write (the target is a directory) leaves no temporary file.
	os.MkdirAll(filepath.Join(root, "own", "sub"), 0o755)
	if err := WriteFileAtomic(filepath.Join(root, "own", "sub"), []byte("x"), 0o644); err == nil {
		t.Fatal("renamed a file over a directory")
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "own")); len(ents) != 2 {
		t.Fatalf("own holds %v after a failed write", ents)
	}
}

// TestReadFileKinds: text or binary is decided by content, images and PDF
// by a fixed table, never by the host's MIME database (which has go.mod
// as audio/x-mod on some machines).
func TestReadFileKinds(t *testing.T) {
	root := files(t, map[string]string{
		"go.mod": "module example.org/x\n\ngo 1.26\n", "song.mod": "not a tracker module\n", "Makefile": "all:\n\ttrue\n",
		"data.wav": "RIFF text really\n", "doc.pdf": "%PDF-1.4\n", "latin1.txt": "\xe9\xe8\xe0\xf9\xe9\xe8\xe0\xf9",
		"cut.txt": "abc \xc3", "utf8.txt": "héllo wörld ✓\n", "noext": "\x00\x01\x02\x03",
	})
	f := newFS(t, root)
	for _, c := range []struct{ name, content, mime string }{
		{"go.mod", "module example.org/x\n\ngo 1.26\n", ""},
		{"song.mod", "not a tracker module\n", ""},
		{"Makefile", "all:\n\ttrue\n", ""},
		{"data.wav", "RIFF text really\n", ""},
		{"utf8.txt", "héllo wörld ✓\n", ""},
		{"cut.txt", "~abc", ""},
		{"doc.pdf", "~[pdf file doc.pdf", "application/pdf"},
		{"latin1.txt", "Cannot display content of binary file: latin1.txt", ""},
		{"noext", "Cannot display content of binary file: noext", ""},
	} {
		res, err := f.Read(args("path", c.name))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ok := res.Content == c.content
		if strings.HasPrefix(c.content, "~") {
			ok = strings.Contains(res.Content, c.content[1:])
		}
		if !ok || res.MimeType != c.mime {
			t.Errorf("%s: %q (%s), want %q (%s)", c.name, res.Content, res.MimeType, c.content, c.mime)
		}
	}
}
