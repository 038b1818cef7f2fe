package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMCPLine bounds one line (one JSON-RPC message) read by the stdio
// transport, as the SDK's own bound does.
const MaxMCPLine = mcp.DefaultMaxLineLength

// StdioTransport returns the transport of gate mcp: newline-delimited
// JSON-RPC on r and w, as the SDK's IOTransport speaks it, except that a
// line that is not a JSON-RPC message (or batch) gets a JSON-RPC error
// response and is skipped, where the SDK would end the session: -32700 with
// id null for a line that is not JSON, -32600 for JSON that is not a
// message, a batch after a protocol without batching, or a line over
// MaxMCPLine.
func StdioTransport(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	lw := &lineWriter{w: w}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(filterMessages(r, pw, lw))
		r.Close()
	}()
	return &mcp.IOTransport{Reader: pr, Writer: lw}
}

// lineWriter serializes writes, so that an error response written by the
// filter never cuts into a message the SDK writes (the SDK writes each
// message, newline included, in one Write).
type lineWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return l.w.Close() }

// filterMessages copies the JSON-RPC messages of r to out, one per line,
// and answers the lines that are not messages on w.
func filterMessages(r io.Reader, out io.Writer, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	batching := true // until the client asks for a protocol without it
	for {
		line, tooLong, err := readLine(br, MaxMCPLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if resp := checkMessage(line, tooLong, &batching); resp != nil {
				if _, werr := w.Write(resp); werr != nil {
					return werr
				}
			} else if _, werr := out.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line without its line ending; a line over max is
// read to its end and reported too long, without its text.
func readLine(br *bufio.Reader, max int) ([]byte, bool, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimRight(line, "\r\n")
		return line, tooLong, err
	}
}

// protocolNoBatch is the first MCP protocol version without JSON-RPC
// batches; the SDK ends the session on a batch from then on.
const protocolNoBatch = "2025-06-18"

// checkMessage returns the error response to a line that the SDK cannot
// read as a message, or nil.
func checkMessage(line []byte, tooLong bool, batching *bool) []byte {
	if tooLong {
		return errorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: a message longer than %d bytes", MaxMCPLine))
	}
	if !json.Valid(line) {
		return errorResponse(nil, jsonrpc.CodeParseError, "Parse error: the line is not one JSON value")
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		switch {
		case len(batch) == 0:
			return errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch")
		case !*batching:
			return errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported from protocol "+protocolNoBatch+" on")
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return errorResponse(idOf(m), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
			}
		}
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return errorResponse(idOf(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		*batching = p.ProtocolVersion != "" && p.ProtocolVersion < protocolNoBatch
	}
	return nil
}

// idOf returns the id of a message that could not be read, when it is a
// valid id (a string or a number), or nil.
func idOf(raw []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	switch m.ID.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

func errorResponse(id any, code int64, msg string) []byte {
	bs, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(bs, '\n')
}
