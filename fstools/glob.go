package fstools

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// glob limits: results shown, and matches collected before the walk stops.
const (
	MaxGlobShown   = 100
	MaxGlobMatches = 1000
)

// recentWindow: files modified within it sort newest first, before the rest.
const recentWindow = 24 * time.Hour

// Glob runs glob: pattern (with **), path (default the root); matching is
// case-insensitive, files only, dotfiles included, symlinks not followed,
// .git and node_modules skipped, .gitignore and .qwenignore respected.
func (f *FS) Glob(args map[string]any) (*Result, error) {
	pattern, _, err := strArg(args, "pattern")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(pattern) == "" {
		return nil, &ArgError{"pattern", "The 'pattern' parameter cannot be empty."}
	}
	p, _, err := PathArg(ToolGlob, args)
	if err != nil {
		return nil, err
	}
	t, err := f.resolve("path", p)
	if err != nil {
		return nil, err
	}
	useGit, err := boolArg(args, "respect_git_ignore", true)
	if err != nil {
		return nil, err
	}
	fi, err := f.root.Stat(t.rel)
	switch {
	case err != nil:
		return nil, &ArgError{"path", "Search path does not exist " + t.abs()}
	case !fi.IsDir():
		return nil, &ArgError{"path", "Search path is not a directory: " + t.abs()}
	}
	dir := t.display()
	pat := filepath.ToSlash(pattern)
	if path.IsAbs(pat) {
		// An absolute pattern is taken relative to the search directory
		// when it lies inside it.
		if rel, ok := Within(filepath.ToSlash(t.abs()), pat); ok {
			pat = rel
		}
	}
	lowPat := strings.ToLower(pat)
	if !doublestar.ValidatePattern(lowPat) {
		return failed(toolErr("glob_execution_error", "", "Error during glob search operation: invalid pattern %q", pattern)), nil
	}
	type hit struct {
		rel   string
		mtime time.Time
	}
	var hits []hit
	truncatedScan := false
	ignored := 0
	err = f.walk(dir, useGit, true, func(d *dirFiles) error {
		for i, e := range d.entries {
			rel := d.path(i)
			sub := strings.TrimPrefix(rel, dir+"/")
			if dir == "." {
				sub = rel
			}
			ok := sub == pat
			if !ok {
				ok, _ = doublestar.Match(lowPat, strings.ToLower(sub))
			}
			if !ok {
				continue
			}
			if d.ignored[i] {
				ignored++
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			hits = append(hits, hit{rel, info.ModTime()})
			if len(hits) >= MaxGlobMatches {
				truncatedScan = true
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return failed(toolErr("glob_execution_error", "", "Error during glob search operation: %v", err)), nil
	}
	if len(hits) == 0 {
		msg := fmt.Sprintf("No files found matching pattern %q within %s", pattern, t.abs())
		if ignored > 0 {
			msg += fmt.Sprintf(" (%d files were git-ignored)", ignored)
		}
		return &Result{Content: msg, Display: "No files found"}, nil
	}
	now := time.Now()
	sort.SliceStable(hits, func(i, j int) bool {
		ri, rj := now.Sub(hits[i].mtime) < recentWindow, now.Sub(hits[j].mtime) < recentWindow
		switch {
		case ri && rj:
			return hits[i].mtime.After(hits[j].mtime)
		case ri != rj:
			return ri
		}
		return hits[i].rel < hits[j].rel
	})
	var b strings.Builder
	at := ""
	if truncatedScan {
		at = "at least "
	}
	fmt.Fprintf(&b, "Found %s%d file(s) matching %q within %s, sorted by modification time (newest first):\n---\n", at, len(hits), pattern, t.abs())
	for i, h := range hits {
		if i == MaxGlobShown {
			break
		}
		b.WriteString(filepath.Join(f.Root(), filepath.FromSlash(h.rel)))
		b.WriteByte('\n')
	}
	display := fmt.Sprintf("Found %d matching file(s)", len(hits))
	if k := len(hits) - MaxGlobShown; k > 0 {
		fmt.Fprintf(&b, "---\n[%d files truncated] ...\n", k)
		display += " (truncated)"
	}
	if truncatedScan {
		fmt.Fprintf(&b, "[Results truncated after scanning %d matching files. Narrow the pattern or path.]\n", MaxGlobMatches)
	}
	if ignored > 0 {
		fmt.Fprintf(&b, "(%d additional files were git-ignored)\n", ignored)
	}
	return &Result{Content: strings.TrimSuffix(b.String(), "\n"), Display: display}, nil
}
