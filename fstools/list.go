package fstools

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxListEntries is how many entries list_directory shows.
const MaxListEntries = 100

// List runs list_directory: path, ignore (globs on entry names),
// respect_git_ignore and respect_qwen_ignore (both default true). Entries
// are listed directories first, then by name.
func (f *FS) List(args map[string]any) (*Result, error) {
	p, _, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	t, err := f.resolve("path", p)
	if err != nil {
		return nil, err
	}
	patterns, err := stringsArg(args, "ignore")
	if err != nil {
		return nil, err
	}
	for _, pat := range patterns {
		if !doublestar.ValidatePattern(pat) {
			return nil, &ArgError{"ignore", fmt.Sprintf("invalid ignore pattern %q", pat)}
		}
	}
	opts, _ := args["file_filtering_options"].(map[string]any)
	if opts == nil {
		opts = args
	}
	useGit, err := boolArg(opts, "respect_git_ignore", true)
	if err != nil {
		return nil, err
	}
	useQwen, err := boolArg(opts, "respect_qwen_ignore", true)
	if err != nil {
		return nil, err
	}
	fi, err := f.root.Stat(t.rel)
	switch {
	case err != nil:
		return failed(toolErr("ls_execution_error", "Failed to list directory.", "Error listing directory: %v", err)), nil
	case !fi.IsDir():
		return failed(toolErr("path_is_not_a_directory", "Path is not a directory.", "Error: Path is not a directory: %s", p)), nil
	}
	entries, err := fs.ReadDir(f.root.FS(), t.display())
	if err != nil {
		return failed(toolErr("ls_execution_error", "Failed to list directory.", "Error listing directory: %v", err)), nil
	}
	// .gitignore files from the root down to the listed directory apply.
	ig := f.newIgnores(useGit, useQwen)
	dir := t.display()
	ig = ig.enter(f.root.FS(), ".")
	if dir != "." {
		elems := strings.Split(dir, "/")
		for i := range elems {
			ig = ig.enter(f.root.FS(), strings.Join(elems[:i+1], "/"))
		}
	}
	type entry struct {
		name string
		dir  bool
	}
	var shown []entry
	gitIgnored, qwenIgnored := 0, 0
	for _, e := range entries {
		name := e.Name()
		if matchAny(patterns, name) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := f.root.Stat(path.Join(dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		rel := path.Join(dir, name)
		if ig.gitIgnored(rel, isDir) {
			gitIgnored++
			continue
		}
		if ig.qwenIgnored(rel, isDir) {
			qwenIgnored++
			continue
		}
		shown = append(shown, entry{name, isDir})
	}
	if len(shown) == 0 && gitIgnored+qwenIgnored == 0 {
		return &Result{Content: fmt.Sprintf("Directory %s is empty.", p), Display: "Directory is empty."}, nil
	}
	sort.SliceStable(shown, func(i, j int) bool {
		if shown[i].dir != shown[j].dir {
			return shown[i].dir
		}
		return lessName(shown[i].name, shown[j].name)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Listed %d item(s) in %s:\n---\n", len(shown), p)
	for i, e := range shown {
		if i == MaxListEntries {
			break
		}
		if e.dir {
			b.WriteString("[DIR] ")
		}
		b.WriteString(e.name)
		b.WriteByte('\n')
	}
	display := fmt.Sprintf("Listed %d item(s)", len(shown))
	if k := len(shown) - MaxListEntries; k > 0 {
		fmt.Fprintf(&b, "---\n[%d %s truncated] ...\n", k, plural(k, "item", "items"))
		display += " (truncated)"
	}
	var notes []string
	if gitIgnored > 0 {
		notes = append(notes, fmt.Sprintf("%d git-ignored", gitIgnored))
	}
	if qwenIgnored > 0 {
		notes = append(notes, fmt.Sprintf("%d qwen-ignored", qwenIgnored))
	}
	content := strings.TrimSuffix(b.String(), "\n")
	if len(notes) > 0 {
		content += "\n\n(" + strings.Join(notes, ", ") + ")"
		display += ". (" + strings.Join(notes, ", ") + ")"
	}
	return &Result{Content: content, Display: display}, nil
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

// lessName orders names as JavaScript's localeCompare roughly does:
// case-insensitively first, then by bytes.
func lessName(a, b string) bool {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a < b
}
