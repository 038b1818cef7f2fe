package supervise

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The helper and the parent talk over a stream socket in frames: a 4-byte
// little-endian length, then that many bytes: a type byte and a payload of
// uvarints and length-prefixed byte strings. Strings are raw bytes (argv
// and paths need not be UTF-8), and every length is checked against what is
// left, so a frame from a broken or hostile helper is an error, never a
// panic or a huge allocation.

// maxFrame bounds one frame; maxArgv (the bytes of /proc/PID/cmdline kept)
// is below it so that an exec always fits.
const (
	maxFrame = 4 << 20
	maxArgv  = 3 << 20
	maxArgs  = 1 << 20
)

type msgType byte

// Parent to helper.
const (
	msgConfig  msgType = 1 // the command to start (config)
	msgVerdict msgType = 2 // the answer to an exec (verdict)
	msgSignal  msgType = 3 // send a signal to every traced process
	msgPIDs    msgType = 4 // list the traced processes
)

// Helper to parent.
const (
	msgStarted  msgType = 16 // the command runs: its PID
	msgFailed   msgType = 17 // the command could not start, or the helper failed
	msgExec     msgType = 18 // an exec waiting for its verdict (execMsg)
	msgExit     msgType = 19 // the root command ended: its wait status
	msgPIDList  msgType = 20 // answer to msgPIDs
	msgAllowed  msgType = 21 // an exec allowed without asking (execMsg, Seq 0)
	lastMsgType         = msgAllowed
)

var errFrame = errors.New("supervise: malformed frame")

// config is what the parent sends first: the real command.
type config struct {
	Path       string
	Args       []string
	ExtraFiles int  // files after the socket that the command gets as fd 3, 4, ...
	DecideRoot bool // ask about the root's own exec too
	Confine    []byte
	Prefilter  bool     // ask only about AskNames and (AskByShell) the shell's execs
	AskNames   []string // base names of programs to ask about
	AskByShell bool
	// Transparent are base names of programs that count as the shell's
	// own: a process that the shell ran one of them in stays "by shell".
	Transparent []string
}

type verdictMsg struct {
	Seq   uint64
	Allow bool
}

type execMsg struct {
	Seq  uint64
	Exec Exec
}

type enc struct{ b []byte }

func newEnc(t msgType) *enc { return &enc{b: append(make([]byte, 4, 256), byte(t))} }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int) {
	if v < 0 {
		v = 0
	}
	e.uint(uint64(v))
}
func (e *enc) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}
func (e *enc) str(s string)   { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bytes(s []byte) { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// frame returns the encoded frame, length prefix included.
func (e *enc) frame() []byte {
	binary.LittleEndian.PutUint32(e.b, uint32(len(e.b)-4))
	return e.b
}

type dec struct {
	b   []byte
	err error
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errFrame
	}
	d.b = nil
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	// Only the shortest encoding: one value, one form.
	if n <= 0 || n > 1 && d.b[n-1] == 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a non-negative int that fits in 32 bits (PIDs, depths, counts).
func (d *dec) int() int {
	v := d.uint()
	if v > 1<<31-1 {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *dec) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

func (d *dec) raw() []byte {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *dec) str() string { return string(d.raw()) }

func (d *dec) strs() []string {
	n := d.uint()
	// Each string takes at least one byte: a count above what is left is a lie.
	if n > uint64(len(d.b)) || n > maxArgs {
		d.fail()
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

// end reports the first error, or an error if bytes are left over.
func (d *dec) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errFrame
	}
	return d.err
}

func encodeConfig(c config) []byte {
	e := newEnc(msgConfig)
	e.str(c.Path)
	e.strs(c.Args)
	e.int(c.ExtraFiles)
	e.bool(c.DecideRoot)
	e.bytes(c.Confine)
	e.bool(c.Prefilter)
	e.strs(c.AskNames)
	e.bool(c.AskByShell)
	e.strs(c.Transparent)
	return e.frame()
}

func decodeConfig(p []byte) (config, error) {
	d := &dec{b: p}
	c := config{Path: d.str(), Args: d.strs(), ExtraFiles: d.int(), DecideRoot: d.bool()}
	if cf := d.raw(); len(cf) > 0 {
		c.Confine = append([]byte(nil), cf...)
	}
	c.Prefilter, c.AskNames, c.AskByShell = d.bool(), d.strs(), d.bool()
	c.Transparent = d.strs()
	if err := d.end(); err != nil {
		return config{}, err
	}
	if c.Path == "" || len(c.Args) == 0 || c.ExtraFiles > 1000 {
		return config{}, fmt.Errorf("%w: bad config", errFrame)
	}
	return c, nil
}

func encodeVerdict(v verdictMsg) []byte {
	e := newEnc(msgVerdict)
	e.uint(v.Seq)
	e.bool(v.Allow)
	return e.frame()
}

func decodeVerdict(p []byte) (verdictMsg, error) {
	d := &dec{b: p}
	v := verdictMsg{Seq: d.uint(), Allow: d.bool()}
	return v, d.end()
}

func encodeInt(t msgType, v int) []byte {
	e := newEnc(t)
	e.int(v)
	return e.frame()
}

func decodeInt(p []byte) (int, error) {
	d := &dec{b: p}
	v := d.int()
	return v, d.end()
}

func encodeInts(t msgType, vs []int) []byte {
	e := newEnc(t)
	e.uint(uint64(len(vs)))
	for _, v := range vs {
		e.int(v)
	}
	return e.frame()
}

func decodeInts(p []byte) ([]int, error) {
	d := &dec{b: p}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, errFrame
	}
	vs := make([]int, n)
	for i := range vs {
		vs[i] = d.int()
	}
	return vs, d.end()
}

func encodeText(t msgType, s string) []byte {
	e := newEnc(t)
	e.str(s)
	return e.frame()
}

func decodeText(p []byte) (string, error) {
	d := &dec{b: p}
	s := d.str()
	return s, d.end()
}

func encodeExec(t msgType, m execMsg) []byte {
	e := newEnc(t)
	x := &m.Exec
	e.uint(m.Seq)
	e.int(x.PID)
	e.int(x.PPID)
	e.int(x.Depth)
	e.bool(x.ByShell)
	e.bool(x.Root)
	e.bool(x.Truncated)
	e.str(x.Program)
	e.str(x.Exe)
	e.strs(x.Argv)
	e.str(x.Cwd)
	e.str(x.Script)
	e.str(x.Loaded)
	e.str(x.ParentProgram)
	return e.frame()
}

func decodeExec(p []byte) (execMsg, error) {
	d := &dec{b: p}
	m := execMsg{Seq: d.uint()}
	x := &m.Exec
	x.PID, x.PPID, x.Depth = d.int(), d.int(), d.int()
	x.ByShell, x.Root, x.Truncated = d.bool(), d.bool(), d.bool()
	x.Program, x.Exe = d.str(), d.str()
	x.Argv = d.strs()
	x.Cwd, x.Script, x.Loaded, x.ParentProgram = d.str(), d.str(), d.str(), d.str()
	if err := d.end(); err != nil {
		return execMsg{}, err
	}
	return m, nil
}

// readFrame reads one frame: its type and payload. buf is reused when it is
// big enough; the payload is only valid until the next call.
func readFrame(r io.Reader, buf []byte) (msgType, []byte, []byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, buf, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || n > maxFrame {
		return 0, nil, buf, fmt.Errorf("%w: frame of %d bytes", errFrame, n)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	b := buf[:n]
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, buf, err
	}
	t := msgType(b[0])
	if t == 0 || t > lastMsgType {
		return 0, nil, buf, fmt.Errorf("%w: unknown type %d", errFrame, t)
	}
	return t, b[1:], buf, nil
}
