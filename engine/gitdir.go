package engine

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gate-dev/gate/shellparse"
)

// foreignGitDir returns why a git segment may use a repository gate does
// not protect: a git directory inside the root whose name is not .git (a
// bare repository, or one made by hand: HEAD, objects/ and refs/), where
// its configuration and hooks are plain files an earlier call may have
// written (b/config with core.fsmonitor, then git -C b status). The
// repository is the one --git-dir or GIT_DIR names, else the one git finds
// from where it starts (the segment's directory, then each -C), as git
// looks: a .git in a directory, or the directory itself. "" when the
// repository is a .git, outside the root, or not known.
func (e *Engine) foreignGitDir(cwd string, seg *shellparse.Segment) string {
	// git by its path (/usr/bin/git) too: a project's ./git script is
	// only checked the more for it
	if seg.Program != "git" || seg.ChdirUnknown {
		return ""
	}
	// where git starts, spelled as bash and git are given it: cd's and
	// -C's paths joined without cleaning, so that a symlink followed by
	// ".." leads where the kernel takes it (git -C l/.., cd -P l/..)
	raw := cwd
	for _, d := range seg.Chdir {
		raw = rawJoin(raw, d)
	}
	gitDir := ""
	for _, a := range seg.Assigns {
		if a.Name == "GIT_DIR" && !a.Dynamic {
			gitDir = a.Value
		}
	}
	argv := seg.Argv
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" && i+1 < len(argv):
			i++
			raw = rawJoin(raw, argv[i])
		case a == "--git-dir" && i+1 < len(argv):
			i++
			gitDir = argv[i]
		case strings.HasPrefix(a, "--git-dir="):
			gitDir = strings.TrimPrefix(a, "--git-dir=")
		case a == "--bare" && gitDir == "":
			// git --bare: the directory it starts in is the repository
			gitDir = "."
		case a == "-c" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" || a == "--config-env" || a == "--super-prefix":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			i = len(argv)
		}
	}
	start := raw
	if gitDir != "" {
		raw = rawJoin(raw, gitDir)
	}
	// git archive --remote=PATH runs upload-archive in the repository at
	// PATH, with its configuration (tar.<format>.command)
	if remote, ok := archiveRemote(seg.Argv); ok && !strings.Contains(remote, "://") && !strings.Contains(remote, ":") {
		for _, dir := range pathReadings(rawJoin(start, remote)) {
			if why := e.foundGitDir(dir); why != "" {
				return why
			}
		}
	}
	// the directory read lexically, and where the kernel leads (the two
	// differ after a symlink and "..")
	for _, dir := range pathReadings(raw) {
		var why string
		if gitDir != "" {
			why = e.unprotectedGitDir(dir)
		} else {
			why = e.foundGitDir(dir)
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// archiveRemote returns the --remote of git archive, if any.
func archiveRemote(argv []string) (string, bool) {
	if !slices.Contains(argv, "archive") {
		return "", false
	}
	for i, a := range argv {
		if v, ok := strings.CutPrefix(a, "--remote="); ok {
			return v, true
		}
		if a == "--remote" && i+1 < len(argv) {
			return argv[i+1], true
		}
	}
	return "", false
}

// rawJoin is p taken from dir (an absolute p replaces it), not cleaned.
func rawJoin(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return dir + "/" + p
}

// pathReadings returns raw cleaned lexically and, when it exists, as the
// kernel resolves it (symlinks followed before each ".."), without
// repeats.
func pathReadings(raw string) []string {
	out := []string{filepath.Clean(raw)}
	if real, err := filepath.EvalSymlinks(raw); err == nil && real != out[0] {
		out = append(out, real)
	}
	return out
}

// foundGitDir returns why the repository git finds from dir, looking as
// git looks (a .git in a directory, or the directory itself, then up), is
// one gate does not protect; "" otherwise.
func (e *Engine) foundGitDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		// a .git git takes (a git directory, or a file naming one): its
		// files are protected; one it rejects (an empty directory) it
		// passes over, to d itself
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			dotgit := filepath.Join(d, ".git")
			if fi.Mode()&os.ModeSymlink != 0 {
				if real, err := filepath.EvalSymlinks(dotgit); err == nil {
					if st, err := os.Stat(real); err == nil && st.IsDir() {
						if gitTakes(real) && inDotGit(real) {
							return ""
						}
						return "git uses " + real + ", which the symlink " + dotgit + " names: a repository gate does not protect"
					}
				}
			}
			switch {
			case !fi.IsDir():
				// a .git file (gitdir: PATH): git uses PATH
				return gitFileTarget(dotgit)
			case gitTakes(dotgit):
				return ""
			case isGitDir(dotgit):
				// HEAD and a commondir file (objects, refs and config
				// are in the directory it names), or objects and refs
				// that are not directories
				return "git may use " + dotgit + ", laid out so that its configuration may be in files gate does not protect"
			}
		}
		if why := e.unprotectedGitDir(d); why != "" {
			return why
		}
		if d == e.resolver.Root() || d == e.temp || filepath.Dir(d) == d {
			return ""
		}
	}
}

// unprotectedGitDir returns why dir, a git directory inside the root (or
// the temporary directory) not named .git, is one whose files gate does
// not protect; "" otherwise.
func (e *Engine) unprotectedGitDir(dir string) string {
	info := e.resolver.Resolve("", dir)
	if fi, err := os.Stat(info.Resolved); err == nil && fi.Mode().IsRegular() {
		// GIT_DIR=f, --git-dir=f: a .git file by another name
		return gitFileTarget(info.Resolved)
	}
	_, rel, ok := e.workspaceRel(info)
	if !ok || filepath.Base(info.Resolved) == ".git" || !isGitDir(info.Resolved) {
		return ""
	}
	if !info.InsideRoot {
		rel = info.Resolved
	}
	return "git uses the repository " + rel + ", a git directory not named .git: its configuration and hooks are files gate does not protect, which may run programs"
}

// gitTakes reports whether git surely takes dir as a git directory: a
// HEAD file and objects/ and refs/ directories.
func gitTakes(dir string) bool {
	for _, f := range gitDirFiles {
		fi, err := os.Stat(filepath.Join(dir, f.name))
		if err != nil || fi.IsDir() != f.dir {
			return false
		}
	}
	return true
}

// isGitDir reports whether dir may be a git directory, or hold one's
// files: HEAD with objects and refs (git only checks that it can reach
// them: plain files do), HEAD with a commondir file (git finds objects,
// refs and config in the directory it names), or objects and refs
// without HEAD (such a common directory).
func isGitDir(dir string) bool {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	return has("objects") && has("refs") || has("HEAD") && has("commondir")
}

// gitFileTarget returns why the .git file at p leads git to a repository
// gate does not protect: one whose path has no .git element (a linked
// worktree's and a submodule's are inside the main repository's .git);
// "" otherwise. A file gate cannot read or parse is one such.
func gitFileTarget(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return "git reads " + p + ", a .git file gate cannot read"
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	// as git reads it: "gitdir: " then the path to the end, less the
	// newlines and carriage returns that end it (spaces and newlines
	// inside are the path's)
	target, ok := strings.CutPrefix(string(buf[:n]), "gitdir: ")
	target = strings.TrimRight(target, "\r\n")
	if !ok || target == "" || n == len(buf) {
		return "git reads " + p + ", a .git file gate cannot read"
	}
	// the path as the kernel takes it (l/.. after a symlink l), and as
	// written: both must lead into a .git
	for _, t := range pathReadings(rawJoin(filepath.Dir(p), target)) {
		if !inDotGit(t) {
			return "git uses " + t + ", which the .git file " + p + " names: a repository gate does not protect"
		}
	}
	return ""
}

// gitDirFiles are what makes a directory a git directory to git.
var gitDirFiles = [...]struct {
	name string
	dir  bool
}{{"HEAD", false}, {"objects", true}, {"refs", true}}

// inDotGit reports whether the path p has an element named .git.
func inDotGit(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), ".git")
}
