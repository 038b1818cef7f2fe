//go:build !linux

package engine

import "os"

// keyOf: elsewhere identities are not cached (the exec layer, which asks
// for one at every exec, is Linux's).
func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
