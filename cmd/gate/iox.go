package main

import (
	"errors"
	"io"
	"strings"
)

// readCloser and writeCloser adapt the injected standard streams to the
// io.ReadCloser / io.WriteCloser the MCP transport wants; closing them does
// not close gate's own stdin and stdout.
type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }

func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "connection closed")
}
