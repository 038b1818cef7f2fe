//go:build !unix

package fstools

import "os"

// linkCount is 1 where the system does not report hard links.
func linkCount(os.FileInfo) uint64 { return 1 }
