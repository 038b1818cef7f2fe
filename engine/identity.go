package engine

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// identities recognises programs by their file, so that a link to or a
// copy of an excluded program is judged as that program: the same file,
// the same content, or an ELF program with the same GNU build ID (a copy
// with bytes appended or a string changed is still rm's code).
type identities struct {
	names []string
	once  sync.Once
	known []knownProgram

	mu    sync.Mutex
	cache map[fileKey]string // by file version: the identity found
}

type knownProgram struct {
	name    string
	info    os.FileInfo
	sum     []byte
	buildID []byte
}

// fileKey names one version of a file: a write changes its ctime.
type fileKey struct {
	dev, ino     uint64
	size         int64
	ctime, mtime int64
}

// maxIdentityCache bounds the identities remembered; the cache starts
// again when full.
const maxIdentityCache = 1024

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
		ids.known = append(ids.known, knownProgram{name: name, info: fi, sum: fileSum(p), buildID: gnuBuildID(p)})
	}
}

// any reports whether there are programs to recognise.
func (ids *identities) any() bool { return ids != nil && len(ids.names) > 0 }

// identify returns the name of the known program at path (the same file, a
// copy of it, or a program built from the same code), or "".
func (ids *identities) identify(path string) string {
	if ids == nil || len(ids.names) == 0 {
		return ""
	}
	ids.once.Do(ids.load)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	for _, k := range ids.known {
		if os.SameFile(fi, k.info) {
			return k.name
		}
	}
	key, keyed := keyOf(fi)
	if keyed {
		ids.mu.Lock()
		name, ok := ids.cache[key]
		ids.mu.Unlock()
		if ok {
			return name
		}
	}
	name := ids.compare(path, fi)
	if keyed {
		ids.mu.Lock()
		if ids.cache == nil || len(ids.cache) >= maxIdentityCache {
			ids.cache = map[fileKey]string{}
		}
		ids.cache[key] = name
		ids.mu.Unlock()
	}
	return name
}

// compare reads the file at path: its content, for a known program of the
// same size, and its build ID.
func (ids *identities) compare(path string, fi os.FileInfo) string {
	var sum, id []byte
	readID := false
	for _, k := range ids.known {
		if fi.Size() == k.info.Size() && k.sum != nil {
			if sum == nil {
				sum = fileSum(path)
			}
			if sum != nil && bytes.Equal(sum, k.sum) {
				return k.name
			}
		}
		if k.buildID == nil {
			continue
		}
		if !readID {
			id, readID = gnuBuildID(path), true
		}
		if id != nil && bytes.Equal(id, k.buildID) {
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

// maxNote bounds the note segment read for a build ID.
const maxNote = 64 << 10

// gnuBuildID returns the GNU build ID of the ELF program at path (the
// NT_GNU_BUILD_ID note of a PT_NOTE segment), or nil.
func gnuBuildID(path string) []byte {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE || p.Filesz == 0 || p.Filesz > maxNote {
			continue
		}
		data := make([]byte, p.Filesz)
		if _, err := p.ReadAt(data, 0); err != nil {
			continue
		}
		if id := noteBuildID(data, f.ByteOrder); id != nil {
			return id
		}
	}
	return nil
}

// noteBuildID finds the NT_GNU_BUILD_ID note ("GNU", type 3) in a note
// segment: entries of namesz, descsz, type, then name and desc, each
// padded to 4 bytes.
func noteBuildID(data []byte, bo binary.ByteOrder) []byte {
	const ntGNUBuildID = 3
	for len(data) >= 12 {
		namesz, descsz, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
		data = data[12:]
		nameEnd := uint64(namesz+3) &^ 3
		descEnd := nameEnd + uint64(descsz+3)&^3
		if uint64(len(data)) < descEnd || uint64(namesz) > nameEnd || uint64(descsz) > descEnd-nameEnd {
			return nil
		}
		if typ == ntGNUBuildID && namesz == 4 && string(data[:4]) == "GNU\x00" && descsz > 0 {
			return append([]byte(nil), data[nameEnd:nameEnd+uint64(descsz)]...)
		}
		data = data[descEnd:]
	}
	return nil
}
