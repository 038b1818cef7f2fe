package engine

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// identities recognises programs by their file, so that a link to or a
// copy of an excluded program is judged as that program.
type identities struct {
	names []string
	once  sync.Once
	known []knownProgram
}

type knownProgram struct {
	name string
	info os.FileInfo
	sum  []byte
}

func newIdentities(names []string) *identities {
	return &identities{names: names}
}

func (ids *identities) load() {
	for _, name := range ids.names {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		p, err = filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		ids.known = append(ids.known, knownProgram{name: name, info: fi, sum: fileSum(p)})
	}
}

// any reports whether there are programs to recognise.
func (ids *identities) any() bool { return ids != nil && len(ids.names) > 0 }

// identify returns the name of the known program at path (the same file or
// a copy of it), or "".
func (ids *identities) identify(path string) string {
	if ids == nil || len(ids.names) == 0 {
		return ""
	}
	ids.once.Do(ids.load)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	var sum []byte
	for _, k := range ids.known {
		if os.SameFile(fi, k.info) {
			return k.name
		}
		if fi.Size() != k.info.Size() || k.sum == nil {
			continue
		}
		if sum == nil {
			sum = fileSum(path)
		}
		if sum != nil && bytes.Equal(sum, k.sum) {
			return k.name
		}
	}
	return ""
}

func fileSum(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	return h.Sum(nil)
}
