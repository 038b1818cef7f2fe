package fstools

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFile is gate's (and Qwen Code's) own ignore file, read at the root.
const ignoreFile = ".qwenignore"

// ignores answers whether a path (relative to the root, '/'-separated) is
// ignored by .gitignore files (from dir downwards, as the walk reads them)
// or by the root's .qwenignore.
type ignores struct {
	git             []gitignore.Pattern
	qwen            gitignore.Matcher
	useGit, useQwen bool
}

func parsePatterns(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

func split(rel string) []string {
	if rel == "" || rel == "." {
		return nil
	}
	return strings.Split(rel, "/")
}

// newIgnores reads the root's .qwenignore.
func (f *FS) newIgnores(useGit, useQwen bool) *ignores {
	ig := &ignores{useGit: useGit, useQwen: useQwen}
	if useQwen {
		if data, err := f.root.ReadFile(ignoreFile); err == nil {
			ig.qwen = gitignore.NewMatcher(parsePatterns(data, nil))
		}
	}
	return ig
}

// enter returns the ignores for the entries of a directory, adding its
// .gitignore: dir is the directory in fsys, rel its path relative to the
// workspace root (the patterns' domain); rel defaults to dir.
func (ig *ignores) enter(fsys fs.FS, dir string, rel ...string) *ignores {
	if !ig.useGit {
		return ig
	}
	data, err := fs.ReadFile(fsys, path.Join(dir, ".gitignore"))
	if err != nil {
		return ig
	}
	domain := dir
	if len(rel) > 0 {
		domain = rel[0]
	}
	ps := parsePatterns(data, split(domain))
	if len(ps) == 0 {
		return ig
	}
	next := *ig
	next.git = append(append([]gitignore.Pattern(nil), ig.git...), ps...)
	return &next
}

// gitIgnored reports whether rel is ignored by the .gitignore files read.
func (ig *ignores) gitIgnored(rel string, dir bool) bool {
	if !ig.useGit || len(ig.git) == 0 {
		return false
	}
	return gitignore.NewMatcher(ig.git).Match(split(rel), dir)
}

// qwenIgnored reports whether rel is ignored by .qwenignore.
func (ig *ignores) qwenIgnored(rel string, dir bool) bool {
	return ig.useQwen && ig.qwen != nil && ig.qwen.Match(split(rel), dir)
}

// GitIgnored reports whether a path relative to the root ('/'-separated)
// is ignored by the .gitignore files from the root down to it.
func (f *FS) GitIgnored(rel string, dir bool) bool {
	if rel == "" || rel == "." {
		return false
	}
	ig := f.newIgnores(true, false).enter(f.root.FS(), ".")
	elems := split(rel)
	for i := 1; i < len(elems); i++ {
		d := strings.Join(elems[:i], "/")
		if ig.gitIgnored(d, true) {
			return true
		}
		ig = ig.enter(f.root.FS(), d)
	}
	return ig.gitIgnored(rel, dir)
}
