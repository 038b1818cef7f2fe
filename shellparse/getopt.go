package shellparse

import (
	"fmt"
	"strings"
)

// GetoptSpec is a program's complete option specification in the form its
// getopt_long call takes, so that wrappers are read exactly as they parse
// their own argv. A program with a Getopt spec knows every option it
// accepts: an option missing from it makes the command unprovable.
//
// Short is getopt's optstring: a leading "+" stops option parsing at the
// first operand (otherwise GNU permutation reads options after operands);
// "x" takes no argument, "x:" a required one (attached or the next word),
// "x::" an optional one (only attached: -xVALUE). Long lists long options:
// "name" takes no argument, "name=" a required one (--name=V or --name V),
// "name=?" an optional one (only --name=V). LongOnly accepts long options
// with one dash (getopt_long_only: gdb -batch).
type GetoptSpec struct {
	Short    string   `json:"short"`
	Long     []string `json:"long,omitempty"`
	LongOnly bool     `json:"long_only,omitempty"`

	short   map[string]int
	long    map[string]int
	posix   bool
	checked bool
}

// Argument kinds of an option.
const (
	argNone = iota
	argRequired
	argOptional
)

func (g *GetoptSpec) compile() error {
	g.short, g.long = map[string]int{}, map[string]int{}
	s := g.Short
	if strings.HasPrefix(s, "+") {
		g.posix = true
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' || c == '-' || c == ' ' {
			return fmt.Errorf("bad short option spec %q", g.Short)
		}
		kind := argNone
		if i+1 < len(s) && s[i+1] == ':' {
			kind = argRequired
			i++
			if i+1 < len(s) && s[i+1] == ':' {
				kind = argOptional
				i++
			}
		}
		g.short["-"+string(c)] = kind
	}
	for _, l := range g.Long {
		name, kind := l, argNone
		switch {
		case strings.HasSuffix(l, "=?"):
			name, kind = strings.TrimSuffix(l, "=?"), argOptional
		case strings.HasSuffix(l, "="):
			name, kind = strings.TrimSuffix(l, "="), argRequired
		}
		if name == "" || strings.ContainsAny(name, "= ") || strings.HasPrefix(name, "-") {
			return fmt.Errorf("bad long option spec %q", l)
		}
		g.long["--"+name] = kind
	}
	g.checked = true
	return nil
}

// lookupLong resolves a long option (--name, or -name when LongOnly) with
// getopt_long's unambiguous abbreviations. It returns the canonical
// --name, its argument kind and whether it is known.
func (g *GetoptSpec) lookupLong(opt string) (string, int, bool) {
	if !strings.HasPrefix(opt, "--") {
		opt = "-" + opt
	}
	if k, ok := g.long[opt]; ok {
		return opt, k, true
	}
	found, kind, n := "", 0, 0
	for name, k := range g.long {
		if strings.HasPrefix(name, opt) {
			found, kind = name, k
			n++
		}
	}
	if n == 1 {
		return found, kind, true
	}
	return opt, argNone, false
}

// getoptWord is one option word read with a GetoptSpec.
type getoptWord struct {
	names    []string // canonical option names (-x, --name)
	value    string   // attached value of the last one
	attached bool
	// needsNext is set when the last option takes the next word as value.
	needsNext bool
	unknown   string // the first option the spec does not know
}

// read splits an option word (starting with "-", not "--" alone) as getopt
// would.
func (g *GetoptSpec) read(v string) getoptWord {
	var r getoptWord
	long := strings.HasPrefix(v, "--")
	if !long && g.LongOnly && len(v) >= 2 {
		// getopt_long_only tries a long option first, even for one
		// letter (gdb -e is --e, -x is --x)
		name, _, _ := strings.Cut(v, "=")
		if _, _, ok := g.lookupLong(name); ok {
			long = true
		} else if _, ok := g.short[v[:2]]; !ok || strings.Contains(v, "=") {
			long = true
		}
	}
	if long {
		name, val, attached := strings.Cut(v, "=")
		canon, kind, ok := g.lookupLong(name)
		if !ok {
			r.unknown = name
			return r
		}
		r.names = []string{canon}
		switch {
		case attached && kind == argNone:
			r.unknown = v // getopt refuses a value for an option without one
		case attached:
			r.value, r.attached = val, true
		case kind == argRequired:
			r.needsNext = true
		}
		return r
	}
	for i := 1; i < len(v); i++ {
		opt := shortOption(v[i])
		kind, ok := g.short[opt]
		if !ok {
			r.unknown = opt
			return r
		}
		r.names = append(r.names, opt)
		if kind != argNone {
			if i+1 < len(v) {
				r.value, r.attached = v[i+1:], true
			} else if kind == argRequired {
				r.needsNext = true
			}
			return r
		}
	}
	return r
}

// ArgOption is one option of a command line as the program reads it: its
// canonical name (-x, --name) and the value it takes, if any.
type ArgOption struct {
	Name     string
	Value    string
	HasValue bool
}

// ReadOptions reads the options at the start of argv (argv[0] is the
// program) with the program's getopt specification, as getopt would up
// to the first operand or "--": it returns the options, in order, and the
// index of the first word after them. It returns false when the catalogue
// has no specification for program, the program reads options after
// operands (GNU permutation), or an option is unknown, ambiguous or
// misses its value.
func (c *Catalogue) ReadOptions(program string, argv []string) ([]ArgOption, int, bool) {
	p := c.program(program)
	if p == nil || p.Getopt == nil || !p.Getopt.checked || !p.Getopt.posix {
		return nil, 0, false
	}
	var opts []ArgOption
	i := 1
	for ; i < len(argv); i++ {
		v := argv[i]
		if v == "--" {
			return opts, i + 1, true
		}
		if !isOption(v) {
			break
		}
		r := p.Getopt.read(v)
		if r.unknown != "" {
			return nil, 0, false
		}
		for k, name := range r.names {
			opts = append(opts, ArgOption{Name: name})
			if k == len(r.names)-1 && r.attached {
				opts[len(opts)-1].Value, opts[len(opts)-1].HasValue = r.value, true
			}
		}
		if r.needsNext {
			if i+1 >= len(argv) {
				return nil, 0, false
			}
			i++
			opts[len(opts)-1].Value, opts[len(opts)-1].HasValue = argv[i], true
		}
	}
	return opts, i, true
}
