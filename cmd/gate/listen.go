package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gate-dev/gate/engine"
)

// isUnixListen reports whether a --listen address names a unix socket
// (unix:PATH).
func isUnixListen(addr string) bool { return strings.HasPrefix(addr, "unix:") }

// unixSocketPath is the absolute path of a unix:PATH address, "" for any
// other.
func unixSocketPath(addr string) string {
	if !isUnixListen(addr) {
		return ""
	}
	p := strings.TrimPrefix(addr, "unix:")
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return abs
}

// listen listens on a TCP address, or on a unix socket for unix:PATH. The
// socket file is made with mode 0600 (only its owner may connect); a stale
// one left by a gate that died is removed, and the listener removes the
// file when it is closed.
func listen(addr string) (net.Listener, error) {
	if !isUnixListen(addr) {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "listen", Err: err}
		}
		return ln, nil
	}
	path := strings.TrimPrefix(addr, "unix:")
	if path == "" {
		return nil, usagef("--listen unix:PATH needs a path")
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: fmt.Sprintf("listen: %s exists and is not a socket", path)}
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: fmt.Sprintf("listen: a server is already listening on %s", path)}
		}
		if err := os.Remove(path); err != nil {
			return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "listen: removing a stale socket", Err: err}
		}
	}
	restore := privateUmask()
	ln, err := net.Listen("unix", path)
	restore()
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "listen", Err: err}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, &engine.Error{Code: engine.CodeBadSettings, Message: "listen", Err: err}
	}
	return ln, nil
}

// listenURL names where a listener serves, for the log.
func listenURL(ln net.Listener) string {
	if ln.Addr().Network() == "unix" {
		return "unix:" + ln.Addr().String()
	}
	return "http://" + ln.Addr().String()
}
