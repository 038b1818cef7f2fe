//go:build linux

package supervise

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The dynamic loader run as a program loads the program its argument
// names, which no exec shows: the loaded program is what runs (Loaded).
// The loader is known by its name (isLoader), and by its content: a copy
// under another name (cp /lib64/ld-linux-x86-64.so.2 ./myld; ./myld
// /usr/bin/rm v ran rm undecided: rt30), or run from a memfd, is the same
// file. A copy with bytes changed is a program of its own, as any program
// that maps another's code without exec (a limit of the exec layer).

// loaderGlobs are where C libraries install their loaders.
var loaderGlobs = []string{
	"/lib*/ld-linux*.so*", "/lib/*/ld-linux*.so*", "/usr/lib*/ld-linux*.so*", "/usr/lib/*/ld-linux*.so*",
	"/lib*/ld-musl-*.so*", "/usr/lib*/ld-musl-*.so*", "/lib*/ld64.so*", "/usr/lib*/ld64.so*",
}

// loaderFile is one installed loader: its size and content hash.
type loaderFile struct {
	size int64
	sum  [sha256.Size]byte
}

// installedLoaders are the machine's loaders, read once.
var installedLoaders = sync.OnceValue(func() []loaderFile {
	seen := map[string]bool{}
	var out []loaderFile
	for _, g := range loaderGlobs {
		matches, _ := filepath.Glob(g)
		for _, m := range matches {
			p, err := filepath.EvalSymlinks(m)
			if err != nil || seen[p] {
				continue
			}
			seen[p] = true
			if f, ok := fileSum(p); ok {
				out = append(out, f)
			}
		}
	}
	return out
})

// maxLoaderSize bounds what is hashed: loaders are a few hundred KB.
const maxLoaderSize = 16 << 20

// fileSum hashes the regular file at p.
func fileSum(p string) (loaderFile, bool) {
	f, err := os.Open(p)
	if err != nil {
		return loaderFile{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLoaderSize {
		return loaderFile{}, false
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxLoaderSize)); err != nil {
		return loaderFile{}, false
	}
	lf := loaderFile{size: fi.Size()}
	copy(lf.sum[:], h.Sum(nil))
	return lf, true
}

// isLoaderCopy reports whether the file exe names (/proc/PID/exe: the file
// the kernel loaded, even deleted or a memfd) has the content of an
// installed loader. Only a file of a loader's size is read.
func isLoaderCopy(exe string) bool {
	loaders := installedLoaders()
	fi, err := os.Stat(exe)
	if err != nil {
		return false
	}
	sized := false
	for _, l := range loaders {
		sized = sized || l.size == fi.Size()
	}
	if !sized {
		return false
	}
	f, ok := fileSum(exe)
	if !ok {
		return false
	}
	for _, l := range loaders {
		if l.size == f.size && bytes.Equal(l.sum[:], f.sum[:]) {
			return true
		}
	}
	return false
}
