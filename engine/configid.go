package engine

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The identity of a configuration names everything a decision depends on
// besides the call, so that two gate processes with the same identity
// decide every call alike: a gate hook may then ask a running gate serve
// instead of compiling the policies itself.

// identityVersion changes when what the identity covers changes.
const identityVersion = "gate-identity-1"

// Bounds of the policy directories an identity reads.
const (
	maxIdentityFiles = 10000
	maxIdentityBytes = 256 << 20
)

// IdentityExcluded are the Options fields an identity does not cover, with
// why: they do not change a decision, or are given with each decision.
// Every other field is covered (TestIdentityCoversOptions checks that each
// field is one or the other).
var IdentityExcluded = map[string]string{
	"Layers":             "given with each decision (Engine.Scoped): a hook's static-only layers differ from a server's",
	"CacheEntries":       "the cache holds the policies' own answers, keyed by the whole input",
	"CacheObserver":      "metrics only",
	"ParseCacheObserver": "metrics only",
}

// Identity returns a hash of everything in the options that changes a
// decision, besides the fields in IdentityExcluded, and of the process
// state the engine reads: the build of the running binary (which embeds
// the default policies and the engine's code), the content of every file
// in the policy directories, $PATH (programs named by exclude entries
// are recognised by their file) and the temporary directory ($TMPDIR).
// Root, home, the temporary directory and protected and secret paths are
// resolved as New resolves them. Nothing is compiled.
func (o Options) Identity() (string, error) {
	build, err := BuildID()
	if err != nil {
		return "", err
	}
	root := o.Root
	if root == "" {
		root = "."
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	home := o.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		if real, err := filepath.EvalSymlinks(home); err == nil {
			home = real
		}
	}
	timeout := o.EvalTimeout
	if timeout <= 0 {
		timeout = DefaultEvalTimeout
	}
	policies, err := hashPolicyDirs(o.PolicyDirs)
	if err != nil {
		return "", err
	}
	token := sha256.Sum256([]byte(o.Remote.Token))
	doc := struct {
		Version     string
		Build       string
		Settings    Settings
		Root, Home  string
		Policies    []string
		Protected   map[string]string
		Secret      map[string]string
		EvalTimeout time.Duration
		Remote      [3]string
		Limits      any
		Path        string
		Temp        string
	}{identityVersion, build, o.Settings, root, home, policies, absPathKeys(o.Protected), absPathKeys(o.Secret), timeout,
		[3]string{o.Remote.URL, fmt.Sprint(o.Remote.KeepSettings), hex.EncodeToString(token[:])}, o.Limits, os.Getenv("PATH"),
		tempDir(o.TempDir, home, root)}
	bs, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(bs)
	return hex.EncodeToString(sum[:]), nil
}

// hashPolicyDirs names each policy directory by its absolute path and a
// hash of its files' names and contents.
func hashPolicyDirs(dirs []string) ([]string, error) {
	out := make([]string, 0, len(dirs))
	files, size := 0, int64(0)
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		err = filepath.WalkDir(abs, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !de.Type().IsRegular() {
				return nil
			}
			if files++; files > maxIdentityFiles {
				return fmt.Errorf("more than %d files in the policy directories", maxIdentityFiles)
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			rel, _ := filepath.Rel(abs, p)
			fmt.Fprintf(h, "%q\n", rel)
			n, err := io.Copy(h, io.LimitReader(f, maxIdentityBytes-size+1))
			if size += n; size > maxIdentityBytes {
				return fmt.Errorf("more than %d bytes in the policy directories", maxIdentityBytes)
			}
			fmt.Fprintf(h, "\n%d\n", n)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("policy directory %s: %w", d, err)
		}
		out = append(out, abs+"\x00"+hex.EncodeToString(h.Sum(nil)))
	}
	sort.Strings(out)
	return out, nil
}

var buildID struct {
	once sync.Once
	id   string
	err  error
}

// BuildID names the running binary: the Go build ID in its ELF note, which
// changes with any change to its code or embedded files, or else a hash of
// the whole file.
func BuildID() (string, error) {
	buildID.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			buildID.err = err
			return
		}
		if id := elfBuildID(exe); id != "" {
			buildID.id = "go:" + id
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			buildID.err = err
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			buildID.err = err
			return
		}
		buildID.id = "sha256:" + hex.EncodeToString(h.Sum(nil))
	})
	return buildID.id, buildID.err
}

// elfBuildID reads the Go build ID note of an ELF file, or "".
func elfBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	bs, err := s.Data()
	if err != nil || len(bs) < 16 {
		return ""
	}
	// namesz, descsz, type, "Go\x00\x00", then the ID.
	desc := f.ByteOrder.Uint32(bs[4:])
	if string(bs[12:16]) != "Go\x00\x00" || int(desc) > len(bs)-16 || desc == 0 {
		return ""
	}
	id := string(bs[16 : 16+desc])
	if strings.TrimSpace(id) == "" {
		return ""
	}
	return id
}

// errNoIdentity is the identity error of an engine built on policies not
// read from its options (bundles).
var errNoIdentity = errors.New("the engine's policies do not come from its options alone")

// Identity returns the identity of the options the engine was built with
// (see Options.Identity), computed when it was built; an engine built with
// NewWithPolicies (bundles) has none.
func (e *Engine) Identity() (string, error) {
	if e.identity == "" {
		if e.identityErr != nil {
			return "", e.identityErr
		}
		return "", errNoIdentity
	}
	return e.identity, nil
}
