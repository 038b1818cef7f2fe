package engine

import (
	"os"
	"syscall"
)

// keyOf names the version of the file fi describes.
func keyOf(fi os.FileInfo) (fileKey, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		ctime: int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec), mtime: int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec)}, true
}
