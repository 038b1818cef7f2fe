package engine

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/fstools"
)

// A repository's configuration may name other files git runs or reads as
// configuration: core.hooksPath (the directory git runs its hooks from
// instead of .git/hooks) and include.path, includeIf.<cond>.path (more
// configuration). Writing a hook there, or such a file, is writing
// .git/hooks/ or .git/config: gate keys those paths so, reading the
// configuration of the root's repository and the user's global one at
// decision time (and again whenever one of the files it read changes).

// gitHookNames are the hooks git runs from its hooks directory (githooks(5)):
// only a file of one of these names, directly in it, runs.
var gitHookNames = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist",
	"p4-pre-submit", "post-index-change",
}

const (
	// maxConfigFiles bounds the configuration files read for one
	// decision (includes of includes; git itself stops at depth 10).
	maxConfigFiles = 32
	// maxConfigBytes bounds what is read of one configuration file.
	maxConfigBytes = 1 << 20
	// maxRepoDepth bounds the directories searched upwards for .git.
	maxRepoDepth = 64
)

// configured is what the configuration names: hooks directories and
// included files, absolute and cleaned (also as the kernel resolves them).
type configured struct {
	hooks    []string
	includes []string
}

// fileStamp is one version of a file read (or missing) for configured:
// where the system gives no inode and change time, its size and
// modification time.
type fileStamp struct {
	path  string
	key   fileKey
	mtime time.Time
	size  int64
	ok    bool
}

func stampOf(p string) fileStamp {
	fi, err := os.Stat(p)
	if err != nil {
		return fileStamp{path: p}
	}
	key, _ := keyOf(fi)
	return fileStamp{path: p, key: key, mtime: fi.ModTime(), size: fi.Size(), ok: true}
}

// configuredCache holds the last reading, the files it came from and
// when they were last found unchanged.
type configuredCache struct {
	mu      sync.Mutex
	stamps  []fileStamp
	paths   configured
	valid   bool
	checked time.Time
}

// configuredFresh is how long a reading is used without looking at its
// files again. No command gate allows changes them (.git/config, the
// global configuration and the files they include are protected, and
// git config of core.hooksPath or include.path is refused), so only the
// user's own edits wait this long to count.
const configuredFresh = time.Second

// configured returns the paths the root's repository's configuration
// and the global configuration name, read again when a file read (or
// looked for) changed.
func (e *Engine) configured() configured {
	c := e.gitConfigured
	if c == nil {
		return configured{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && time.Since(c.checked) < configuredFresh {
		return c.paths
	}
	if c.valid {
		same := true
		for _, s := range c.stamps {
			if stampOf(s.path) != s {
				same = false
				break
			}
		}
		if same {
			c.checked = time.Now()
			return c.paths
		}
	}
	c.paths, c.stamps = e.readConfigured(e.resolver.Root(), "")
	c.valid, c.checked = true, time.Now()
	return c.paths
}

// nestedRepo returns the worktree of the repository below the root that
// holds path p (sub with sub/.git, which git -C sub uses), or "".
func (e *Engine) nestedRepo(p string) string {
	root := e.resolver.Root()
	rel, ok := fstools.Within(root, p)
	if !ok || rel == "." {
		return ""
	}
	dir := filepath.Dir(p)
	for i := 0; i < maxRepoDepth && dir != root; i++ {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// readConfigured finds the repository of start (its .git upwards from
// start, no higher than stop when stop is set) and reads its
// configuration and the global one.
func (e *Engine) readConfigured(start, stop string) (configured, []fileStamp) {
	var out configured
	var stamps []fileStamp
	worktree, gitdir := "", ""
	for dir, i := start, 0; i < maxRepoDepth; i++ {
		dotgit := filepath.Join(dir, ".git")
		stamps = append(stamps, stampOf(dotgit))
		if fi, err := os.Stat(dotgit); err == nil {
			worktree = dir
			if fi.IsDir() {
				gitdir = dotgit
			} else if b, err := os.ReadFile(dotgit); err == nil {
				if rest, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: "); ok {
					gitdir = rest
					if !filepath.IsAbs(gitdir) {
						gitdir = filepath.Join(dir, gitdir)
					}
				}
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir || dir == stop {
			break
		}
		dir = parent
	}
	var files []string
	if gitdir != "" {
		common := gitdir
		if b, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
			common = strings.TrimSpace(string(b))
			if !filepath.IsAbs(common) {
				common = filepath.Join(gitdir, common)
			}
		}
		stamps = append(stamps, stampOf(filepath.Join(gitdir, "commondir")))
		files = append(files, filepath.Join(common, "config"), filepath.Join(gitdir, "config.worktree"))
	}
	if e.home != "" {
		files = append(files, filepath.Join(e.home, ".gitconfig"))
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(e.home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	seen := map[string]bool{}
	var read func(file string, depth int)
	read = func(file string, depth int) {
		if seen[file] || len(seen) >= maxConfigFiles || depth > 10 {
			return
		}
		seen[file] = true
		stamps = append(stamps, stampOf(file))
		hooks, includes := parseGitConfigPaths(file)
		for _, h := range hooks {
			if h = expandConfigPath(h, e.home, worktree); h != "" {
				out.hooks = append(out.hooks, h)
			}
		}
		for _, inc := range includes {
			if inc = expandConfigPath(inc, e.home, filepath.Dir(file)); inc != "" {
				out.includes = append(out.includes, inc)
				read(inc, depth+1)
			}
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	// as the kernel resolves them too (a hooks directory through a link)
	for _, list := range []*[]string{&out.hooks, &out.includes} {
		for _, p := range *list {
			if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
				*list = append(*list, r)
			}
		}
	}
	return out, stamps
}

// expandConfigPath reads a path value as git does: ~/ is the home
// directory, a relative one is relative to base ("" when git has none).
func expandConfigPath(p, home, base string) string {
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, strings.TrimPrefix(p, "~"))
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	case base == "":
		return ""
	}
	return filepath.Join(base, p)
}

// parseGitConfigPaths returns the values of core.hooksPath and of
// include.path and includeIf.*.path in a git configuration file, read as
// git reads it (sections and keys case-insensitive, values unquoted). An
// unreadable file names nothing.
func parseGitConfigPaths(file string) (hooks, includes []string) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxConfigBytes))
	sc.Buffer(make([]byte, 0, 4096), maxConfigBytes)
	section := ""
	first := true
	for sc.Scan() {
		text := sc.Text()
		if first {
			text = strings.TrimPrefix(text, "\ufeff") // git skips a UTF-8 BOM
			first = false
		}
		// a value continues on the next line after a backslash
		comment := strings.HasPrefix(strings.TrimSpace(text), "#") || strings.HasPrefix(strings.TrimSpace(text), ";")
		for !comment && strings.HasSuffix(text, "\\") && !strings.HasSuffix(text, "\\\\") && sc.Scan() {
			text = strings.TrimSuffix(text, "\\") + sc.Text()
		}
		line := strings.TrimSpace(text)
		for strings.HasPrefix(line, "[") {
			end := strings.Index(line, "]")
			if end < 0 {
				break
			}
			name := strings.TrimSpace(line[1:end])
			sub := ""
			if k := strings.IndexAny(name, " \t"); k >= 0 {
				sub, name = strings.TrimSpace(name[k:]), name[:k]
			}
			if k := strings.Index(name, "."); k >= 0 {
				// [section.subsection], the old form
				sub, name = name[k+1:], name[:k]
			}
			section = strings.ToLower(name)
			if sub != "" {
				section += ".sub"
			}
			line = strings.TrimSpace(line[end+1:])
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = configValue(value)
		switch {
		case section == "core" && key == "hookspath":
			hooks = append(hooks, value)
		case (section == "include" || section == "includeif.sub") && key == "path":
			includes = append(includes, value)
		}
	}
	return hooks, includes
}

// configValue unquotes a value: quotes removed, \" \\ \t \n decoded, and
// a comment (# or ;) outside quotes ends it.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case !quoted && (c == '#' || c == ';'):
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// configuredKeys adds the keys of .git/hooks/ and .git/config to a path
// the configuration names as a hooks directory (the directory itself, or
// a hook's name directly in it) or as an included file.
func (e *Engine) configuredKeys(set map[string]bool, info fstools.PathInfo, in *Input) {
	if in.conf == nil {
		c := e.configured()
		in.conf = &c
	}
	conf := *in.conf
	// a repository below the root has its own configuration (git -C sub
	// commit runs sub's hooks path)
	if sub := e.nestedRepo(info.Resolved); sub != "" {
		if in.nested == nil {
			in.nested = map[string]configured{}
		}
		nc, ok := in.nested[sub]
		if !ok && len(in.nested) < maxConfigFiles {
			nc, _ = e.readConfigured(sub, sub)
			in.nested[sub] = nc
		}
		conf.hooks = append(slices.Clip(conf.hooks), nc.hooks...)
		conf.includes = append(slices.Clip(conf.includes), nc.includes...)
	}
	if len(conf.hooks) == 0 && len(conf.includes) == 0 {
		return
	}
	for _, p := range []string{info.Resolved, info.Path} {
		if p == "" {
			continue
		}
		p = filepath.Clean(p)
		for _, h := range conf.hooks {
			rel, ok := fstools.Within(h, p)
			if !ok {
				continue
			}
			first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
			switch {
			case rel == ".":
				set[".git/hooks"], set[".git/hooks/"] = true, true
			case slices.Contains(gitHookNames, first):
				set[".git/hooks/"] = true
				set[".git/hooks/"+filepath.ToSlash(rel)] = true
			}
		}
		// a directory that holds the hooks directory, made, replaced or
		// written into (mv x .husky, ln -s x .husky, tar -C d): it may
		// bring a hook with it; not the root itself
		for _, h := range conf.hooks {
			if rel, ok := fstools.Within(p, h); ok && rel != "." && p != e.resolver.Root() {
				set[".git/hooks/"] = true
			}
		}
		if slices.Contains(conf.includes, p) {
			set[".git/config"] = true
		}
	}
}
