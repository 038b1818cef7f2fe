package shellparse

import (
	"slices"
	"strings"
	"testing"
)

func TestEnvSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil: not modelled
	}{
		{`rm\_victim.txt`, []string{"rm", "victim.txt"}},
		{`\_rm victim.txt`, []string{"rm", "victim.txt"}},
		{`#x`, []string{}},
		{``, []string{}},
		{`\c`, []string{}},
		{`git #`, []string{"git"}},
		{`a\#b`, []string{"a#b"}},
		{`a#b`, []string{"a#b"}},
		{`'a b' "c\_d"`, []string{"a b", "c d"}},
		{`'a\'b\\c\d'`, []string{`a'b\c\d`}},
		{`"a\tb"`, []string{"a\tb"}},
		{`''`, []string{""}},
		{"python3 -u\t-X dev", []string{"python3", "-u", "-X", "dev"}},
		{`x\c y`, []string{"x"}},
		{`${HOME}/x`, nil},
		{`"a\cb"`, nil},
		{`a\qb`, nil},
		{`'open`, nil},
		{`a\`, nil},
	} {
		got, ok := envSplit(tc.in)
		if tc.want == nil {
			if ok {
				t.Errorf("envSplit(%q) = %q, want not modelled", tc.in, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("envSplit(%q) = %q %v, want %q", tc.in, got, ok, tc.want)
		}
	}
}

// FuzzEnvSplit: the splitter never panics, and text with no quotes,
// backslashes, # or $ splits as strings.Fields does.
func FuzzEnvSplit(f *testing.F) {
	for _, s := range []string{`rm\_v`, `#x`, `'a b'`, `"a\_b" c`, `\c`, `${X}`, "a\tb c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := envSplit(s)
		if strings.ContainsAny(s, `'"\#$`) {
			return
		}
		if want := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n\v\f\r", r) }); !ok || !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("envSplit(%q) = %q %v, want %q", s, got, ok, want)
		}
	})
}
