package engine

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/shellparse"
)

// Secret paths (gate's state directory, which holds the server's bearer
// token) may be neither read nor written: an agent that reads the token
// can approve its own calls. Writes reach the policy as every written path
// does; reads are added to input.paths here, only for the paths that touch
// a secret, so that the input of an ordinary command stays as it was:
//
//   - the file tools' paths (read_file, list_directory, glob, grep_search)
//     are always in input.paths; a grep_search of a directory holding a
//     secret reads it too, and gets a path for the secret;
//   - a shell segment's words (every argument, the value after "=" of an
//     argument or option, assignments, input redirections) that name a
//     path inside a secret, symlinks followed;
//   - a word only known at run time (a glob, a variable) whose known
//     leading directory is inside a secret, or above one and deep enough
//     to reach into it ($HOME and ~ are known).
//
// The rule deciding them is policies/gate/rules/paths.rego (path_protected).

// secretPath is a secret's absolute, resolved path.
type secretPath struct {
	path string
	dir  bool
}

// absPathKeys makes paths absolute with every symlink resolved; a
// directory (one that exists, or a path ending in "/") is also keyed with
// a trailing "/", which is how data.gate.paths keys name directories.
func absPathKeys(paths map[string]string) map[string]string {
	out := map[string]string{}
	for p, why := range paths {
		dir := strings.HasSuffix(p, "/")
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			dir = true
		}
		if dir {
			out[abs+"/"] = why
		}
		out[abs] = why
	}
	return out
}

// secretPaths lists the secrets of Options.Secret (already absolute keys)
// and of data.gate.paths.secret (absolute or "~/" keys; others are matched
// by the policy's keys only).
func secretPaths(opts, data map[string]string, home string) []secretPath {
	byPath := map[string]bool{}
	for k := range opts {
		p := strings.TrimSuffix(k, "/")
		byPath[p] = byPath[p] || strings.HasSuffix(k, "/")
	}
	for k := range data {
		p := k
		switch {
		case strings.HasPrefix(k, "~/") && home != "":
			p = filepath.Join(home, k[2:])
		case !filepath.IsAbs(k):
			continue
		}
		dir := strings.HasSuffix(k, "/")
		p = filepath.Clean(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		byPath[p] = byPath[p] || dir
	}
	out := make([]secretPath, 0, len(byPath))
	for p, dir := range byPath {
		if p == "/" || p == "" {
			continue
		}
		out = append(out, secretPath{path: p, dir: dir})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// secretWithin is the secret that path is (or is under), if any.
func (e *Engine) secretWithin(path string) (secretPath, bool) {
	for _, s := range e.secrets {
		if _, ok := fstools.Within(s.path, path); ok {
			return s, true
		}
	}
	return secretPath{}, false
}

// addSecretReach adds a read of secret s that raw may reach.
func (in *Input) addSecretReach(e *Engine, s secretPath, raw, source string, segment *int) {
	info := e.resolver.Resolve("", s.path)
	info.Raw = raw
	info.Dir = info.Dir || s.dir
	in.Paths = append(in.Paths, PathInput{PathInfo: info, Access: "read", Source: source, Dynamic: true, Segment: segment, Keys: e.pathKeys(info, in)})
}

// grepSecrets adds the secrets under the directory a grep_search reads.
func (e *Engine) grepSecrets(in *Input, dir fstools.PathInfo) {
	if !dir.Dir {
		return
	}
	for _, s := range e.secrets {
		for _, p := range []string{dir.Resolved, dir.Path} {
			if rel, ok := fstools.Within(p, s.path); ok && rel != "." {
				in.addSecretReach(e, s, dir.Raw, "path", nil)
				break
			}
		}
	}
}

// secretReads adds the reads of secrets by a shell segment's words; base
// is the segment's directory, when known.
func (e *Engine) secretReads(in *Input, seg *SegmentInput, base string, known bool) {
	if len(e.secrets) == 0 {
		return
	}
	id := seg.ID
	check := func(w shellparse.Word, source string) {
		if w.Value == "" {
			return
		}
		value, dynamic := w.Value, w.Dynamic
		if dynamic {
			value, dynamic = e.knownWord(value)
		}
		if !dynamic {
			if !known && !filepath.IsAbs(value) {
				return
			}
			e.secretWord(in, base, value, source, &id)
			return
		}
		e.secretPattern(in, base, known, w.Value, value, source, &id)
	}
	for i, a := range seg.Argv {
		if i == 0 && !strings.Contains(a, "/") {
			continue // a program name is looked up on PATH and run, not read
		}
		dyn := slices.Contains(seg.Dynamic, i)
		if !strings.HasPrefix(a, "-") { // an option names no file, but its value may
			check(shellparse.Word{Value: a, Dynamic: dyn}, "argument")
		}
		if _, v, ok := strings.Cut(a, "="); ok {
			check(shellparse.Word{Value: v, Dynamic: dyn}, "argument")
		}
	}
	for _, as := range seg.Assigns {
		check(shellparse.Word{Value: as.Value, Dynamic: as.Dynamic}, "argument")
	}
	for _, r := range seg.Reads {
		check(shellparse.Word{Value: r}, "argument")
	}
	for _, r := range seg.Redirects {
		if !r.Write && !r.Dup && r.Op == "<" {
			check(shellparse.Word{Value: r.Target, Dynamic: r.Dynamic}, "redirect")
		}
	}
}

// secretWord adds a read of a static word that names a path inside a
// secret, lexically or once its symlinks are followed. A word that names
// no existing file is only checked lexically.
func (e *Engine) secretWord(in *Input, base, value, source string, segment *int) {
	abs := value
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, abs)
	}
	abs = filepath.Clean(abs)
	_, inside := e.secretWithin(abs)
	if !inside {
		if _, err := os.Lstat(abs); err != nil {
			return
		}
	}
	info := e.resolver.Resolve(base, value)
	if _, ok := e.secretWithin(info.Resolved); !ok && !inside {
		return
	}
	pi := in.addPath(e, base, value, "read", source)
	pi.Segment = segment
}

// unquote drops the quotes of a word's source (built once: a replacer
// costs more to build than to use).
var unquote = strings.NewReplacer(`"`, "", `'`, "")

// knownWord expands what is known of a dynamic word's source text: quotes
// removed, a leading ~ replaced by the home directory and a leading $NAME
// or ${NAME} by its value in gate's environment, which commands inherit
// ($HOME, $XDG_STATE_HOME). It reports whether the word is still dynamic.
func (e *Engine) knownWord(src string) (string, bool) {
	v := unquote.Replace(src)
	head, tail, _ := strings.Cut(v, "/")
	value := ""
	switch {
	case head == "~":
		value = e.home
	case strings.HasPrefix(head, "${") && strings.HasSuffix(head, "}"):
		value = e.env(head[2 : len(head)-1])
	case strings.HasPrefix(head, "$"):
		value = e.env(head[1:])
	}
	if head == "$HOME" || head == "${HOME}" {
		value = e.home
	}
	if filepath.IsAbs(value) {
		v = value
		if tail != "" || strings.Contains(src, "/") {
			v = value + "/" + tail
		}
	}
	return v, strings.ContainsAny(v, "$`*?[{(\\")
}

// env reads an environment variable of the process the call comes from.
func (e *Engine) env(key string) string {
	if e.getenv != nil {
		return e.getenv(key)
	}
	return os.Getenv(key)
}

// secretPattern adds the secrets a dynamic word may name: its known leading
// directory is inside one, or above one with enough elements after it to
// reach into it (any number when a variable, command substitution or **
// could hold slashes).
func (e *Engine) secretPattern(in *Input, base string, known bool, raw, value, source string, segment *int) {
	cut := strings.IndexAny(value, "$`*?[{(\\")
	lead := value[:cut]
	slash := strings.LastIndex(lead, "/")
	if slash < 0 {
		lead = ""
	} else {
		lead = lead[:slash+1]
	}
	rest := value[len(lead):]
	if lead == "" && strings.ContainsAny(rest, "$`") {
		return // a bare variable: nothing is known of where it points
	}
	dir := lead
	if !filepath.IsAbs(dir) {
		if !known {
			return
		}
		dir = filepath.Join(base, dir)
	}
	dir = filepath.Clean(dir)
	unbounded := strings.ContainsAny(rest, "$`(") || strings.Contains(rest, "**")
	depth := len(strings.Split(strings.Trim(rest, "/"), "/"))
	for _, real := range []string{dir, e.resolver.Resolve("", dir).Resolved} {
		if s, ok := e.secretWithin(real); ok {
			in.addSecretReach(e, s, raw, source, segment)
			return
		}
		for _, s := range e.secrets {
			rel, ok := fstools.Within(real, s.path)
			if !ok || rel == "." {
				continue
			}
			if unbounded || depth >= len(strings.Split(rel, string(filepath.Separator))) {
				in.addSecretReach(e, s, raw, source, segment)
				return
			}
		}
	}
}
