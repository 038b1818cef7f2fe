package shellparse

import (
	"fmt"
	"sort"
	"strings"
)

// describe renders a segment on one line for table tests:
//
//	program[argv joined by spaces] ctx=a/b via=sudo bg dyn=1,2 !finding >target
func describe(s *Segment) string {
	var b strings.Builder
	name := s.Program
	if name == "" {
		name = "?"
	}
	if s.Kind != KindCommand {
		name = s.Kind
	}
	fmt.Fprintf(&b, "%s[%s]", name, strings.Join(s.Argv, " "))
	if len(s.Context) > 0 {
		b.WriteString(" ctx=" + strings.Join(s.Context, "/"))
	}
	if s.Via != "" {
		b.WriteString(" via=" + s.Via)
	}
	if s.Background {
		b.WriteString(" bg")
	}
	if len(s.Dynamic) > 0 {
		d := make([]string, len(s.Dynamic))
		for i, x := range s.Dynamic {
			d[i] = fmt.Sprint(x)
		}
		b.WriteString(" dyn=" + strings.Join(d, ","))
	}
	var codes []string
	for _, f := range s.Findings {
		codes = append(codes, f.Code)
	}
	sort.Strings(codes)
	for _, c := range codes {
		b.WriteString(" !" + c)
	}
	for _, r := range s.Redirects {
		if r.Write {
			b.WriteString(" >" + r.Target)
		}
	}
	return b.String()
}
