package engine

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/shellparse"
)

// ProtectedPaths returns the keys of data.gate.paths.deny (policies/gate/paths):
// the paths no call may write, as written there ("x/y/" under the root,
// "~/x" under home, "/abs/"), sorted.
func (p *Policies) ProtectedPaths() ([]string, error) { return p.pathKeys("deny") }

// SecretPaths returns the keys of data.gate.paths.secret: the paths no
// call may read or write, as written there ("~/x/" under home, "/abs/"),
// sorted.
func (p *Policies) SecretPaths() ([]string, error) { return p.pathKeys("secret") }

// pathKeys returns the keys of data.gate.paths.<list>, sorted.
func (p *Policies) pathKeys(list string) ([]string, error) {
	m := map[string]any{}
	if err := p.decode([]string{"gate", "paths", list}, &m); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// denyKeySet is the set of the path keys no command may write: gate's own
// files (absolute keys) and data.gate.paths.deny.
func denyKeySet(protected map[string]string, deny []string) map[string]bool {
	out := make(map[string]bool, len(protected)+len(deny))
	for k := range protected {
		out[k] = true
	}
	for _, k := range deny {
		out[k] = true
	}
	return out
}

// maxProtectedArgs bounds the words of one segment protectedArgs resolves.
const maxProtectedArgs = 64

// outputOptions are options whose value, in most programs, is a file or a
// directory the program writes (gcc -o, git format-patch -o DIR, wget -P,
// unzip -d, tar -C): the value is keyed both as a file and as a directory
// written into.
var outputOptions = map[string]bool{
	"-o": true, "-O": true, "--output": true, "--out": true, "--output-file": true, "--outfile": true,
	"--output-document": true, "--log-file": true, "-d": true, "-C": true, "-P": true, "--directory": true,
	"--directory-prefix": true, "--output-dir": true, "--out-dir": true, "--outdir": true, "--target-dir": true,
	"--target-directory": true, "--destination": true, "--dest": true, "--pack-destination": true,
}

// protectedArgs adds, as writes, the words of a segment that name a
// protected path (data.gate.paths.deny, gate's own files) where the
// program may write what it is given: the value of an output option (gcc -o
// .git/hooks/pre-commit, go build -o ..., wget -P .git/hooks, unzip -d,
// --output=FILE) of any program, and the operands of a program that the
// catalogue neither describes as writing (its writes) nor lists as only
// reading them (mytool ~/.bashrc, openssl enc -out .git/config). A
// wrapper's own words are its inner command's, checked there.
func (e *Engine) protectedArgs(in *Input, seg *SegmentInput, base string, known bool, written map[string]bool) {
	if len(e.denyKeys) == 0 || seg.Kind != shellparse.KindCommand || seg.Program == "" || seg.FunctionCall || seg.Wrapper || e.cat == nil {
		return
	}
	spec := e.cat.Programs[seg.Program]
	operands := !(e.cat.Reader(seg.Program) || e.cat.MakesNoFile(seg.Program) || e.cat.DataOperand(seg.Program) ||
		spec != nil && (spec.Writes != nil || spec.SourceFile || spec.Shell != nil))
	id := seg.ID
	n := 0
	check := func(word string, dir bool) {
		if word == "" || n >= maxProtectedArgs || (!known && !filepath.IsAbs(word)) {
			return
		}
		n++
		info := e.resolver.Resolve(base, word)
		if written[info.Resolved] {
			return
		}
		if dir && !strings.HasSuffix(word, "/") {
			info.Raw += "/" // written into: keyed as a directory
		}
		for _, k := range e.pathKeys(info, in) {
			if e.denyKeys[k] {
				pi := in.addPath(e, base, info.Raw, "write", "argument")
				pi.Segment = &id
				written[info.Resolved] = true
				return
			}
		}
		if !dir || !operands {
			return
		}
		// A directory a program that may write anything writes into (tar
		// -C .git -x, unzip -d /): names inside it are only known at run
		// time, and some lead to protected paths below it.
		// (The root itself is where extractors write by default: tar xf in
		// the root is judged by the archive being the project's.)
		var under []string
		if info.Resolved != in.Root {
			under = append(under, strings.TrimSuffix(filepath.ToSlash(info.Resolved), "/")+"/")
		}
		if rel, ok := fstools.Within(e.home, info.Resolved); ok && e.home != "" {
			if rel == "." {
				under = append(under, "~/")
			} else {
				under = append(under, "~/"+filepath.ToSlash(rel)+"/")
			}
		}
		if _, rel, ok := e.workspaceRel(info); ok && rel != "." {
			under = append(under, filepath.ToSlash(rel)+"/")
		}
		for _, k := range under {
			for d := range e.denyKeys {
				if len(d) > len(k) && strings.HasPrefix(d, k) {
					in.Paths = append(in.Paths, PathInput{PathInfo: fstools.PathInfo{Raw: "files under " + word}, Access: "write",
						Source: "argument", Dynamic: true, Segment: &id, Keys: []string{}})
					written[info.Resolved] = true
					return
				}
			}
		}
	}
	// A pattern bash expands to names at run time (.gi?/config): the
	// protected paths it may name count as written.
	dots := in.Shell != nil && dotglobMaybe(in.Shell.Segments)
	pattern := func(word string, dir bool) {
		if n >= maxProtectedArgs || !globPattern(word) {
			return
		}
		n++
		if k := e.patternDenyKey(word, dir, dots, in.Root); k != "" {
			in.Paths = append(in.Paths, PathInput{PathInfo: fstools.PathInfo{Raw: word, Path: word}, Access: "write",
				Source: "argument", Segment: &id, Keys: []string{k}})
		}
	}
	for i := 1; i < len(seg.Argv); i++ {
		a := seg.Argv[i]
		if slices.Contains(seg.Dynamic, i) {
			if operands && !strings.HasPrefix(a, "-") {
				pattern(a, false)
			} else if i > 1 && outputOptions[seg.Argv[i-1]] && !slices.Contains(seg.Dynamic, i-1) {
				pattern(a, true)
			}
			continue
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, v, eq := strings.Cut(a, "=")
		switch {
		case eq:
			check(v, outputOptions[name]) // --output=FILE, and any --opt=PATH
		case outputOptions[name] && i+1 < len(seg.Argv) && !slices.Contains(seg.Dynamic, i+1):
			check(seg.Argv[i+1], true) // -o FILE
		case len(a) > 2 && a[1] != '-' && outputOptions[a[:2]]:
			check(a[2:], true) // -oFILE
		}
	}
	if operands && len(seg.Path) > 1 {
		for _, p := range seg.Path[1:] {
			check(p, false)
		}
	}
}

// globPattern reports a word bash expands as a pattern and nothing else:
// pattern characters, no expansion or quoting.
func globPattern(word string) bool {
	if strings.ContainsAny(word, "$`'\"\\ \t\n<>") {
		return false // expansions, quotes, process substitutions
	}
	return strings.ContainsAny(word, "*?[") || strings.Contains(word, "@(") || strings.Contains(word, "!(")
}

// dotglobMaybe reports whether patterns in the command may match names
// that start with a dot without spelling the dot: shopt -s dotglob (or a
// shopt gate cannot read), or GLOBIGNORE, which turns dotglob on.
func dotglobMaybe(segs []SegmentInput) bool {
	for _, s := range segs {
		if s.Program == "shopt" {
			for i, a := range s.Argv {
				if strings.Contains(a, "dotglob") || slices.Contains(s.Dynamic, i) {
					return true
				}
			}
		}
		for _, a := range s.Assigns {
			if a.Name == "GLOBIGNORE" {
				return true
			}
		}
	}
	return false
}

// patternDenyKey returns a key of data.gate.paths.deny (relative to the
// root) that a path pattern may match, as a file, or as a directory it
// writes into with dir; "" if none. Each element of the pattern is matched
// without regard to case (nocaseglob), and may match a name starting with
// a dot if it spells the dot (also in an extended pattern), or with dots.
//
// A key whose name bash matches without a dot spelled (opencode.json, which
// * matches) counts only where the root holds it: patterns such as * are
// everyday words, and one only expands to names that exist when it runs.
func (e *Engine) patternDenyKey(word string, dir, dots bool, root string) string {
	elems := strings.Split(strings.ToLower(filepath.ToSlash(word)), "/")
	may := func(p, name string) bool {
		// bash matches a leading dot only where the pattern spells it,
		// also inside an extended pattern (@(.git), ?(.)git)
		if strings.HasPrefix(name, ".") && !dots && !strings.HasPrefix(p, ".") && !strings.Contains(p, "(.") && !strings.Contains(p, "|.") {
			return false
		}
		return shellparse.GlobMayMatch(p, name)
	}
	for _, k := range e.rootDenyKeys {
		if !strings.HasPrefix(k.elems[0], ".") {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(k.key, "/")))); err != nil {
				continue
			}
		}
		// the key's elements as a run of the pattern's: its last ones for
		// a file, any run for a directory the pattern leads into
		for start := 0; start+len(k.elems) <= len(elems); start++ {
			if !k.dir && !dir && start+len(k.elems) != len(elems) {
				continue
			}
			ok := true
			for j, c := range k.elems {
				if !may(elems[start+j], c) {
					ok = false
					break
				}
			}
			if ok {
				return k.key
			}
		}
	}
	return ""
}

// denyKey is a key of data.gate.paths.deny relative to the root, split
// into its elements (lower case) for matching patterns.
type denyKey struct {
	key   string
	elems []string
	dir   bool
}

// rootDenyKeys returns the relative keys of deny, files before
// directories and longer before shorter: a pattern's message names what
// it most likely means.
func rootDenyKeys(deny map[string]bool) []denyKey {
	var out []denyKey
	for _, k := range slices.Sorted(maps.Keys(deny)) {
		if strings.HasPrefix(k, "/") || strings.HasPrefix(k, "~") {
			continue
		}
		out = append(out, denyKey{key: k, elems: strings.Split(strings.ToLower(strings.TrimSuffix(k, "/")), "/"), dir: strings.HasSuffix(k, "/")})
	}
	slices.SortStableFunc(out, func(a, b denyKey) int {
		if a.dir != b.dir {
			if a.dir {
				return 1
			}
			return -1
		}
		return len(b.elems) - len(a.elems)
	})
	return out
}
