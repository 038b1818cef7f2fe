package engine

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// note builds one ELF note entry as a linker lays it out.
func note(name string, typ uint32, desc []byte) []byte {
	var b bytes.Buffer
	n := append([]byte(name), 0)
	_ = binary.Write(&b, binary.LittleEndian, [3]uint32{uint32(len(n)), uint32(len(desc)), typ})
	b.Write(n)
	b.Write(make([]byte, (4-len(n)%4)%4))
	b.Write(desc)
	b.Write(make([]byte, (4-len(desc)%4)%4))
	return b.Bytes()
}

func TestNoteBuildID(t *testing.T) {
	id := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	for _, tc := range []struct {
		name string
		data []byte
		want []byte
	}{
		{"alone", note("GNU", 3, id), id},
		{"after an ABI tag", append(note("GNU", 1, []byte{0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}), note("GNU", 3, id)...), id},
		{"another vendor's type 3", note("Go", 3, id), nil},
		{"truncated", note("GNU", 3, id)[:20], nil},
		{"empty", nil, nil},
	} {
		if got := noteBuildID(tc.data, binary.LittleEndian); !bytes.Equal(got, tc.want) {
			t.Errorf("%s: %x, want %x", tc.name, got, tc.want)
		}
	}
}

// FuzzNoteBuildID: a note segment is read from any file a command runs;
// whatever it holds, reading it neither panics nor reads past its end.
func FuzzNoteBuildID(f *testing.F) {
	f.Add(note("GNU", 3, []byte("0123456789abcdefghij")))
	f.Add(append(note("GNU", 1, make([]byte, 16)), note("GNU", 3, []byte{1})...))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0})
	f.Add([]byte{4, 0, 0, 0, 0xfd, 0xff, 0xff, 0xff, 3, 0, 0, 0, 'G', 'N', 'U', 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		id := noteBuildID(data, binary.LittleEndian)
		if len(id) > len(data) {
			t.Fatalf("build ID of %d bytes from %d", len(id), len(data))
		}
	})
}
