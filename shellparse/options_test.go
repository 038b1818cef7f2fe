package shellparse

import (
	"sort"
	"testing"
)

// An option that takes a value, given last, has no value: the program
// refuses it, and the parser must neither read past argv nor take anything
// for the missing value. These commands used to panic.
func TestSegmentsOptionValueMissing(t *testing.T) {
	runRows(t, []row{
		r("sh +o", seg("sh", "sh", "+o").tr()),
		r("bash -o", seg("bash", "bash", "-o").tr()),
		r("bash +0O", seg("bash", "bash", "+0O").tr().find("rebinds_commands")), // no shell option 0
		r("zsh -o", seg("zsh", "zsh", "-o").tr()),
		r("bash --rcfile", seg("bash", "bash", "--rcfile").tr()),
		r("bash -oO pipefail", seg("bash", "bash", "-oO", "pipefail").tr()),
		r("bash -o pipefail -c 'rm x'", seg("bash", "bash", "-o", "pipefail", "-c", "rm x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "bash -c")),
		r("bash --rcfile f script.sh", seg("bash", "bash", "--rcfile", "f", "script.sh").twraps(), seg("script.sh", "script.sh").in("wrapper").by(0, "bash").ppath("script.sh")),
		r("echo x | bash -o", seg("echo", "echo", "x").in("pipe"), seg("bash", "bash", "-o").in("pipe").twraps().find("stdin_script")),
	})
}

// Every option of the catalogue that takes a value, given last, alone, in a
// cluster of such options, after a wrapper's subcommand and inside wrappers
// and scripts: parsing never panics and keeps the parser's invariants.
func TestOptionValueLastEverywhere(t *testing.T) {
	p := testParser(t)
	cat, err := defaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range optionValueLast(cat) {
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Errorf("%q: panic: %v", cmd, v)
				}
			}()
			prog := p.Parse(cmd)
			if prog.Error != nil {
				t.Errorf("%q: parse error %v", cmd, prog.Error)
				return
			}
			for i, s := range prog.Segments {
				checkSegment(t, prog, i, s)
			}
		}()
	}
}

// optionValueLast returns, for every program of cat with options that take
// a value, commands that end in such an option.
func optionValueLast(cat *Catalogue) []string {
	names := make([]string, 0, len(cat.Programs))
	for name := range cat.Programs {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		spec := cat.Programs[name]
		cluster := map[byte]string{}
		for _, opt := range spec.OptionsWithValue {
			if len(opt) == 2 && (opt[0] == '-' || opt[0] == '+') {
				cluster[opt[0]] += opt[1:]
			}
			heads := []string{name}
			if spec.Wrapper != nil {
				for _, sub := range spec.Wrapper.Subcommands {
					heads = append(heads, name+" "+sub)
				}
			}
			for _, h := range heads {
				out = append(out, h+" "+opt, h+" -- "+opt, h+" x "+opt)
			}
		}
		for sign, letters := range cluster {
			out = append(out, name+" "+string(sign)+"x"+letters, name+" "+string(sign)+letters+" x")
		}
	}
	for _, c := range append([]string(nil), out...) {
		out = append(out, "sudo "+c, "bash -c '"+c+"'", "echo x | "+c, "find . -exec "+c+" \\;", "env A=1 "+c)
	}
	return out
}
