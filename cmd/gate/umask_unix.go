//go:build unix

package main

import "syscall"

// privateUmask makes files created until restore is called private to
// their owner (a unix socket is created with the umask's mode).
func privateUmask() (restore func()) {
	old := syscall.Umask(0o177)
	return func() { syscall.Umask(old) }
}
