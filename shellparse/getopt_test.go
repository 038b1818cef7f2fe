package shellparse

import (
	"slices"
	"strings"
	"testing"
)

// TestReadOptions reads command lines with the catalogue's getopt
// specifications, as the program would: values attached or in the next
// word, optional ones only attached, long options abbreviated, and no
// reading past the first operand or --.
func TestReadOptions(t *testing.T) {
	c, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv  string
		opts  []ArgOption
		first int
		ok    bool
	}{
		{"xargs -0 chmod 600", []ArgOption{{Name: "-0"}}, 2, true},
		{"xargs -0r -I{} cp {} d", []ArgOption{{Name: "-0"}, {Name: "-r"}, {Name: "-I", Value: "{}", HasValue: true}}, 3, true},
		{"xargs -I @ cp @ d", []ArgOption{{Name: "-I", Value: "@", HasValue: true}}, 3, true},
		{"xargs -i cp {} d", []ArgOption{{Name: "-i"}}, 2, true},
		{"xargs -iR cp R d", []ArgOption{{Name: "-i", Value: "R", HasValue: true}}, 2, true},
		{"xargs --nul --repl=R cp R d", []ArgOption{{Name: "--null"}, {Name: "--replace", Value: "R", HasValue: true}}, 3, true},
		{"xargs --max-args 2 -- rm -f", []ArgOption{{Name: "--max-args", Value: "2", HasValue: true}}, 4, true},
		{"xargs -n1 rm -f", []ArgOption{{Name: "-n", Value: "1", HasValue: true}}, 2, true},
		{"xargs rm -f", nil, 1, true},
		// getopt refuses these, so gate does not read them
		{"xargs -I", nil, 0, false},
		{"xargs --frob rm", nil, 0, false},
		{"xargs --null=x rm", nil, 0, false},
		{"xargs --max rm", nil, 0, false}, // --max-args, --max-chars, ...: ambiguous
		// programs without a specification that stops at its first
		// operand, or without one at all
		{"ls -l x", nil, 0, false},
		{"nosuchprogram -x", nil, 0, false},
	} {
		argv := strings.Fields(tc.argv)
		opts, first, ok := c.ReadOptions(argv[0], argv)
		if ok != tc.ok || ok && (first != tc.first || !slices.Equal(opts, tc.opts)) {
			t.Errorf("ReadOptions(%q) = %v, %d, %v; want %v, %d, %v", tc.argv, opts, first, ok, tc.opts, tc.first, tc.ok)
		}
	}
}
