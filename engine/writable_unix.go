//go:build unix

package engine

import "golang.org/x/sys/unix"

// writable reports whether this process may write the file at path
// (permissions, a read-only file system, an immutable file), without
// opening it.
func writable(path string) bool {
	return unix.Access(path, unix.W_OK) == nil
}
