package fstools

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// maxLinks bounds symlink hops while resolving, as the kernel's ELOOP does.
const maxLinks = 40

// PathInfo describes a path named by a tool call.
type PathInfo struct {
	// Raw is the path as given.
	Raw string `json:"raw"`
	// Path is the absolute path, cleaned lexically.
	Path string `json:"path"`
	// Resolved is Path with every symlink that exists followed, including a
	// final dangling one: where a write would land.
	Resolved string `json:"resolved"`
	// InsideRoot reports whether Resolved is the root or below it.
	InsideRoot bool `json:"inside_root"`
	// Rel is Resolved relative to the root when InsideRoot.
	Rel string `json:"rel,omitempty"`
	// Exists reports whether Resolved exists.
	Exists bool `json:"exists"`
	// Dir reports whether Resolved is a directory.
	Dir bool `json:"dir"`
	// Symlink reports whether any symlink was followed.
	Symlink bool `json:"symlink"`
	// Links is the link count of a file that exists and is not a
	// directory. Above 1, the file has other names, which may be anywhere
	// on the same file system (.git/config, a file outside the root):
	// writing it in place writes there too.
	Links uint64 `json:"links,omitempty"`
	// GitIgnored is set for paths inside the root that .gitignore files
	// ignore (file tools only).
	GitIgnored bool `json:"git_ignored"`
}

// Resolver resolves paths against a root directory.
type Resolver struct {
	root string // real path of the root
}

// NewResolver returns a resolver for root, which is made absolute and has its
// own symlinks resolved.
func NewResolver(root string) (*Resolver, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &Resolver{root: real}, nil
}

// Root returns the resolved root directory.
func (r *Resolver) Root() string { return r.root }

// Resolve resolves p; a relative p is taken from base (itself relative to
// the root when not absolute).
func (r *Resolver) Resolve(base, p string) PathInfo {
	info := PathInfo{Raw: p}
	if base == "" {
		base = r.root
	} else if !filepath.IsAbs(base) {
		base = filepath.Join(r.root, base)
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = base + string(filepath.Separator) + p
	}
	abs = procSelf(abs, base)
	info.Path = filepath.Clean(abs)
	resolved, symlink := resolveLinks(abs)
	info.Resolved = resolved
	info.Symlink = symlink
	if fi, err := os.Stat(resolved); err == nil {
		info.Exists = true
		info.Dir = fi.IsDir()
		if !info.Dir {
			info.Links = linkCount(fi)
		}
	}
	if rel, ok := Within(r.root, resolved); ok {
		info.InsideRoot = true
		info.Rel = rel
	}
	return info
}

// procLink is a path through the /proc links of the process that opens
// it: its root directory (that of any process, /proc/PID/root) or its
// working directory.
var procLink = regexp.MustCompile(`^/proc/(?:(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(root)|(?:self|thread-self)(?:/task/[0-9]+)?/(cwd))(/.*)?$`)

// procSelf reads the /proc links in abs as the command that opens it
// does, not as gate's own process would: /proc/self/root/X is /X (a
// command's root is the machine's), /proc/self/cwd/X is X in base.
func procSelf(abs, base string) string {
	for range 8 {
		m := procLink.FindStringSubmatch(filepath.Clean(abs))
		if m == nil {
			return abs
		}
		dir := "/"
		if m[2] != "" {
			dir = base
		}
		abs = dir + m[3]
	}
	return abs
}

// Within reports whether path is dir or below it, and path relative to dir.
// It compares whole path elements: /ws/proj-evil is not within /ws/proj.
func Within(dir, path string) (string, bool) {
	if path == dir {
		return ".", true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(path, prefix) {
		return "", false
	}
	return path[len(prefix):], true
}

// resolveLinks walks an absolute path element by element, following
// symlinks (and applying ".." after them, as the kernel does). Elements
// that do not exist are appended as they are.
func resolveLinks(abs string) (string, bool) {
	sep := string(filepath.Separator)
	vol := filepath.VolumeName(abs)
	pending := strings.Split(abs[len(vol):], sep)
	cur := vol + sep
	hops := 0
	symlink := false
	missing := false
	for len(pending) > 0 {
		elem := pending[0]
		pending = pending[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, elem)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			missing = true
			cur = next
			continue
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		hops++
		if hops > maxLinks {
			return filepath.Clean(abs), true
		}
		target, err := os.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		symlink = true
		rest := append(strings.Split(target, sep), pending...)
		if filepath.IsAbs(target) {
			cur = filepath.VolumeName(target) + sep
			rest = append(strings.Split(target[len(filepath.VolumeName(target)):], sep), pending...)
		}
		pending = rest
	}
	return filepath.Clean(cur), symlink
}
