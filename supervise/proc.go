package supervise

import (
	"bytes"
	"path"
	"strings"
)

// parseCmdline splits /proc/PID/cmdline: NUL-terminated arguments. A last
// argument without its NUL (a truncated read) is kept.
func parseCmdline(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte{0})
	if len(b) == 0 {
		return []string{}
	}
	parts := bytes.Split(b, []byte{0})
	argv := make([]string, len(parts))
	for i, p := range parts {
		argv[i] = string(p)
	}
	return argv
}

// shebangBuf is how much of a file the kernel reads for #! (BINPRM_BUF_SIZE).
const shebangBuf = 256

// parseShebang parses a #! line the way the kernel's binfmt_script does: the
// interpreter is the first word after #! (spaces and tabs skipped), the
// optional argument is the rest of the line with surrounding blanks trimmed.
func parseShebang(head []byte) (interp, arg string, ok bool) {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", "", false
	}
	line := head[2:]
	if len(line) > shebangBuf-2 {
		line = line[:shebangBuf-2]
	}
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.Trim(line, " \t")
	if len(line) == 0 {
		return "", "", false
	}
	i := bytes.IndexAny(line, " \t")
	if i < 0 {
		return string(line), "", true
	}
	return string(line[:i]), string(bytes.TrimLeft(line[i:], " \t")), true
}

// scriptOf finds the #! script in the argv the kernel built: argv[0] is the
// interpreter named on the script's #! line, then the optional argument of
// that line if any, then the script path. Nested scripts (an interpreter
// that is itself a script, up to the kernel's 4 levels) repeat the shape;
// the outermost script, the file that was executed, is returned. head reads
// the start of a file named in argv (nil when it is not a regular file).
// It returns "" when argv does not have that shape.
func scriptOf(argv []string, head func(name string) []byte) string {
	script, interp := "", 0
	for level := 0; level < 5; level++ {
		found := false
		for off := 1; off <= 2 && interp+off < len(argv); off++ {
			i := interp + off
			name, arg, ok := parseShebang(head(argv[i]))
			if !ok || name != argv[interp] {
				continue
			}
			if (off == 1) != (arg == "") || (off == 2 && argv[interp+1] != arg) {
				continue
			}
			script, interp, found = argv[i], i, true
			break
		}
		if !found {
			break
		}
	}
	return script
}

// isLoader reports whether exe is the dynamic loader (glibc or musl).
func isLoader(exe string) bool {
	b := path.Base(strings.TrimSuffix(exe, " (deleted)"))
	return strings.HasPrefix(b, "ld-linux") && strings.Contains(b, ".so") ||
		strings.HasPrefix(b, "ld-musl-") && strings.Contains(b, ".so") ||
		b == "ld.so" || strings.HasPrefix(b, "ld64.so")
}

// loaderArgOptions are the options of glibc's ld.so that take a value
// (the next argument).
var loaderArgOptions = map[string]bool{
	"--library-path": true, "--inhibit-rpath": true, "--audit": true,
	"--preload": true, "--argv0": true, "--glibc-hwcaps-prepend": true,
	"--glibc-hwcaps-mask": true,
}

// loadedProgram returns the program ld.so was asked to run: the first
// argument after its options, as written (ld.so opens a name with a slash
// as a path and looks a bare name up like a library). "" when there is
// none (ld.so --help).
func loadedProgram(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "--") {
			return a
		}
		if loaderArgOptions[a] {
			i++
			continue
		}
		switch a {
		case "--list", "--verify", "--inhibit-cache", "--list-tunables",
			"--list-diagnostics", "--help", "--version":
			continue
		}
		// glibc loads an unknown --word as the program's file name.
		return a
	}
	return ""
}

// resolve makes a path the process named absolute against its cwd
// (lexically: the kernel resolved it at exec time, before any change).
func resolve(cwd, name string) string {
	if name == "" {
		return ""
	}
	if path.IsAbs(name) {
		return path.Clean(name)
	}
	if cwd == "" {
		return name
	}
	return path.Join(cwd, name)
}

// program is the identity of an exec: the script, the program ld.so
// loads, or the executed file.
func program(exe, script, loaded string) string {
	switch {
	case script != "":
		return script
	case loaded != "":
		return loaded
	}
	return exe
}
