package fstools

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// read_file limits, as the reference has them.
const (
	DefaultReadLines = 2000
	MaxLineLength    = 2000
	MaxFileSize      = 20 << 20
	maxSVGSize       = 1 << 20
)

// binaryExts are extensions treated as binary without looking.
var binaryExts = map[string]bool{
	".zip": true, ".tar": true, ".gz": true, ".exe": true, ".dll": true, ".so": true, ".class": true, ".jar": true,
	".war": true, ".7z": true, ".doc": true, ".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true,
	".odt": true, ".ods": true, ".odp": true, ".bin": true, ".dat": true, ".obj": true, ".o": true, ".a": true,
	".lib": true, ".wasm": true, ".pyc": true, ".pyo": true,
}

// mediaTypes is the fixed table of files read_file returns as base64
// data: images and PDF, by extension. It is not the host's MIME database,
// whose entries vary between machines (go.mod is audio/x-mod on some).
var mediaTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".bmp": "image/bmp", ".ico": "image/x-icon", ".tif": "image/tiff",
	".tiff": "image/tiff", ".avif": "image/avif", ".heic": "image/heic", ".heif": "image/heif",
	".pdf": "application/pdf",
}

// fileKind classifies a file: SVG and the images and PDF of mediaTypes by
// extension, known binary extensions as binary, anything else by its
// content (text unless it has NUL bytes or is mostly control bytes or
// invalid UTF-8).
func fileKind(name string, head []byte) (kind, mimeType string) {
	ext := strings.ToLower(path.Ext(name))
	if ext == ".svg" {
		return "svg", "image/svg+xml"
	}
	if mt, ok := mediaTypes[ext]; ok {
		if mt == "application/pdf" {
			return "pdf", mt
		}
		return "image", mt
	}
	if binaryExts[ext] {
		return "binary", ""
	}
	if isBinary(head) {
		if mt := http.DetectContentType(head); strings.HasPrefix(mt, "image/") {
			return "image", mt
		}
		return "binary", ""
	}
	return "text", ""
}

// isBinary sniffs content the way the reference does: a BOM means text, a
// NUL byte or more than 30% control bytes mean binary.
func isBinary(head []byte) bool {
	if len(head) > 4096 {
		head = head[:4096]
	}
	for _, bom := range [][]byte{{0xEF, 0xBB, 0xBF}, {0xFF, 0xFE}, {0xFE, 0xFF}} {
		if bytes.HasPrefix(head, bom) {
			return false
		}
	}
	if len(head) == 0 {
		return false
	}
	ctrl, invalid := 0, 0
	for _, c := range head {
		if c == 0 {
			return true
		}
		if c < 9 || (c > 13 && c < 32) {
			ctrl++
		}
	}
	for b := head; len(b) > 0; {
		r, n := utf8.DecodeRune(b)
		// A sequence cut at the end of the head is not counted.
		if r == utf8.RuneError && n == 1 && (len(b) >= utf8.UTFMax || utf8.FullRune(b)) {
			invalid++
		}
		b = b[n:]
	}
	return float64(ctrl)/float64(len(head)) > 0.3 || float64(invalid)/float64(len(head)) > 0.3
}

// Read runs read_file: path (also file_path or absolute_path), offset
// (0-based line) and limit.
func (f *FS) Read(args map[string]any) (*Result, error) {
	p, param, err := PathArg(ToolReadFile, args)
	if err != nil {
		return nil, err
	}
	offset, hasOffset, err := intArg(args, "offset")
	if err != nil {
		return nil, err
	}
	if offset < 0 {
		return nil, &ArgError{"offset", "Offset must be a non-negative integer"}
	}
	limit, hasLimit, err := intArg(args, "limit")
	if err != nil {
		return nil, err
	}
	if hasLimit && limit <= 0 {
		return nil, &ArgError{"limit", "Limit must be a positive integer"}
	}
	t, err := f.resolve(param, p)
	if err != nil {
		return nil, err
	}
	ig := f.newIgnores(false, true)
	if ig.qwenIgnored(t.display(), false) {
		return nil, &ArgError{param, fmt.Sprintf("File path '%s' is ignored by %s pattern(s).", p, ignoreFile)}
	}
	fi, err := f.root.Stat(t.rel)
	switch {
	case isNotExist(err):
		return failed(&ToolError{Type: "file_not_found", Display: "File not found.",
			Message: "Could not read file because no file was found at the specified path."}), nil
	case err != nil:
		return failed(toolErr("read_content_failure", "", "Error reading file %s: %v", t.display(), err)), nil
	case fi.IsDir():
		return failed(&ToolError{Type: "target_is_directory", Display: "Path is a directory.",
			Message: "Could not read file because the provided path is a directory, not a file."}), nil
	case fi.Size() > MaxFileSize:
		return failed(&ToolError{Type: "file_too_large", Display: "File size exceeds the 20MB limit.",
			Message: fmt.Sprintf("File size exceeds the 20MB limit: %s (%.2fMB)", p, float64(fi.Size())/(1<<20))}), nil
	}
	file, err := f.root.Open(t.rel)
	if err != nil {
		return failed(toolErr("read_content_failure", "", "Error reading file %s: %v", t.display(), err)), nil
	}
	data, err := io.ReadAll(io.LimitReader(file, MaxFileSize+1))
	file.Close()
	if err != nil {
		return failed(toolErr("read_content_failure", "", "Error reading file %s: %v", t.display(), err)), nil
	}
	name := t.display()
	base := path.Base(name)
	kind, mt := fileKind(name, data)
	switch kind {
	case "image", "audio", "video", "pdf":
		return &Result{Content: fmt.Sprintf("[%s file %s, %d bytes, %s]", kind, name, len(data), mt),
			Display: fmt.Sprintf("Read %s file: %s", kind, base), MimeType: mt, Data: base64.StdEncoding.EncodeToString(data)}, nil
	case "svg":
		if len(data) > maxSVGSize {
			return &Result{Content: "Cannot display content of SVG file larger than 1MB: " + name,
				Display: "Skipped large SVG file (>1MB): " + name}, nil
		}
		return &Result{Content: string(data), Display: "Read SVG as text: " + name}, nil
	case "binary":
		return &Result{Content: "Cannot display content of binary file: " + name, Display: "Skipped binary file: " + name}, nil
	}
	text := decodeText(data)
	lines := strings.Split(text, "\n")
	total := len(lines)
	if !hasLimit {
		limit = DefaultReadLines
	}
	start := min(offset, total)
	end := min(start+limit, total)
	shortened := false
	selected := make([]string, 0, end-start)
	for _, l := range lines[start:end] {
		if len(l) > MaxLineLength {
			l = cut(l, MaxLineLength) + "... [truncated]"
			shortened = true
		}
		selected = append(selected, l)
	}
	body := strings.Join(selected, "\n")
	truncated := start > 0 || end < total || (hasOffset && offset >= total && total > 0)
	if !truncated && !shortened {
		return &Result{Content: body, Display: ""}, nil
	}
	if !truncated {
		return &Result{Content: body, Display: fmt.Sprintf("Read all %d lines from %s (some lines were shortened)", total, name)}, nil
	}
	header := fmt.Sprintf("Showing lines %d-%d of %d total lines.", start+1, end, total)
	if end < total {
		header += fmt.Sprintf(" Use offset: %d to read more.", end)
	}
	return &Result{Content: header + "\n\n---\n\n" + body, Display: fmt.Sprintf("Read lines %d-%d of %d from %s", start+1, end, total, name)}, nil
}

// decodeText strips a UTF-8 BOM and decodes UTF-16 text; anything else is
// taken as UTF-8.
func decodeText(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return string(data[3:])
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		le := data[0] == 0xFF
		data = data[2:]
		units := make([]uint16, 0, len(data)/2)
		for i := 0; i+1 < len(data); i += 2 {
			u := uint16(data[i])<<8 | uint16(data[i+1])
			if le {
				u = uint16(data[i+1])<<8 | uint16(data[i])
			}
			units = append(units, u)
		}
		return string(utf16.Decode(units))
	}
	if !utf8.Valid(data) {
		return strings.ToValidUTF8(string(data), "\uFFFD")
	}
	return string(data)
}
