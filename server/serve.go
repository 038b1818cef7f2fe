package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// DefaultShutdownTimeout is how long in-flight calls may take to finish
// once the server is asked to stop.
const DefaultShutdownTimeout = 30 * time.Second

// ServeOptions configure Serve.
type ServeOptions struct {
	// ShutdownTimeout bounds how long in-flight calls may run on after ctx
	// ends; zero means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	Log             *slog.Logger
}

// Serve serves h on ln until ctx ends. It then stops accepting, lets
// in-flight calls finish up to the shutdown timeout, cancels those still
// running (the runner ends their process groups) and stops every background
// process group of g's runner.
func Serve(ctx context.Context, ln net.Listener, g *Gateway, h http.Handler, opts ServeOptions) error {
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	base, cancelCalls := context.WithCancel(context.Background())
	defer cancelCalls()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// Above the handler's own bound, so that headers between the two
		// get the handler's JSON 431 (no WriteTimeout or ReadTimeout: a
		// call may run for minutes; the handler bounds body reads).
		MaxHeaderBytes: ServerMaxHeaderBytes,
		IdleTimeout:    2 * time.Minute,
		BaseContext:    func(net.Listener) context.Context { return base },
		ErrorLog:       slog.NewLogLogger(opts.Log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	opts.Log.Info("shutting down", "timeout", opts.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	err := srv.Shutdown(sctx)
	cancel()
	if errors.Is(err, context.DeadlineExceeded) {
		opts.Log.Warn("in-flight calls did not finish in time; stopping them")
		cancelCalls()
		// The runner needs its kill grace period to end the groups.
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = srv.Shutdown(sctx)
		cancel()
		if err != nil {
			srv.Close()
		}
	}
	rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	g.runner.Shutdown(rctx)
	cancel()
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
