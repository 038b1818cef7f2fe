package shellparse

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// Python one-liners under the real python3: the prover refuses every code
// that runs a program or writes a file, and the attacks do create their
// marker when python3 runs them (so the list tests something real); the
// benign one-liners are proven and create nothing.
func TestPythonProverRealPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	attacks := []struct {
		code string
		run  bool // run it under python3: it must create the marker
	}{
		{`import os; os.system("touch ran")`, true},
		{"import os\nos.system('touch ran')", true},
		{`import subprocess; subprocess.run(["touch", "ran"])`, true},
		{`__import__("os").system("touch ran")`, true},
		{`open("ran", "w").write("x")`, true},
		{`print("x", file=open("ran", "w"))`, true},
		{"with open('ran', 'w') as f:\n    f.write('x')", true},
		{`exec("import os; os.system('touch ran')")`, true},
		{`eval(compile("open('ran', 'w')", "x", "exec"))`, true},
		{`getattr(__import__("os"), "system")("touch ran")`, true},
		{`import os as json; json.system("touch ran")`, true},
		{`import os; f = os.system; f("touch ran")`, true},
		{`import os; g = os; g.system("touch ran")`, true},
		{`from os import system; system("touch ran")`, true},
		{`from os import (system); system("touch ran")`, true},
		{`from os import *; system("touch ran")`, true},
		{`from os import path as p; p.os.system("touch ran")`, true},
		{`import os.path as p; p.os.system("touch ran")`, true},
		{`import os; os.path.os.system("touch ran")`, true},
		{`import sys; sys.modules["os"].system("touch ran")`, true},
		{`import statistics; statistics.sys.modules["os"].system("touch ran")`, true},
		{`import pickle; pickle.loads(b"cos\nsystem\n(S'touch ran'\ntR.")`, true},
		{`import pathlib; pathlib.Path("ran").touch()`, true},
		{`import io; io.open("ran", "w")`, true},
		{`import codecs; codecs.open("ran", "w")`, true},
		{`import shutil; shutil.copy("/dev/null", "ran")`, true},
		{`import importlib; importlib.import_module("os").system("touch ran")`, true},
		{`[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "catch_warnings"][0]()._module.__builtins__["__import__"]("os").system("touch ran")`, true},
		{`(lambda: 0).__globals__["__builtins__"].__import__("os").system("touch ran")`, true},
		{`globals()["__builtins__"].__import__("os").system("touch ran")`, true},
		{`vars()["__builtins__"].open("ran", "w")`, true},
		{`f"{__import__('os').system('touch ran')}"`, true},
		{`Rf"{__import__('os').system('touch ran')}"`, true},
		{`f"{1:{__import__('os').system('touch ran')}}"`, true},
		{`f"{1:#x}{__import__('os').system('touch ran')}"`, true},
		{`f"\{__import__('os').system('touch ran')}"`, true},
		{`rf"\N{__import__('os').system('touch ran')}"`, true},
		{`f"\N{BULLET}{__import__('os').system('touch ran')}"`, true},
		{`f"\\{__import__('os').system('touch ran')}"`, true},
		{`"""x"""; __import__("os").system("touch ran")`, true},
		{`r"\"" + str(__import__("os").system("touch ran"))`, true},
		{"x = 1 \\\n; __import__('os').system('touch ran')", true},
		{"\uff45\uff56\uff41\uff4c(\"__import__('os').system('touch ran')\")", true}, // fullwidth eval, NFKC-folded
		// rt28: a number token that swallowed what follows it hid
		// attributes from the check (1..__class__ is the float 1. and an
		// attribute of it)
		{`T=1..__class__.__class__.__getattribute__;O=1..__class__.__base__.__getattribute__;w=[c for c in 1..__class__.__base__.__subclasses__() if c.__name__=="_wrap_close"][0];G=O(T(w,"__init__"),"__globals__");G["system"]("touch ran")`, true},
		{`T=1e0.__class__.__class__.__getattribute__;O=1e0.__class__.__base__.__getattribute__;w=[c for c in 1e0.__class__.__base__.__subclasses__() if c.__name__=="_wrap_close"][0];G=O(T(w,"__init__"),"__globals__");G["system"]("touch ran")`, true},
		{`T=0x1.__class__.__class__.__getattribute__;O=0x1.__class__.__base__.__getattribute__;w=[c for c in 0x1 .__class__.__base__.__subclasses__() if c.__name__=="_wrap_close"][0];G=O(T(w,"__init__"),"__globals__");G["system"]("touch ran")`, true},
		{`T=1_0.0j.__class__.__class__.__getattribute__;O=.5.__class__.__base__.__getattribute__;w=[c for c in 1..__class__.__base__.__subclasses__() if c.__name__=="_wrap_close"][0];G=O(T(w,"__init__"),"__globals__");G["system"]("touch ran")`, true},
		// rt31: an import read out of order or out of scope, and a match
		// statement's class pattern reading attributes by keyword
		{"import os\nif 0: import math as os\nos.system('touch ran')", true},
		{"import os\ndef f(): import math as os\nos.system('touch ran')", true},
		{`import math, string, statistics; from string import Formatter as math; f = string.Formatter(); math.get_field(f, "0.modules[os].system", [statistics.sys], {})[0]("touch ran")`, true},
		{`import math, statistics; from statistics import sys as math; math.modules["os"].system("touch ran")`, true},
		{"import string, statistics\nmatch string.Formatter():\n case string.Formatter(get_field=g): g('0.modules[os].system', [statistics.sys], {})[0]('touch ran')", true},
		// rt32: a carriage return alone ends a line for Python
		{"#\r__import__('os').system('touch ran')", true},
		{"import os #\ros.system('touch ran')", true},
		// rt33: a quote in a format spec is text, not a string
		{`x=1;print(f"{x:'<5}");import os;os.system('touch ran');y='}"#'`, true},
		{`x=1;print(f'{x:"<5}');import subprocess;subprocess.run(['touch','ran']);y="}'#"`, true},
		{`x=1;print(f"{x!r:'<5}");import os;os.system('touch ran');y='}"#'`, true},
		// rt34: brackets in a format spec are text, {{ two nested fields
		{`print(f"{1:){2}{{__import__('os').system('touch ran')}}}")`, true},
		{`print(f"{1:]{2}{{__import__('os').system('touch ran')}}}")`, true},
		{`print(f"{1!r:){2}{{__import__('os').system('touch ran')}}}")`, true},
		{`class A: pass`, false},
		{`breakpoint()`, false},
		{`help("os")`, false},
		{`input()`, false},
		{`import antigravity`, false},
		{`file("ran", "w").write("x")`, false}, // Python 2
		{`type("A", (), {})`, false},
		{"def f():\n    return os\nimport os\nf().remove('victim')", false},
		{"def f():\n    return system\nfrom os import system\nf()('touch ran')", true},
		{`from os import system as s; s("touch ran")`, true},
		{`import os; dir = lambda m: m; dir(os).system("touch ran")`, true},
		{"def dir(m):\n    return m\nimport os\ndir(os).system('touch ran')", true},
		{"import os\nfor dir in [lambda m: m]:\n    dir(os).system('touch ran')", true},
		{`import os; print(os)`, false},
		{`import os; os.environ["GIT_PAGER"] = "touch ran"`, false},
		{`import json; json.dumps = print`, false},
		{`open("ran", mode="w")`, true},
		{`open("ran", "a")`, true},
		{`open("ran", "r+")`, false}, // writes, but only a file that exists
		{`open("ran", "w" if 1 else "r")`, true},
		{`open("ran", "r" + "+")`, false},
		{`open(*["ran", "w"])`, true},
		{`open("r" "an", "w")`, true},
		{`open("/dev/null", "rb", 0).close(); open("ran", "x")`, true},
		{`f = open; f("ran", "w")`, true},
		{`open("/dev/null", "rb", 0).__class__("ran", "w")`, true},
		{`open("/dev/null").buffer.raw.__class__("ran", "w")`, true},
		{`import os; x = [os]`, false},
	}
	// Modules from a directory put on the import path: the planted one
	// creates the marker.
	plant, err := filepath.Abs(filepath.Join("testdata", "pyplant"))
	if err != nil {
		t.Fatal(err)
	}
	attacks = append(attacks,
		struct {
			code string
			run  bool
		}{fmt.Sprintf(`import sys; sys.path.insert(0, %q); import plant`, plant), true},
		struct {
			code string
			run  bool
		}{fmt.Sprintf(`import sys; p = sys.path; p.append(%q); import plant`, plant), true},
		struct {
			code string
			run  bool
		}{fmt.Sprintf(`import sys; sys.path[:0] = [%q]; import plant`, plant), true},
	)
	for _, a := range attacks {
		if inert, _ := pythonInert(a.code); inert {
			t.Errorf("%q is proven inert", a.code)
		}
		if a.run && !runsMarker(t, python, "-c", a.code) {
			t.Errorf("%q did not create its marker under python3: the case tests nothing", a.code)
		}
	}
	benign := []struct {
		code    string
		imports bool
	}{
		{`import sys; print(sys.version)`, false}, // built in: no file stands in for it
		{`import json, sys; print(json.load(sys.stdin)["a"])`, true},
		{`print(sum(range(10)))`, false},
		{`import math; print(math.sqrt(2))`, true},
		{"import sys\nfor line in sys.stdin:\n    print(line.strip().upper())", false},
		{`import re; print(re.sub(r"\d", "x", "a1b2"))`, true},
		{`print(f"{3.14159:.2f} {'x'!r} {len([1]) + 1}")`, false},
		{`import os; print(os.path.exists("x"), os.getcwd(), os.getenv("HOME"))`, true},
		{"try:\n    import fasttext\n    print('ok', fasttext.__version__)\nexcept ImportError:\n    print('missing')", true},
		{`import datetime; print(datetime.datetime.now().strftime("%Y"))`, true},
		{`from collections import Counter; print(Counter("abca").most_common(1))`, true},
		{`import json; d = {"a": [1, 2]}; print(json.dumps(d, indent=2))`, true},
		{`x = [i * i for i in range(5)]; print(len(x), x[-1])`, false},
		{`import sys; sys.stdout.write("hi\n")`, false},
		{`import sys, time; print(time.time())`, false},
		{`from sys import argv; import json; print(argv)`, true},
		{`import hashlib; print(hashlib.sha256(b"x").hexdigest())`, true},
		{`print(f"\N{BULLET} {1 + 1} \{2}")`, false},
		{`import json; print(json.load(open("/dev/null", "rb")) if 0 else 1)`, true},
		{"with open('/dev/null') as f:\n    print(len(f.read()))", false},
		{`from os.path import join; print(join("a", "b"))`, true},
		{"def f(n):\n    return n * 2\nprint(f(3))", false},
		{`print(1.5, .5, 1_000, 0x1F, 0o7, 0b10, 1e-3, 2j, 3.14e+2J, 10, 1 .real, [1, 2][0], 1if 1 else 2)`, false},
		{`print(f"{3.14159:08.3e} {255:x} {1234567:,.2f} {7:>10}")`, false},
		{"import re\ncase = 1\nm = re.match('a', 'a')\nprint(case, m.group(0))", true},
		{`import fasttext; print(dir(fasttext), hasattr(fasttext, "train"))`, true},
		{"try:\n    from moviepy.editor import VideoFileClip\n    print('moviepy is available')\nexcept ImportError:\n    print('no')", true},
	}
	for _, b := range benign {
		inert, imports := pythonInert(b.code)
		if !inert || imports != b.imports {
			t.Errorf("%q: inert %v imports %v, want true and %v", b.code, inert, imports, b.imports)
		}
		if runsMarker(t, python, "-c", b.code) {
			t.Errorf("benign %q created a file", b.code)
		}
	}
}

// FuzzPythonInert checks the prover on arbitrary code: it never panics, it
// is deterministic, and code it proves stops being proven when a call of
// open follows it. Seeds are in testdata/fuzz/FuzzPythonInert.
func FuzzPythonInert(f *testing.F) {
	f.Add(`import sys; print(sys.version)`)
	f.Fuzz(func(t *testing.T, code string) {
		inert, imports := pythonInert(code)
		if again, againImports := pythonInert(code); again != inert || againImports != imports {
			t.Fatalf("two checks of the same code differ")
		}
		if !inert && imports {
			t.Fatalf("imports reported for code not proven")
		}
		if inert {
			if more, _ := pythonInert(code + "\nopen('x', 'w')"); more {
				t.Fatalf("%q proven, and still proven with open() after it", code)
			}
		}
	})
}
