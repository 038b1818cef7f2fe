package shellparse

import (
	"strings"
)

// Python one-liners (python3 -c CODE) are proven inert by a conservative
// check of their tokens, not by running or fully parsing them: the code may
// only name allowed builtins (print, len, sorted, ...), its own variables,
// and modules it imports; attributes of a module must be on that module's
// list (json.loads, os.path.join, sys.stdin), attributes of any other value
// on a list of inert methods (split, items, read, write to the standard
// streams). Nothing on the lists runs a program, opens, writes or removes a
// file, evaluates text as code or reaches an object that could (getattr,
// open, eval, __import__, __class__, sys.modules, pickle.loads are all
// refused). A module imported other than the listed ones may be imported
// (installed code is trusted like any installed program) but only its
// __version__, __name__, __file__ and __doc__ may be read. Anything the
// check does not understand is unprovable.

// pyModuleAttrs lists the attributes code may use on each module; "*" allows
// every public attribute of a module whose functions are all pure.
var pyModuleAttrs = map[string][]string{
	"sys":         {"version", "version_info", "executable", "platform", "argv", "stdin", "stdout", "stderr", "maxsize", "byteorder", "getsizeof", "exit", "implementation", "prefix", "float_info", "hexversion", "getrecursionlimit", "getdefaultencoding", "getfilesystemencoding"},
	"json":        {"load", "loads", "dump", "dumps", "JSONDecodeError"},
	"math":        {"*"},
	"cmath":       {"*"},
	"re":          {"match", "search", "findall", "finditer", "sub", "subn", "split", "compile", "escape", "fullmatch", "IGNORECASE", "I", "MULTILINE", "M", "DOTALL", "S", "VERBOSE", "X", "ASCII", "A", "error"},
	"os":          {"path", "getcwd", "sep", "linesep", "name", "cpu_count", "getpid", "getenv", "listdir", "curdir", "pardir", "extsep", "pathsep"},
	"os.path":     {"join", "exists", "isfile", "isdir", "islink", "isabs", "basename", "dirname", "abspath", "realpath", "splitext", "split", "getsize", "getmtime", "expanduser", "normpath", "relpath", "commonpath", "sep"},
	"time":        {"time", "sleep", "strftime", "localtime", "gmtime", "perf_counter", "monotonic", "ctime", "time_ns", "strptime"},
	"datetime":    {"datetime", "date", "timedelta", "timezone", "time"},
	"collections": {"Counter", "defaultdict", "OrderedDict", "deque", "namedtuple", "ChainMap"},
	"itertools":   {"*"},
	"functools":   {"reduce", "partial", "lru_cache", "cache", "cmp_to_key"},
	"statistics":  {"*"},
	"random":      {"*"},
	"string":      {"*"},
	"textwrap":    {"*"},
	"unicodedata": {"*"},
	"heapq":       {"*"},
	"bisect":      {"*"},
	"pprint":      {"pprint", "pformat"},
	"decimal":     {"Decimal", "getcontext", "ROUND_HALF_UP"},
	"fractions":   {"Fraction"},
	"base64":      {"b64encode", "b64decode", "urlsafe_b64encode", "urlsafe_b64decode", "b32encode", "b32decode", "b16encode", "b16decode", "encodebytes", "decodebytes", "a85encode", "a85decode"},
	"binascii":    {"hexlify", "unhexlify", "crc32", "b2a_hex", "a2b_hex"},
	"hashlib":     {"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "blake2s", "sha3_256", "new", "algorithms_available"},
	"struct":      {"pack", "unpack", "calcsize", "unpack_from", "iter_unpack", "Struct"},
	"operator":    {"add", "sub", "mul", "truediv", "floordiv", "mod", "neg", "itemgetter"},
	"csv":         {"reader", "DictReader", "writer", "DictWriter"},
	"shlex":       {"split", "quote", "join"},
	"uuid":        {"uuid4"},
	"platform":    {"python_version", "python_implementation"},
	"io":          {"StringIO", "BytesIO"},
}

// pyModuleDenied are modules whose import alone runs a program or a user
// interface (antigravity opens a browser).
var pyModuleDenied = map[string]bool{"antigravity": true, "idlelib": true, "turtledemo": true, "test": true, "__hello__": true, "__phello__": true, "__main__": true}

// pyValue marks a name imported from a module's list of attributes (from
// os.path import join): a value, used as the code's own names are.
const pyValue = "="

// pyDunders are the double-underscore names code may read.
var pyDunders = map[string]bool{"__version__": true, "__name__": true, "__file__": true, "__doc__": true}

// pyMethods are attributes code may use on values that are not modules:
// methods of str, bytes, numbers, lists, dicts, sets, the standard streams,
// regular expression matches, dates and the listed modules' classes.
var pyMethods = toSet(strings.Fields(`
	split rsplit strip lstrip rstrip lower upper title capitalize casefold replace join startswith endswith
	find rfind index rindex count format format_map encode decode isdigit isalpha isalnum isspace isupper
	islower isnumeric isdecimal isidentifier isprintable istitle splitlines partition rpartition zfill ljust
	rjust center expandtabs hex fromhex removeprefix removesuffix swapcase translate maketrans
	append extend insert pop remove sort reverse copy clear
	keys values items get setdefault update popitem fromkeys
	add discard union intersection difference symmetric_difference issubset issuperset isdisjoint
	intersection_update difference_update
	bit_length to_bytes from_bytes is_integer as_integer_ratio real imag conjugate numerator denominator
	read readline readlines readable write writelines flush buffer isatty encoding closed name mode
	group groups groupdict start end span string lastindex pattern flags fullmatch match search findall
	finditer sub subn
	most_common elements total subtract appendleft popleft extendleft rotate maxlen
	now today utcnow fromtimestamp fromisoformat strptime strftime isoformat timestamp year month day hour
	minute second microsecond weekday isoweekday date time days seconds total_seconds tzinfo utc astimezone
	hexdigest digest digest_size pack unpack size substitute safe_substitute getvalue quantize
	limit_denominator fieldnames writerow writerows writeheader args errno strerror msg pos lineno colno
	mean median stdev
`))

// pyBuiltins are the builtins code may name; every other builtin (open,
// eval, exec, getattr, __import__, type, vars, help, breakpoint ...) makes
// the code unprovable.
var pyBuiltins = toSet(strings.Fields(`
	abs all any ascii bin bool bytearray bytes callable chr complex dict dir divmod enumerate filter float
	format frozenset hasattr hash hex id int isinstance issubclass iter len list map max min next oct
	ord pow print range repr reversed round set slice sorted str sum tuple zip exit quit True False None
	NotImplemented Ellipsis
`))

// pyAllBuiltins are the names of Python's builtins (3.13): any of them not
// in pyBuiltins is refused, the others name the code's own variables. Python
// 2's are here too (file opens files, input evaluates what it reads).
var pyAllBuiltins = toSet(strings.Fields(`
	abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile
	complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset
	getattr globals hasattr hash help hex id input int isinstance issubclass iter len license list locals
	map max memoryview min next object oct open ord pow print property quit range repr reversed round set
	setattr slice sorted staticmethod str sum super tuple type vars zip PythonFinalizationError
	execfile file reload raw_input unicode long xrange basestring unichr apply buffer coerce intern cmp reduce
`))

// pyKeywords are the keywords code may use (class, async and await may not).
var pyKeywords = toSet(strings.Fields(`
	False None True and as assert break continue def del elif else except finally for from global if
	import in is lambda nonlocal not or pass raise return try while with yield
`))

var pyAllKeywords = toSet(strings.Fields(`
	False None True and as assert async await break class continue def del elif else except finally for
	from global if import in is lambda nonlocal not or pass raise return try while with yield
`))

func toSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// maxPythonCode bounds the code the check reads; longer code is
// unprovable.
const maxPythonCode = 64 << 10

// pyToken is a token of Python source: a name, a string or number literal
// (kind 's', 'n'), an operator (kind 'o', value the operator's characters)
// or the end of a logical line (kind ';').
type pyToken struct {
	kind  byte // 'a' name, 's' string, 'n' number, 'o' operator, ';' end of statement
	value string
	// lit is set on a plain string literal without escapes or
	// replacement fields; value is then its text.
	lit bool
}

// pyResult is what the check found: whether the code is proven inert,
// whether it imports modules (which Python looks up in the current
// directory first), and the files it opens for reading.
type pyResult struct {
	inert, imports bool
	reads          []string
}

// pythonInert reports whether code is proven inert, and whether it imports
// modules.
func pythonInert(code string) (inert, imports bool) {
	r := pythonCheck(code)
	return r.inert, r.imports
}

// pythonCheck checks code; see the top of this file.
func pythonCheck(code string) pyResult {
	if len(code) > maxPythonCode {
		return pyResult{}
	}
	// Python ends a line at a carriage return of its own too: #<CR>CODE
	// is a comment and a statement (rt32), which a reader of lines ending
	// at \n sees as one comment. Code with one is not read.
	if strings.ContainsRune(code, '\r') {
		return pyResult{}
	}
	toks, ok := pyTokens(code, 0)
	if !ok {
		return pyResult{}
	}
	return pyCheck(toks)
}

// pyTokens splits code into tokens; strings in f-strings give the tokens of
// their replacement fields. It fails on anything it does not read (non-ASCII
// outside strings and comments: Python folds some letters into others in
// names).
func pyTokens(code string, depth int) ([]pyToken, bool) {
	if depth > 8 {
		return nil, false
	}
	var toks []pyToken
	nesting := 0
	i := 0
	for i < len(code) {
		ch := code[i]
		switch {
		case ch == '\n':
			if nesting == 0 {
				toks = append(toks, pyToken{kind: ';', value: ";"})
			}
			i++
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f':
			i++
		case ch == '\\' && i+1 < len(code) && code[i+1] == '\n':
			i += 2
		case ch == '\\' && i+2 < len(code) && code[i+1] == '\r' && code[i+2] == '\n':
			i += 3
		case ch == '#':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case isPyNameStart(ch):
			j := i
			for j < len(code) && (isPyNameStart(code[j]) || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			word := code[i:j]
			if j < len(code) && (code[j] == '\'' || code[j] == '"') && isStringPrefix(word) {
				end, ftoks, ok := pyString(code, j, strings.ContainsAny(word, "fF"), strings.ContainsAny(word, "rR"), depth)
				if !ok {
					return nil, false
				}
				toks = append(toks, pyLiteral(code[j:end], !strings.ContainsAny(word, "fFbB")))
				toks = append(toks, ftoks...)
				i = end
				continue
			}
			toks = append(toks, pyToken{kind: 'a', value: word})
			i = j
		case ch == '\'' || ch == '"':
			end, _, ok := pyString(code, i, false, false, depth)
			if !ok {
				return nil, false
			}
			toks = append(toks, pyLiteral(code[i:end], true))
			i = end
		case ch >= '0' && ch <= '9' || ch == '.' && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			j, ok := pyNumber(code, i)
			if !ok {
				return nil, false
			}
			toks = append(toks, pyToken{kind: 'n', value: code[i:j]})
			i = j
		case ch == ';':
			toks = append(toks, pyToken{kind: ';', value: ";"})
			i++
		case ch < 0x80 && strings.IndexByte("()[]{}:,.=+-*/%<>!&|^~@", ch) >= 0:
			switch ch {
			case '(', '[', '{':
				nesting++
			case ')', ']', '}':
				nesting--
			}
			toks = append(toks, pyToken{kind: 'o', value: string(ch)})
			i++
		default:
			return nil, false
		}
	}
	return toks, true
}

// pyNumber reads the number literal starting at i as Python's grammar has
// it (0x1F, 0o7, 0b1, 1_000, 1., .5, 1e-3, 2j) and returns the index after
// it; what follows is read as tokens of its own. Python reads 1..__class__
// as the float 1. and an attribute of it: a token that took in every
// letter and dot after a digit hid the attribute from the check. An
// exponent without digits ends the number before the e (a format spec's
// 08.3e is 08.3 and the type e).
func pyNumber(code string, i int) (int, bool) {
	digits := func(j int, ok func(byte) bool) int {
		// digits with single underscores between them
		start := j
		for j < len(code) && (ok(code[j]) || code[j] == '_' && j > start && j+1 < len(code) && ok(code[j+1])) {
			j++
		}
		return j
	}
	dec := func(c byte) bool { return c >= '0' && c <= '9' }
	j := i
	if code[i] == '0' && i+1 < len(code) && strings.IndexByte("xXoObB", code[i+1]) >= 0 {
		var ok func(byte) bool
		switch code[i+1] | 0x20 {
		case 'x':
			ok = func(c byte) bool { return dec(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		default:
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		j = i + 2
		if j < len(code) && code[j] == '_' {
			j++ // 0x_1f
		}
		k := digits(j, ok)
		if k == j {
			return 0, false
		}
		j = k
	} else {
		j = digits(j, dec)
		if j < len(code) && code[j] == '.' {
			j = digits(j+1, dec)
		}
		if j < len(code) && code[j]|0x20 == 'e' {
			k := j + 1
			if k < len(code) && (code[k] == '+' || code[k] == '-') {
				k++
			}
			if e := digits(k, dec); e > k {
				j = e
			}
		}
		if j < len(code) && code[j]|0x20 == 'j' {
			j++
		}
	}
	return j, true
}

// pyLiteral is the token of the string literal text (quotes included):
// its value when plain (not an f-string or bytes, one quote, no
// backslash), else a string of unknown value.
func pyLiteral(text string, plain bool) pyToken {
	if plain && len(text) >= 2 && !strings.ContainsAny(text, "\\\n") && (text[0] != text[1] || len(text) == 2) {
		return pyToken{kind: 's', value: text[1 : len(text)-1], lit: true}
	}
	return pyToken{kind: 's'}
}

func isPyNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isStringPrefix(w string) bool {
	if len(w) > 2 {
		return false
	}
	for _, c := range strings.ToLower(w) {
		if !strings.ContainsRune("rbuf", c) {
			return false
		}
	}
	return true
}

// pyString reads the string literal starting at the quote at i and returns
// the index after it; an f-string also gives the tokens of its replacement
// fields.
func pyString(code string, i int, fstring, raw bool, depth int) (int, []pyToken, bool) {
	q := code[i]
	triple := strings.HasPrefix(code[i:], string([]byte{q, q, q}))
	n := 1
	if triple {
		n = 3
	}
	j := i + n
	var toks []pyToken
	for j < len(code) {
		c := code[j]
		switch {
		case c == '\\' && fstring && j+1 < len(code) && code[j+1] == '{':
			// A backslash does not escape a replacement field: f"\{x}"
			// evaluates x.
			j++
			continue
		case c == '\\' && fstring && !raw && strings.HasPrefix(code[j+1:], "N{"):
			// \N{NAME} names a character; in a raw f-string the braces
			// are a replacement field.
			end := strings.IndexByte(code[j:], '}')
			if end < 0 || strings.ContainsAny(code[j:j+end], "\n'\"") {
				return 0, nil, false
			}
			j += end + 1
			continue
		case c == '\\':
			j += 2
			continue
		case c == '\n' && !triple:
			return 0, nil, false
		case c == q && (!triple || strings.HasPrefix(code[j:], string([]byte{q, q, q}))):
			return j + n, toks, true
		case fstring && c == '{':
			if j+1 < len(code) && code[j+1] == '{' {
				j += 2
				continue
			}
			end, ok := pyField(code, j+1, q, triple)
			if !ok {
				return 0, nil, false
			}
			ft, ok := pyTokens(code[j+1:end], depth+1)
			if !ok {
				return 0, nil, false
			}
			toks = append(toks, pyToken{kind: 'o', value: "("})
			toks = append(toks, ft...)
			toks = append(toks, pyToken{kind: 'o', value: ")"})
			j = end + 1
			continue
		}
		j++
	}
	return 0, nil, false
}

// pyField returns the index of the '}' closing the replacement field that
// starts at i. A format spec after a top-level ':' is read as code too
// (nested fields in it are code; its other characters are refused unless
// they are inert), so the field's text up to '}' is checked as a whole.
func pyField(code string, i int, q byte, triple bool) (int, bool) {
	nesting, spec := 0, false
	for j := i; j < len(code); j++ {
		c := code[j]
		switch {
		case c == '\n' && !triple, c == '#', c == '\\':
			// A format spec's # and backslashes are not read here.
			return 0, false
		case c == q:
			return 0, false // a nested string of the same quote: not read here
		case (c == '\'' || c == '"') && spec:
			// In a format spec a quote is text (f"{x:'<5}" fills with
			// '): read as a string it would run past the f-string's end
			// and hide the code after it (rt33). Not read here.
			return 0, false
		case spec && (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' && j+1 < len(code) && code[j+1] == '{'):
			// In a format spec brackets are text and every { starts a
			// nested field ({{ is no escape there): f"{1:){2}{{CODE}}}"
			// ran CODE, which one bracket count for the whole field read
			// as text (rt34). Not read here.
			return 0, false
		case c == ':' && nesting == 0:
			spec = true
		case c == '\'' || c == '"':
			end, _, ok := pyString(code, j, false, false, 0)
			if !ok {
				return 0, false
			}
			j = end - 1
		case c == '(' || c == '[' || c == '{':
			nesting++
		case c == ')' || c == ']':
			nesting--
		case c == '}':
			if nesting == 0 {
				return j, true
			}
			nesting--
		}
	}
	return 0, false
}

// pyCheck walks the tokens: names, attributes and imports as described at
// the top of this file.
func pyCheck(toks []pyToken) pyResult {
	// Imports bind names for the whole code (a function defined before
	// an import may use it), so they are read first.
	modules := map[string]string{} // name bound by an import -> module ("": not usable)
	var reads []string
	ok, imports := pyWalk(toks, modules, true, &reads)
	if !ok {
		return pyResult{}
	}
	reads = nil
	if ok, _ = pyWalk(toks, modules, false, &reads); !ok {
		return pyResult{}
	}
	return pyResult{inert: true, imports: imports, reads: reads}
}

// pyReadModes are the modes open may be given: reading only.
var pyReadModes = map[string]bool{"r": true, "rb": true, "rt": true, "br": true, "tr": true}

// pyOpenRead reports whether toks[i] (open) starts open("path") or
// open("path", "r") with literal strings, and returns the path and the
// index of the closing parenthesis.
func pyOpenRead(toks []pyToken, i int) (string, int, bool) {
	at := func(k int, kind byte, value string) bool {
		return k < len(toks) && toks[k].kind == kind && (value == "" || toks[k].value == value)
	}
	if !at(i+1, 'o', "(") || !at(i+2, 's', "") || !toks[i+2].lit || toks[i+2].value == "" {
		return "", 0, false
	}
	p := toks[i+2].value
	switch {
	case at(i+3, 'o', ")"):
		return p, i + 3, true
	case at(i+3, 'o', ",") && at(i+4, 's', "") && toks[i+4].lit && pyReadModes[toks[i+4].value] && at(i+5, 'o', ")"):
		return p, i + 5, true
	}
	return "", 0, false
}

// pyBuiltinModules are modules compiled into every CPython (3.11's
// Setup.bootstrap, built in long before): the import system finds them
// before any file, so no file in the directory the code runs in, nor one
// the command writes, can stand in for them.
var pyBuiltinModules = map[string]bool{
	"sys": true, "builtins": true, "time": true, "itertools": true, "errno": true, "gc": true,
	"marshal": true, "atexit": true, "posix": true, "pwd": true, "faulthandler": true,
}

// pyBuiltinImport reports whether an import statement (import a, b as c /
// from a import x) names only built-in modules.
func pyBuiltinImport(toks []pyToken) bool {
	if len(toks) < 2 {
		return false
	}
	if toks[0].value == "from" {
		return pyBuiltinModules[toks[1].value] && (len(toks) < 3 || toks[2].value == "import")
	}
	expectModule := true
	for _, t := range toks[1:] {
		switch {
		case t.kind == 'o' && t.value == ",":
			expectModule = true
		case expectModule:
			if t.kind != 'a' || !pyBuiltinModules[t.value] {
				return false
			}
			expectModule = false
		case t.kind == 'o' && t.value == ".":
			return false // a submodule: a package, not a built-in module
		}
	}
	return true
}

// pyWalk checks the tokens with the names imports bind; with importsOnly it
// only reads the import statements. Files opened for reading are added to
// reads.
func pyWalk(toks []pyToken, modules map[string]string, importsOnly bool, reads *[]string) (bool, bool) {
	imports := false
	start := true // at the start of a statement
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == ';' {
			start = true
			continue
		}
		atStart := start
		start = t.kind == 'o' && t.value == ":" // if x: import y
		if t.kind != 'a' {
			continue
		}
		name := t.value
		switch {
		case name == "import" || name == "from" && atStart:
			next, ok := pyImport(toks, i, modules, importsOnly)
			if !ok {
				return false, false
			}
			imports = imports || !pyBuiltinImport(toks[i:next])
			i = next - 1
			start = false
			continue
		case importsOnly:
			continue
		case pyAllKeywords[name]:
			if !pyKeywords[name] {
				return false, false
			}
			continue
		case name == "case" && atStart && (i+1 >= len(toks) || toks[i+1].value != "="):
			// a match statement's case: its class patterns read attributes
			// by keyword (case C(get_field=g)), which no . shows (rt31)
			return false, false
		}
		if i > 0 && toks[i-1].kind == 'o' && toks[i-1].value == "." {
			// An attribute of a value (a call's result, a string, a
			// variable): an inert method or a readable dunder.
			if !pyMethods[name] && !pyDunders[name] {
				return false, false
			}
			continue
		}
		if (name == "dir" || name == "hasattr") && (i+1 >= len(toks) || toks[i+1].value != "(" || i > 0 && toks[i-1].value == "def") {
			return false, false // rebound: pyInspected relies on the builtins
		}
		if name == "open" && (i == 0 || toks[i-1].value != ".") {
			// open("f") and open("f", "rb") read a file the engine checks
			// like a program's operand; the file object only reads.
			if p, end, ok := pyOpenRead(toks, i); ok {
				*reads = append(*reads, p)
				i = end
				continue
			}
			return false, false
		}
		mod, isModule := modules[name]
		if mod == pyValue {
			continue // a value imported from a module's list: as the code's own
		}
		if !isModule {
			switch {
			case strings.HasPrefix(name, "__"):
				if !pyDunders[name] {
					return false, false
				}
			case pyAllBuiltins[name] && !pyBuiltins[name]:
				return false, false
			}
			continue
		}
		if mod == "" {
			return false, false // a name imported from a module that does not list it
		}
		if pyInspected(toks, i) {
			continue
		}
		// A module: follow its attributes while they name modules; the
		// first other one must be on the module's list, and a module may
		// not be used as a value (passed, assigned, rebound).
		j := i + 1
		for isModule {
			if j+1 >= len(toks) || toks[j].kind != 'o' || toks[j].value != "." || toks[j+1].kind != 'a' {
				return false, false
			}
			attr := toks[j+1].value
			switch {
			case pyModuleAttrs[mod+"."+attr] != nil:
				mod += "." + attr
			case pyDunders[attr]:
				isModule = false
			case strings.HasPrefix(attr, "_") || !allowed(pyModuleAttrs[mod], attr):
				return false, false
			default:
				isModule = false
			}
			j += 2
		}
		if j < len(toks) && toks[j].kind == 'o' && toks[j].value == "=" && (j+1 >= len(toks) || toks[j+1].value != "=") {
			return false, false // json.dumps = ...: a module's attribute rebound
		}
		i = j - 1
	}
	return true, imports
}

// pyInspected reports whether the name at toks[i] is only inspected: the
// argument of dir(m) or the first of hasattr(m, name), which give names or
// a truth value, never the module.
func pyInspected(toks []pyToken, i int) bool {
	if i < 2 || i+1 >= len(toks) || toks[i-1].value != "(" || toks[i-2].kind != 'a' || i >= 3 && toks[i-3].kind == 'o' && toks[i-3].value == "." {
		return false
	}
	switch toks[i-2].value {
	case "dir":
		return toks[i+1].value == ")"
	case "hasattr":
		return toks[i+1].value == ","
	}
	return false
}

func allowed(list []string, attr string) bool {
	for _, a := range list {
		if a == "*" || a == attr {
			return true
		}
	}
	return false
}

// pyImport reads an import statement starting at toks[i] (import or from)
// and binds the names it imports; it fails on relative and star imports,
// denied modules and names a module does not list.
//
// Imports are read once, before the rest (first): a name may be bound by
// one import only. Python binds names in the order the code runs them, and
// an import under if 0, in a function or after another one for the same
// name would make a name checked against one module's list stand for
// another module at run time (import os; if 0: import math as os; os.system
// passed as math's: rt31).
func pyImport(toks []pyToken, i int, modules map[string]string, first bool) (int, bool) {
	dotted := func(j int) (string, int, bool) {
		if j >= len(toks) || toks[j].kind != 'a' || pyAllKeywords[toks[j].value] {
			return "", j, false
		}
		name := toks[j].value
		j++
		for j+1 < len(toks) && toks[j].kind == 'o' && toks[j].value == "." && toks[j+1].kind == 'a' {
			name += "." + toks[j+1].value
			j += 2
		}
		if strings.Contains(name, "_") && strings.Contains(name, "__") || pyModuleDenied[strings.Split(name, ".")[0]] {
			return "", j, false
		}
		return name, j, true
	}
	alias := func(j int) (string, int, bool) {
		if j < len(toks) && toks[j].kind == 'a' && toks[j].value == "as" {
			if j+1 >= len(toks) || toks[j+1].kind != 'a' || pyAllKeywords[toks[j+1].value] {
				return "", j, false
			}
			return toks[j+1].value, j + 2, true
		}
		return "", j, true
	}
	bind := func(name, mod string) bool {
		if pyAllBuiltins[name] || strings.HasPrefix(name, "_") {
			return false
		}
		if !first {
			return true
		}
		if _, bound := modules[name]; bound {
			return false
		}
		modules[name] = mod
		return true
	}
	if toks[i].value == "import" {
		j := i + 1
		for {
			mod, next, ok := dotted(j)
			if !ok {
				return 0, false
			}
			as, next, ok := alias(next)
			if !ok {
				return 0, false
			}
			if as != "" {
				ok = bind(as, mod)
			} else {
				top := strings.Split(mod, ".")[0]
				ok = bind(top, top)
			}
			if !ok {
				return 0, false
			}
			j = next
			if j < len(toks) && toks[j].kind == 'o' && toks[j].value == "," {
				j++
				continue
			}
			return j, true
		}
	}
	mod, j, ok := dotted(i + 1)
	if !ok || j >= len(toks) || toks[j].kind != 'a' || toks[j].value != "import" {
		return 0, false
	}
	j++
	paren := j < len(toks) && toks[j].kind == 'o' && toks[j].value == "("
	if paren {
		j++
	}
	for {
		if j >= len(toks) || toks[j].kind != 'a' || pyAllKeywords[toks[j].value] {
			return 0, false
		}
		attr := toks[j].value
		as, next, ok := alias(j + 1)
		if !ok {
			return 0, false
		}
		if as == "" {
			as = attr
		}
		sub := mod + "." + attr
		switch {
		case pyModuleAttrs[sub] != nil:
			ok = bind(as, sub)
		case allowed(pyModuleAttrs[mod], attr) && !strings.HasPrefix(attr, "_"):
			// from os.path import join: a value on the module's list
			ok = bind(as, pyValue)
		case attr == "*":
			ok = false
		default:
			// from transformers import AutoModel: the import runs
			// installed code only; any use of the name is refused.
			ok = bind(as, "")
		}
		if !ok {
			return 0, false
		}
		j = next
		for paren && j < len(toks) && toks[j].kind == ';' {
			j++
		}
		if j < len(toks) && toks[j].kind == 'o' && toks[j].value == "," {
			j++
			for paren && j < len(toks) && toks[j].kind == ';' {
				j++
			}
			if paren && j < len(toks) && toks[j].kind == 'o' && toks[j].value == ")" {
				return j + 1, true
			}
			continue
		}
		if paren {
			if j < len(toks) && toks[j].kind == 'o' && toks[j].value == ")" {
				return j + 1, true
			}
			return 0, false
		}
		return j, true
	}
}
