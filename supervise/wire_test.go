package supervise

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

func sampleExec() execMsg {
	return execMsg{Seq: 42, Exec: Exec{
		Program: "/w/x.py", Exe: "/usr/bin/python3", Argv: []string{"/usr/bin/python3", "./x.py", "\xff\x00bin"},
		Cwd: "/w", PID: 100, PPID: 99, Depth: 2, Script: "/w/x.py", ParentProgram: "/usr/bin/bash", ByShell: true,
	}}
}

func TestWireRoundTrip(t *testing.T) {
	frames := [][]byte{
		encodeConfig(config{Path: "/bin/bash", Args: []string{"bash", "-c", "ls"}, ExtraFiles: 2, DecideRoot: true, Confine: []byte(`{"w":1}`)}),
		encodeVerdict(verdictMsg{Seq: 7, Allow: true}),
		encodeExec(msgExec, sampleExec()),
		encodeInt(msgExit, 0x0f00),
		encodeInts(msgPIDList, []int{1, 2, 1 << 22}),
		encodeText(msgFailed, "no such file"),
	}
	r := bytes.NewReader(bytes.Join(frames, nil))
	var buf []byte
	for i := range frames {
		typ, p, b, err := readFrame(r, buf)
		buf = b
		if err != nil {
			t.Fatal(i, err)
		}
		var got any
		switch typ {
		case msgConfig:
			got, err = decodeConfig(p)
		case msgVerdict:
			got, err = decodeVerdict(p)
		case msgExec:
			var m execMsg
			m, err = decodeExec(p)
			if !reflect.DeepEqual(m, sampleExec()) {
				t.Errorf("exec %+v", m)
			}
			got = m
		case msgExit:
			got, err = decodeInt(p)
		case msgPIDList:
			got, err = decodeInts(p)
		case msgFailed:
			got, err = decodeText(p)
		}
		if err != nil {
			t.Fatalf("frame %d (%d): %v → %v", i, typ, got, err)
		}
	}
	if _, _, _, err := readFrame(r, buf); err != io.EOF {
		t.Errorf("after the last frame: %v", err)
	}
}

func TestWireRejects(t *testing.T) {
	good := encodeExec(msgExec, sampleExec())
	for name, b := range map[string][]byte{
		"zero length":   {0, 0, 0, 0},
		"too long":      {0xff, 0xff, 0xff, 0x7f},
		"unknown type":  {1, 0, 0, 0, 99},
		"short body":    good[:len(good)-3],
		"length beyond": append([]byte{6, 0, 0, 0}, byte(msgExec), 1, 2, 200, 1, 1),
	} {
		typ, p, _, err := readFrame(bytes.NewReader(b), nil)
		if err == nil {
			_, err = decodeExec(p)
		}
		if err == nil {
			t.Errorf("%s: accepted as %d", name, typ)
		}
	}
	// A count of arguments larger than the frame is refused before any
	// allocation.
	e := newEnc(msgExec)
	for range 6 {
		e.uint(1)
	}
	e.uint(0)
	e.uint(0)
	e.uint(0)
	e.str("")
	e.str("")
	e.uint(1 << 40)
	if _, _, _, err := readFrame(bytes.NewReader(e.frame()), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeExec(e.b[5:]); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("huge argc: %v", err)
	}
}

// FuzzFrame feeds the parent's parser (frames come from the helper, which
// runs next to untrusted code) arbitrary bytes: it must not panic, and
// what it accepts must encode back to the same bytes.
func FuzzFrame(f *testing.F) {
	f.Add(encodeExec(msgExec, sampleExec()))
	f.Add(encodeInts(msgPIDList, []int{3, 4}))
	f.Add(encodeInt(msgExit, 9))
	f.Add(encodeText(msgFailed, "x"))
	f.Add(encodeVerdict(verdictMsg{Seq: 1}))
	f.Add(encodeConfig(config{Path: "/bin/sh", Args: []string{"sh"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		typ, p, _, err := readFrame(bytes.NewReader(b), nil)
		if err != nil {
			return
		}
		frame := b[:4+1+len(p)]
		switch typ {
		case msgExec, msgAllowed:
			m, err := decodeExec(p)
			if err == nil && !bytes.Equal(encodeExec(typ, m), frame) {
				t.Fatalf("exec %+v does not round-trip", m)
			}
		case msgPIDList:
			l, err := decodeInts(p)
			if err == nil && !bytes.Equal(encodeInts(typ, l), frame) {
				t.Fatalf("pids %v do not round-trip", l)
			}
		case msgExit, msgStarted:
			v, err := decodeInt(p)
			if err == nil && !bytes.Equal(encodeInt(typ, v), frame) {
				t.Fatalf("int %d does not round-trip", v)
			}
		case msgFailed:
			s, err := decodeText(p)
			if err == nil && !bytes.Equal(encodeText(typ, s), frame) {
				t.Fatalf("text %q does not round-trip", s)
			}
		case msgVerdict:
			_, _ = decodeVerdict(p)
		case msgConfig:
			_, _ = decodeConfig(p)
		}
	})
}
