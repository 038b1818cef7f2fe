package fstools

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// skipDirs are never searched.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// dirFiles are the regular files of one directory met by walk.
type dirFiles struct {
	// root is the directory, opened as an os.Root: its files are opened
	// relative to it with one system call each, and a file swapped for a
	// symlink leading out of it is refused. It is closed after fn returns.
	root *os.Root
	// rel is the directory relative to the workspace root.
	rel     string
	entries []fs.DirEntry
	ignored []bool
}

// path returns an entry's path relative to the workspace root.
func (d *dirFiles) path(i int) string {
	if d.rel == "." {
		return d.entries[i].Name()
	}
	return d.rel + "/" + d.entries[i].Name()
}

// walk calls fn with the regular files of dir (relative to the root,
// '/'-separated) and of every directory below it, in lexical order of
// directories, without following symlinks, pruning skipDirs and ignored
// directories. Files that .gitignore or .qwenignore ignore are passed with
// their ignored flag set. fn may keep d until it returns; it is then
// closed.
func (f *FS) walk(dir string, useGit, useQwen bool, fn func(d *dirFiles) error) error {
	ig := f.newIgnores(useGit, useQwen)
	// .gitignore files from the root down to dir's parent apply too.
	if dir != "." {
		ig = ig.enter(f.root.FS(), ".")
		elems := strings.Split(dir, "/")
		for i := 1; i < len(elems); i++ {
			ig = ig.enter(f.root.FS(), strings.Join(elems[:i], "/"))
		}
	}
	r, err := f.root.OpenRoot(dir)
	if err != nil {
		return err
	}
	err = f.walkDir(r, dir, ig, fn)
	if err == fs.SkipAll {
		err = nil
	}
	return err
}

func (f *FS) walkDir(r *os.Root, rel string, parent *ignores, fn func(d *dirFiles) error) error {
	ig := parent.enter(r.FS(), ".", rel)
	dirf, err := r.Open(".")
	if err != nil {
		r.Close()
		return nil // unreadable directories are skipped, as rg does
	}
	entries, _ := dirf.ReadDir(-1)
	dirf.Close()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	files := &dirFiles{root: r, rel: rel}
	var subdirs []string
	for _, e := range entries {
		p := path.Join(rel, e.Name())
		switch {
		case e.IsDir():
			if !skipDirs[e.Name()] && !ig.gitIgnored(p, true) && !ig.qwenIgnored(p, true) {
				subdirs = append(subdirs, e.Name())
			}
		case e.Type().IsRegular():
			files.entries = append(files.entries, e)
			files.ignored = append(files.ignored, ig.gitIgnored(p, false) || ig.qwenIgnored(p, false))
		}
	}
	if len(files.entries) > 0 {
		if err := fn(files); err != nil {
			r.Close()
			return err
		}
	}
	for _, name := range subdirs {
		sub, err := r.OpenRoot(name)
		if err != nil {
			continue
		}
		if err := f.walkDir(sub, path.Join(rel, name), ig, fn); err != nil {
			r.Close()
			return err
		}
	}
	return r.Close()
}
