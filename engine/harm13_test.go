package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The thirteenth round (rt13, against shell writes below the temporary
// directory): bypasses it found that predate that change and hold inside
// the root too. Each harm row first shows the harm in real bash (as an
// earlier call's setup, then the command), then that gate refuses the
// command; each precision row that gate allows it and bash does it.
func TestThirteenthRoundRealBash(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("SKIP: git is not installed")
	}
	const repo = "git init -q .; git -c user.name=a -c user.email=a@b commit -q --allow-empty -m init; "
	const subRepo = "mkdir -p sub/b/objects sub/b/refs && echo 'ref: refs/heads/main' > sub/b/HEAD && printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../..\n\tfsmonitor = rm -f victim.txt\n' > sub/b/config"
	for _, tc := range []struct {
		name, setup, command string
		harmed               func(r *realBash) bool
	}{
		// a git directory split by its commondir file: HEAD in one
		// directory, objects, refs and config in the one it names
		{"commondir split", "mkdir -p sub/c/objects sub/c/refs sub/g sub/w && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = {R}/sub/w\\n\\tfsmonitor = rm -f {R}/victim.txt\\n' > sub/c/config && echo 'ref: refs/heads/main' > sub/g/HEAD && echo ../c > sub/g/commondir",
			"git --git-dir=sub/g status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"commondir split, the config written", "mkdir -p sub/c/objects sub/c/refs",
			"printf '[core]\\n\\tfsmonitor = rm -f victim.txt\\n' > sub/c/config", func(r *realBash) bool { return r.exists("sub/c/config") }},
		// a .git file naming a git directory by another name
		{"a .git file", "mkdir -p sub/g/objects sub/g/refs sub/r && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = rm -f {R}/victim.txt\\n' > sub/g/config && echo 'ref: refs/heads/main' > sub/g/HEAD && echo 'gitdir: {R}/sub/g' > sub/r/.git",
			"git -C sub/r status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		// a backup name: mv -b -S t renames sub/r/.gi to sub/r/.git
		{"a backup suffix", "mkdir -p sub/r && echo 'gitdir: x' > sub/r/.gi && echo y > y",
			"mv -b -S t y sub/r/.gi", func(r *realBash) bool { return r.exists("sub/r/.git") }},
		{"a backup suffix into a directory", "mkdir -p sub/r && echo 'gitdir: x' > sub/r/.gi && echo y > .gi",
			"mv -b -S t .gi sub/r/", func(r *realBash) bool { return r.exists("sub/r/.git") }},
		{"a backup suffix from the environment", "mkdir -p sub/r && echo 'gitdir: x' > sub/r/.gi && echo y > y",
			"SIMPLE_BACKUP_SUFFIX=t mv -b y sub/r/.gi", func(r *realBash) bool { return r.exists("sub/r/.git") }},
		// rt15: a hand-made repository sub/b (allowed to make: it is no
		// git directory yet), reached where gate had read the path
		// lexically, or laid out as git accepts it
		{"cd into the repository through ..", subRepo, "cd sub/b/refs/.. && git status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"git -C through a symlink", subRepo + " && ln -s sub/b/objects l", "git -C l status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"git -C a symlink and ..", subRepo + " && ln -s sub/b/objects l", "git -C l/.. status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"--git-dir a symlink and ..", subRepo + " && ln -s sub/b/objects l", "git --git-dir=l/.. status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"objects and refs as files", "mkdir -p sub/c && echo 'ref: refs/heads/main' > sub/c/HEAD && printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../..\n\tfsmonitor = rm -f victim.txt\n' > sub/c/config && touch sub/c/objects sub/c/refs && chmod +x sub/c/objects sub/c/refs",
			"git -C sub/c status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"git --bare in the root", "mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD && printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = rm -f victim.txt\n' > config",
			"git --bare status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"a .git file with a trailing space", "mkdir -p sub/w 'sub/b/.git /objects' 'sub/b/.git /refs' && echo 'ref: refs/heads/main' > 'sub/b/.git /HEAD' && printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = rm -f victim.txt ../victim.txt ../../victim.txt\n' > 'sub/b/.git /config' && printf 'gitdir: ../b/.git \n' > sub/w/.git",
			"git -C sub/w status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"a backup suffix by rsync", "mkdir -p sub/r && echo 'gitdir: x' > sub/r/.gi && echo y > y",
			"rsync -b --suffix=t y sub/r/.gi", func(r *realBash) bool { return r.exists("sub/r/.git") }},
		// rt16: git by its path, a local remote's configuration, a
		// wrapper's working directory
		{"git by its path", subRepo, "{GIT} -C sub/b status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"git archive of a local remote", "mkdir -p sub/b && printf '[tar \"x\"]\n\tcommand = rm -f victim.txt ../victim.txt ../../victim.txt\n\tremote = true\n' > sub/b/config && cp -r .git/objects .git/refs .git/HEAD sub/b/",
			"git archive --remote=sub/b --format=x HEAD", func(r *realBash) bool { return !r.exists("victim.txt") }},
		{"unshare --wd", subRepo, "unshare --wd=sub/b git status", func(r *realBash) bool { return !r.exists("victim.txt") }},
		// cd l/..: bash leaves l physically with -P, and when the
		// lexical directory does not exist
		{"cd -P through a symlink made first", "",
			"ln -s {O}/sub l && cd -P l/.. && echo pwned > f", func(r *realBash) bool { return fileText(r.t, filepath.Join(r.outside(), "f")) != "" }},
		{"cd through a symlink to a missing directory", "ln -s {O}/sub l",
			"cd l/../x && echo pwned > f", func(r *realBash) bool { return fileText(r.t, filepath.Join(r.outside(), "x/f")) != "" }},
		{"cd -P through a symlink git checks out first", "git checkout -q -b b && ln -s {O}/sub l && git add l && git -c user.name=a -c user.email=a@b commit -qm l && git checkout -q -",
			"git checkout -q b && cd -P l/.. && echo pwned > f", func(r *realBash) bool { return fileText(r.t, filepath.Join(r.outside(), "f")) != "" }},
		{"cd -P through a directory replaced by a symlink", "mkdir d",
			"mv d d2 && ln -s {O}/sub d && cd -P d/.. && echo pwned > f", func(r *realBash) bool { return fileText(r.t, filepath.Join(r.outside(), "f")) != "" }},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			setup := func(r *realBash) string {
				return strings.NewReplacer("{R}", r.root, "{O}", r.outside()).Replace(repo + "echo v > victim.txt; " + tc.setup)
			}
			command := func(r *realBash) string {
				return strings.NewReplacer("{R}", r.root, "{O}", r.outside(), "{GIT}", gitPath).Replace(tc.command)
			}
			other := newRealBash(t, "")
			other.run("set -e; "+setup(other), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			other.run(command(other), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if !tc.harmed(other) {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", command(other))
			}
			r := newRealBash(t, "")
			r.run("set -e; "+setup(r), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if d := r.decide(command(r)); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command(r))
			}
		})
	}

	for _, tc := range []struct{ name, setup, command, want string }{
		{"cd into a directory and back", "mkdir sub", "cd sub && cd .. && echo x > f", "f"},
		{"cd into a directory the command makes and back", "", "mkdir -p a && cd a && touch x && cd .. && touch y", "y"},
		{"a linked worktree", "git worktree add -q wt", "git -C wt status > out.txt", "out.txt"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r := newRealBash(t, "")
			r.run("set -e; "+repo+tc.setup, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("%q: decision %+v, want allow", tc.command, d)
			}
			r.run(tc.command, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
			if !r.exists(tc.want) {
				t.Errorf("run by bash, %q did not make %s", tc.command, tc.want)
			}
		})
	}
}

// outside is a directory outside the root, with sub/ and x/ in it, made
// once per realBash.
func (r *realBash) outside() string {
	if r.out == "" {
		r.out = r.t.TempDir()
		for _, d := range []string{"sub", "x"} {
			if err := os.MkdirAll(filepath.Join(r.out, d), 0o755); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	return r.out
}
