package main

import (
	"context"
	"log/slog"
	"path/filepath"

	"github.com/gate-dev/gate/server"
)

// hooksDir is where gate serve and gate mcp answer gate hook: the hooks
// directory of gate's state.
func hooksDir() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "hooks"), nil
}

// serveHooks answers gate hook for g on a socket in the hooks directory,
// with token, until ctx ends; wait returns once the socket and its
// identity file are removed. A socket that cannot be made is logged: the
// hooks then compile the policies themselves.
func serveHooks(ctx context.Context, g *server.Gateway, token string, log *slog.Logger) (wait func()) {
	dir, err := hooksDir()
	if err == nil {
		var s *server.HookSocket
		if s, err = server.ListenHook(dir); err == nil {
			done := make(chan struct{})
			go func() {
				defer close(done)
				server.ServeHooks(ctx, s, g, server.HandlerOptions{Token: token}, log)
			}()
			log.Info("answering gate hook", "socket", s.Path())
			return func() { <-done }
		}
	}
	log.Warn("not answering gate hook (hooks will compile the policies themselves)", "err", err)
	return func() {}
}
