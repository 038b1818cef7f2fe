package fstools

import (
	"io/fs"
	"path"
	"strings"
)

// skipDirs are never searched.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// walk calls fn for every regular file under dir (relative to the root,
// '/'-separated), in lexical order, without following symlinks, pruning
// skipDirs and ignored directories. Ignored files are passed with ignored
// set.
func (f *FS) walk(dir string, useGit, useQwen bool, fn func(rel string, d fs.DirEntry, ignored bool) error) error {
	fsys := f.root.FS()
	// .gitignore files from the root down to dir's parent apply too.
	ig := f.newIgnores(useGit, useQwen)
	if dir != "." {
		ig = ig.enter(fsys, ".")
		elems := strings.Split(dir, "/")
		for i := 1; i < len(elems); i++ {
			ig = ig.enter(fsys, strings.Join(elems[:i], "/"))
		}
	}
	stack := map[string]*ignores{}
	return fs.WalkDir(fsys, dir, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel == dir {
				return err
			}
			return nil // unreadable entries are skipped, as rg does
		}
		parent := stack[path.Dir(rel)]
		if parent == nil {
			parent = ig
		}
		if d.IsDir() {
			if rel != dir {
				if skipDirs[d.Name()] {
					return fs.SkipDir
				}
				if parent.gitIgnored(rel, true) || parent.qwenIgnored(rel, true) {
					return fs.SkipDir
				}
			}
			stack[rel] = parent.enter(fsys, rel)
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return fn(rel, d, parent.gitIgnored(rel, false) || parent.qwenIgnored(rel, false))
	})
}
