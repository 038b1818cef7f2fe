//go:build linux

package supervise

import (
	"debug/elf"
	"path"
	"strings"
)

// The dynamic loader run as a program loads the program its argument
// names, which no exec shows: the loaded program is what runs (Loaded).
// The loader is known by its name (isLoader), and by what its file is: a
// copy under another name (cp /lib64/ld-linux-x86-64.so.2 ./myld; ./myld
// /usr/bin/rm v ran rm undecided: rt30), with bytes appended (rt32), or run
// from a memfd is still a shared object that needs no interpreter and
// calls itself ld-linux*.so* (its DT_SONAME). One whose name inside was
// edited too is a program of its own, as any program that maps another's
// code without exec (a limit of the exec layer).

// isLoaderFile reports whether the ELF file at p (/proc/PID/exe: the file
// the kernel loaded, even deleted or a memfd) is a dynamic loader: a
// position-independent executable without PT_INTERP whose DT_SONAME is a
// loader's name.
func isLoaderFile(p string) bool {
	f, err := elf.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	if f.Type != elf.ET_DYN {
		return false
	}
	for _, ph := range f.Progs {
		if ph.Type == elf.PT_INTERP {
			return false // a program the loader runs, not the loader
		}
	}
	names, err := f.DynString(elf.DT_SONAME)
	if err != nil {
		return false
	}
	for _, n := range names {
		if isLoader(n) || strings.HasPrefix(path.Base(n), "ld-") {
			return true
		}
	}
	return false
}
