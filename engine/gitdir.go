package engine

import (
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
	if seg.Program != "git" || seg.ProgramPath != "" {
		return ""
	}
	dir, known := e.segmentDir(cwd, seg)
	if !known {
		return ""
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
			dir = joinPath(dir, argv[i])
		case a == "--git-dir" && i+1 < len(argv):
			i++
			gitDir = argv[i]
		case strings.HasPrefix(a, "--git-dir="):
			gitDir = strings.TrimPrefix(a, "--git-dir=")
		case a == "-c" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" || a == "--config-env" || a == "--super-prefix":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			i = len(argv)
		}
	}
	if gitDir != "" {
		return e.unprotectedGitDir(joinPath(dir, gitDir))
	}
	for d := dir; ; d = filepath.Dir(d) {
		// a .git git takes (a git directory, or a file naming one): its
		// files are protected; one it rejects (an empty directory) it
		// passes over, to d itself
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			dotgit := filepath.Join(d, ".git")
			if fi.Mode()&os.ModeSymlink != 0 {
				if real, err := filepath.EvalSymlinks(dotgit); err == nil {
					if st, err := os.Stat(real); err == nil && st.IsDir() {
						if gitTakes(real) && slices.Contains(strings.Split(filepath.ToSlash(real), "/"), ".git") {
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
				// HEAD and a commondir file: objects, refs and config
				// are in the directory it names
				return "git uses " + dotgit + ", whose configuration is in the directory its commondir file names, which gate does not protect"
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
// files: what gitTakes sees, HEAD with a commondir file (git finds objects,
// refs and config in the directory it names), or objects/ and refs/
// without HEAD (such a common directory).
func isGitDir(dir string) bool {
	if gitTakes(dir) {
		return true
	}
	is := func(name string, wantDir bool) bool {
		fi, err := os.Stat(filepath.Join(dir, name))
		return err == nil && fi.IsDir() == wantDir
	}
	return is("HEAD", false) && is("commondir", false) || is("objects", true) && is("refs", true)
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
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "git reads " + p + ", a .git file gate cannot read"
	}
	target = joinPath(filepath.Dir(p), target)
	if real, err := filepath.EvalSymlinks(target); err == nil {
		target = real
	}
	if slices.Contains(strings.Split(filepath.ToSlash(target), "/"), ".git") {
		return ""
	}
	return "git uses " + target + ", which the .git file " + p + " names: a repository gate does not protect"
}

// gitDirFiles are what makes a directory a git directory to git.
var gitDirFiles = [...]struct {
	name string
	dir  bool
}{{"HEAD", false}, {"objects", true}, {"refs", true}}

// joinPath is p, taken relative to dir unless absolute (cd p from dir).
func joinPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
