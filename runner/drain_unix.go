//go:build unix

package runner

import (
	"io"
	"os"
	"syscall"
	"time"
)

// drain copies what a non-blocking pipe holds right now into w. It runs
// after a read deadline passed, when the reader may not have been scheduled
// since the command wrote its last output: that output must not be lost.
func drain(f *os.File, w io.Writer) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// rc.Read refuses to run once the deadline has passed; the callback
	// never waits, so clearing it cannot block.
	_ = f.SetReadDeadline(time.Time{})
	buf := make([]byte, 32<<10)
	total := 0
	_ = rc.Read(func(fd uintptr) bool {
		// Bounded: a writer that is still running could refill the pipe
		// forever.
		for total < 16<<20 {
			n, err := syscall.Read(int(fd), buf)
			if n <= 0 || err != nil {
				return true
			}
			total += n
			_, _ = w.Write(buf[:n])
		}
		return true
	})
}
