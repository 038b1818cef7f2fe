package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Spec says where a confined process tree may write.
type Spec struct {
	// Root is the workspace root: writable. Required.
	Root string
	// Writable lists more writable paths (the setting gate.sandbox.writable).
	// [os.TempDir] and [Devices] are always added.
	Writable []string
	// ReadOnly lists protected paths that stay read-only even inside a
	// writable tree (.git/hooks, .git/config, agent settings, .gate/...):
	// the protected paths of the policies, taken as input. Relative entries
	// are relative to Root; "~/" entries are relative to the home directory;
	// a trailing slash is ignored.
	ReadOnly []string
	// Hidden lists secret paths the command may neither read, list nor
	// write (gate's state directory, which holds the server's bearer
	// token: a command that reads it can approve its own calls). In the
	// private mount namespace each is covered by an empty read-only mount:
	// a directory by an empty tmpfs, a file by /dev/null. Landlock cannot
	// refuse a read under a readable tree, so without a mount namespace
	// they stay readable (Status.Unprotected says so) and only the static
	// policy guards them. Entries resolve as ReadOnly's do.
	Hidden []string
	// ParentMountNS is the mount namespace of the process that starts the
	// helper ([ParentMountNS] there): Apply mounts only in a namespace that
	// differs from it and that no other process it can see shares. Empty,
	// Apply reads the parent's from /proc, and mounts nothing when it
	// cannot (gate is non-dumpable: a helper without CAP_SYS_PTRACE cannot
	// read it).
	ParentMountNS string
	// AsUser, when the helper runs as root of a user namespace of its own
	// ([SysProcAttr] does that when gate is not root: Status.UserNS), is the
	// user and group the command runs as ([CommandAttr]).
	AsUser *IDs
}

// IDs are a user and a group ID, as the caller has them.
type IDs struct {
	UID int
	GID int
}

// Devices are the device paths that stay writable (and accept ioctls) under
// confinement, besides [os.TempDir]. Missing ones are skipped. The
// /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N links resolve through
// /proc/self/fd to the open file itself: pipes, sockets and terminals work,
// and a regular file is writable if its own path is.
var Devices = []string{
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm",
}

// Status says what is in force (from [Apply]) or what this machine supports
// (from [Probe]).
type Status struct {
	// Landlock is the Landlock ABI version in force (Probe: supported by
	// the kernel and go-landlock); 0 means no Landlock: writes are not
	// confined by the kernel.
	Landlock int `json:"landlock"`
	// MountNS says the ReadOnly paths are read-only bind mounts in a
	// private mount namespace (Probe: a private mount namespace with bind
	// mounts can be made).
	MountNS bool `json:"mount_ns"`
	// UserNS says the mount namespace is made inside a user namespace of
	// the helper's own, because this process is not root: there, files of
	// other users (root's) show as the overflow user, nobody.
	UserNS bool `json:"user_ns,omitempty"`
	// Writable lists the resolved paths writes are allowed under (Apply).
	Writable []string `json:"writable,omitempty"`
	// ReadOnly lists the resolved protected paths that are read-only (Apply).
	ReadOnly []string `json:"read_only,omitempty"`
	// Hidden lists the resolved secret paths covered by an empty mount
	// (Apply).
	Hidden []string `json:"hidden,omitempty"`
	// PrivateShm says /dev/shm is a tmpfs of the command's own in its
	// mount namespace (Apply): the machine's, shared by every process, is
	// not written.
	PrivateShm bool `json:"private_shm,omitempty"`
	// Unprotected lists ReadOnly and Hidden entries that are not
	// protected, each as "path: reason" (Apply).
	Unprotected []string `json:"unprotected,omitempty"`
	// Warnings lists weaknesses of the protection in force, such as hard
	// links to protected files (Apply).
	Warnings []string `json:"warnings,omitempty"`
	// Missing gives a human reason for each layer or part that is not in
	// force (Apply) or not available (Probe).
	Missing []string `json:"missing,omitempty"`
}

// Active reports whether the kernel confines writes (the "fs" layer).
func (s Status) Active() bool { return s.Landlock > 0 }

// String is a one-line summary for logs and gate doctor.
func (s Status) String() string {
	var b strings.Builder
	if s.Landlock > 0 {
		fmt.Fprintf(&b, "landlock ABI %d", s.Landlock)
	} else {
		b.WriteString("landlock off")
	}
	if s.MountNS {
		b.WriteString(", read-only mounts on")
	} else {
		b.WriteString(", read-only mounts off")
	}
	for _, m := range s.Missing {
		b.WriteString("; ")
		b.WriteString(m)
	}
	return b.String()
}

// roPath is a protected path after resolution.
type roPath struct {
	path string // resolved: no symlinks, no ..
	bind bool   // needs a read-only bind mount (it is under a writable path)
}

// plan is a Spec resolved against the file system: what Apply will do.
type plan struct {
	writable    []string // resolved, deduplicated, sorted
	readOnly    []roPath
	hidden      []string // resolved, existing
	pins        []string // directories bind-mounted onto themselves so they cannot be renamed
	unprotected []string
	warnings    []string
	missing     []string
}

// maxLinkScan bounds the files inspected for hard links under one protected
// directory.
const maxLinkScan = 1000

// resolvePath makes p absolute (relative to root, or to home for "~/"),
// cleans it and resolves every symlink in it.
func resolvePath(root, home, p string) (string, error) {
	p = strings.TrimSuffix(p, "/")
	switch {
	case p == "":
		return "", errors.New("empty path")
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", errors.New("no home directory to resolve ~")
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	case !filepath.IsAbs(p):
		p = filepath.Join(root, p)
	}
	return filepath.EvalSymlinks(filepath.Clean(p))
}

// within reports whether p is dir or lies under it (both resolved).
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// makePlan resolves s. landlock says whether Landlock will be in force:
// without it every existing protected path is bound read-only, with it only
// those under a writable path need a mount.
func makePlan(s Spec, landlock bool) (*plan, error) {
	if s.Root == "" {
		return nil, errors.New("confine: Spec.Root is required")
	}
	if !filepath.IsAbs(s.Root) {
		return nil, fmt.Errorf("confine: Spec.Root %q is not absolute", s.Root)
	}
	root, err := filepath.EvalSymlinks(filepath.Clean(s.Root))
	if err != nil {
		return nil, fmt.Errorf("confine: root: %w", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("confine: root %s is not a directory", root)
	}
	home, _ := os.UserHomeDir()
	p := &plan{}
	add := func(path string, optional bool) {
		r, err := resolvePath(root, home, path)
		if err != nil {
			if !optional {
				p.missing = append(p.missing, fmt.Sprintf("writable %s: %v", path, err))
			}
			return
		}
		p.writable = append(p.writable, r)
	}
	p.writable = append(p.writable, root)
	add(os.TempDir(), false)
	for _, d := range Devices {
		add(d, true)
	}
	for _, w := range s.Writable {
		add(w, false)
	}
	if s.AsUser != nil {
		// The helper, root of its own user namespace, writes the
		// command's uid_map and gid_map under /proc after Landlock is in
		// force. The command is not root there: /proc's system files
		// stay root's, its processes' files are guarded by ptrace rules.
		add("/proc", false)
	}
	sort.Strings(p.writable)
	p.writable = slices.Compact(p.writable)

	entries := slices.Clone(s.ReadOnly)
	nested, truncated := nestedGitEntries(root, s.ReadOnly)
	if truncated != "" {
		p.warnings = append(p.warnings, truncated)
	}
	for i, entry := range append(entries, nested...) {
		r, err := resolvePath(root, home, entry)
		if err != nil && i >= len(entries) {
			continue // a nested repository's file that is not there
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				// Nothing to mount on, and nothing is created in the
				// user's tree: the static policy decides writes to it.
				p.unprotected = append(p.unprotected, fmt.Sprintf("%s: does not exist (left to the static policy)", entry))
			} else {
				p.unprotected = append(p.unprotected, fmt.Sprintf("%s: %v", entry, err))
			}
			continue
		}
		if link := unresolvedLink(root, home, entry); link != "" {
			p.warnings = append(p.warnings, fmt.Sprintf("%s is a symlink to %s: the target is read-only, the link itself can be replaced", link, r))
		}
		var under []string
		for _, w := range p.writable {
			if within(r, w) {
				under = append(under, w)
			}
		}
		ro := roPath{path: r, bind: len(under) > 0 || !landlock}
		p.readOnly = append(p.readOnly, ro)
		if !ro.bind {
			continue
		}
		// Pin every directory from the writable tree down to the parent
		// of r, so that none can be renamed away and replaced by a copy.
		for _, w := range under {
			for d := filepath.Dir(r); within(d, w) && d != "/"; d = filepath.Dir(d) {
				p.pins = append(p.pins, d) // "/" cannot be renamed: never pinned
				if d == w {
					break
				}
			}
		}
		p.warnings = append(p.warnings, hardLinks(r)...)
	}
	for _, entry := range s.Hidden {
		r, err := resolvePath(root, home, entry)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // nothing to read; the command cannot create it outside its writable paths
		case err != nil:
			p.unprotected = append(p.unprotected, fmt.Sprintf("%s: %v", entry, err))
			continue
		case within(root, r):
			// Covering the root (or a parent of it) would hide the
			// workspace itself.
			p.unprotected = append(p.unprotected, fmt.Sprintf("%s: holds the root %s, left readable", entry, root))
			continue
		}
		p.hidden = append(p.hidden, r)
	}
	sort.Strings(p.hidden)
	p.hidden = slices.Compact(p.hidden)
	// What a hidden path holds is covered whole: a read-only mount or a
	// pin inside it would have nothing to mount on.
	inHidden := func(r string) bool {
		return slices.ContainsFunc(p.hidden, func(h string) bool { return within(r, h) })
	}
	p.readOnly = slices.DeleteFunc(p.readOnly, func(r roPath) bool { return r.bind && inHidden(r.path) })
	p.pins = slices.DeleteFunc(p.pins, inHidden)
	sort.Slice(p.readOnly, func(i, j int) bool { return p.readOnly[i].path < p.readOnly[j].path })
	p.readOnly = slices.CompactFunc(p.readOnly, func(a, b roPath) bool { return a.path == b.path })
	sort.Strings(p.pins)
	p.pins = slices.Compact(p.pins)
	return p, nil
}

// Bounds of the walk for nested repositories.
const (
	maxNestedDirs  = 4000
	maxNestedDepth = 6
	maxNestedRepos = 64
)

// nestedGitEntries applies the entries under .git/ (.git/config,
// .git/hooks/) to the git repositories inside the root as well: a nested
// work tree's .git (a repository added to the root's, a vendored clone)
// and the git directories of submodules under .git/modules. git runs what
// their configuration and hooks say when it works on them, which git
// status at the root does for submodules (core.fsmonitor in sub/.git/config
// ran when the user later typed git status: rt29). The walk is bounded;
// when it stops early, the second result says so and deeper repositories
// are left to the static policy, which protects .git/ at every depth.
func nestedGitEntries(root string, entries []string) ([]string, string) {
	var gitEntries []string
	for _, e := range entries {
		e = strings.TrimSuffix(e, "/")
		if rest, ok := strings.CutPrefix(e, ".git/"); ok && rest != "" && !filepath.IsAbs(e) {
			gitEntries = append(gitEntries, rest)
		}
	}
	if len(gitEntries) == 0 {
		return nil, ""
	}
	var out []string
	repos, visited, truncated := 0, 0, false
	addRepo := func(gitDir string) {
		if repos++; repos > maxNestedRepos {
			truncated = true
			return
		}
		for _, e := range gitEntries {
			out = append(out, filepath.Join(gitDir, e))
		}
	}
	// walk visits directories breadth first from start (symlinks are not
	// followed), within the bounds shared by both walks; visit returns
	// the subdirectories to go into.
	walk := func(start string, visit func(dir string, depth int, ents []os.DirEntry) []string) {
		type dir struct {
			path  string
			depth int
		}
		queue := []dir{{start, 0}}
		for len(queue) > 0 && !truncated {
			d := queue[0]
			queue = queue[1:]
			if visited++; visited > maxNestedDirs {
				truncated = true
				return
			}
			ents, err := os.ReadDir(d.path)
			if err != nil {
				continue
			}
			for _, c := range visit(d.path, d.depth, ents) {
				if d.depth+1 < maxNestedDepth {
					queue = append(queue, dir{c, d.depth + 1})
				}
			}
		}
	}
	// work trees: a directory holding a .git directory
	walk(root, func(d string, _ int, ents []os.DirEntry) []string {
		var sub []string
		for _, ent := range ents {
			switch {
			case !ent.IsDir():
			case ent.Name() == ".git":
				if d != root {
					addRepo(filepath.Join(d, ".git"))
				}
			default:
				sub = append(sub, filepath.Join(d, ent.Name()))
			}
		}
		return sub
	})
	// submodules' git directories: .git/modules/NAME (and their modules)
	walk(filepath.Join(root, ".git", "modules"), func(d string, depth int, ents []os.DirEntry) []string {
		if _, err := os.Lstat(filepath.Join(d, "HEAD")); err == nil && depth > 0 {
			addRepo(d)
		}
		var sub []string
		for _, ent := range ents {
			switch ent.Name() {
			case "objects", "refs", "logs", "hooks", "info":
				continue // a git directory's own parts hold no repository
			}
			if ent.IsDir() {
				sub = append(sub, filepath.Join(d, ent.Name()))
			}
		}
		return sub
	})
	if truncated {
		return out, fmt.Sprintf("nested git repositories: the walk stopped after %d directories or %d repositories; deeper ones are left to the static policy", maxNestedDirs, maxNestedRepos)
	}
	return out, ""
}

// unresolvedLink returns the entry's own path when the entry itself (not a
// parent) is a symlink.
func unresolvedLink(root, home, entry string) string {
	e := strings.TrimSuffix(entry, "/")
	if strings.HasPrefix(e, "~/") {
		e = filepath.Join(home, e[2:])
	} else if !filepath.IsAbs(e) {
		e = filepath.Join(root, e)
	}
	e = filepath.Clean(e)
	dir, err := filepath.EvalSymlinks(filepath.Dir(e))
	if err != nil {
		return ""
	}
	full := filepath.Join(dir, filepath.Base(e))
	if fi, err := os.Lstat(full); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return full
	}
	return ""
}

// hardLinks reports the regular files at or under p that have more than one
// link: a write through another link elsewhere changes the protected inode.
func hardLinks(p string) []string {
	var out []string
	n := 0
	_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxLinkScan {
			out = append(out, fmt.Sprintf("%s: more than %d files, hard links not checked", p, maxLinkScan))
			return filepath.SkipAll
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if links := linkCount(path); links > 1 {
			out = append(out, fmt.Sprintf("%s has %d hard links: writes through the other links are not prevented", path, links))
		}
		return nil
	})
	return out
}

// mountDepth orders mounts so that a directory is mounted before anything
// under it (a later bind of a parent would hide the mounts under it).
func mountDepth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}
