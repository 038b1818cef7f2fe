//go:build unix

package fstools

import (
	"os"
	"syscall"
)

// linkCount is fi's number of hard links, 1 when the system does not say.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
