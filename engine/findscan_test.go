package engine

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindExecFilesRealBash: the files find gives an -exec action are
// walked at decision time. An action that only changes the files it is
// given (chmod, sed -i, touch) on files the walk shows harmless is allowed,
// and its real run changes only those; one that reaches a protected file,
// a symlink or hard link leading elsewhere, or runs where the walk cannot
// see what find will (a name made first, -L, a start followed through its
// trailing slash), is refused. Each refused row first shows the harm in
// real bash.
func TestFindExecFilesRealBash(t *testing.T) {
	if _, err := exec.LookPath("find"); err != nil {
		t.Skip("SKIP: find is not installed")
	}
	const tree = "mkdir -p sub; echo v > a.py; echo v > sub/b.py; echo v > c.txt; git init -q .; "
	for _, tc := range []struct{ name, command, check string }{
		{"chmod", `find . -name '*.py' -exec chmod +x {} \;`, "test -x a.py && test -x sub/b.py && test ! -x c.txt"},
		{"sed", `find . -path ./.git -prune -o -type f -name '*.txt' -exec sed -i s/v/w/ {} +`, "grep -qx w c.txt && grep -qx v a.py"},
		{"touch", `find sub -type f -exec touch {} +`, "test -f sub/b.py"},
		{"maxdepth", `find . -maxdepth 1 -type f -exec chmod 600 {} \;`, "test ! -x a.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRealBash(t, tree)
			config := fileText(t, filepath.Join(r.root, ".git/config"))
			if d := r.decide(tc.command); d.Decision != Allow {
				t.Fatalf("%s: decision %+v, want allow", tc.command, d)
			}
			r.run(tc.command)
			if out, err := exec.Command("bash", "-c", "cd "+r.root+" && "+tc.check).CombinedOutput(); err != nil {
				t.Errorf("run by bash, %s did not do what it says: %v %s", tc.command, err, out)
			}
			if fileText(t, filepath.Join(r.root, ".git/config")) != config {
				t.Error("run by bash, the command changed .git/config")
			}
		})
	}

	for _, tc := range []struct{ name, setup, command string }{
		{"protected files in the walk", "", `find . -type f -exec sed -i '1i x' {} +`},
		{"a symlink out of the root", "ln -s O/target.txt link.py", `find . -name '*.py' -exec chmod 600 {} \;`},
		{"a hard link to .git/config", "ln .git/config cfg.txt", `find . -name cfg.txt -exec chmod 600 {} \;`},
		{"a symlink made by the same command", "", `ln -s O/target.txt l.py; find . -name '*.py' -exec chmod 600 {} \;`},
		{"a start followed through its trailing slash", "ln -s O lnk", `find lnk/ -name '*.txt' -exec chmod 600 {} \;`},
		{"-L follows symlinks", "ln -s O lnk", `find -L . -name '*.txt' -exec chmod 600 {} \;`},
		{"an action that makes a name find visits later", "", `find a.py sub -exec ln -sf O/target.txt sub/z.py \; -exec chmod 600 {} \;`},
		// rt14: patterns find and gate read differently, names made first
		{"a class folded by find", "", `find . -ipath './.[F-a]it' -prune -o -exec chmod 777 {} +`},
		{"a pattern ending in a backslash", `ln -s O/target.txt 'x\'`, `find . -type l ! -name '*\' -exec chmod 600 {} \;`},
		{"a pattern above ASCII", "ln -s O/target.txt 'Ã©'", `find . -type l ! -name 'é' -exec chmod 600 {} \;`},
		{"a start made by mkdir first", "", `mkdir n; find n/../.git/hooks -exec chmod 777 {} +`},
		{"a recursive action", "ln .git/config sub/hl", `find . -maxdepth 1 -name sub -exec chmod -R 777 {} +`},
		{"-depth ignores -prune", "", `find . -depth -path ./.git -prune -o -type f -exec sed -i '1i x' {} +`},
		{"an unknown test before -prune", "", `find . -empty -prune -o -type f -exec sed -i '1i x' {} +`},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "target.txt"), []byte("o\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			setup := tree + strings.ReplaceAll(tc.setup, "O", outside)
			command := strings.ReplaceAll(tc.command, "O/", outside+"/")
			// the harm is real: bash does it, in a copy of the setup
			other := newRealBash(t, setup)
			// what the harm changes: .git/config's text and mode, the
			// hooks directory's mode, the outside file's mode
			state := func() string {
				var b strings.Builder
				b.WriteString(fileText(t, filepath.Join(other.root, ".git/config")))
				for _, p := range []string{filepath.Join(other.root, ".git/config"), filepath.Join(other.root, ".git/hooks"), filepath.Join(outside, "target.txt")} {
					if fi, err := os.Stat(p); err == nil {
						b.WriteString(fi.Mode().String())
					}
				}
				return b.String()
			}
			before := state()
			other.run(command)
			if state() == before {
				t.Fatalf("run by bash, %q did no harm: the row proves nothing", command)
			}
			if err := os.Chmod(filepath.Join(outside, "target.txt"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := newRealBash(t, setup)
			if d := r.decide(command); d.Decision == Allow {
				t.Fatalf("%q allowed, want refused", command)
			}
		})
	}
}

// TestReadFind reads find's argv: start points, depth options and which
// entries reach the action; words it does not know fail.
func TestReadFind(t *testing.T) {
	file := func(p string) findEntry { return findEntry{path: p, name: filepath.Base(p), mode: 0} }
	dir := func(p string) findEntry { return findEntry{path: p, name: filepath.Base(p), mode: fs.ModeDir} }
	action := []string{"chmod", "+x", "{}"}
	for _, tc := range []struct {
		argv    string
		ok      bool
		entry   findEntry
		reached bool
		pruned  bool
	}{
		{"find . -name *.py -exec chmod +x {} ;", true, file("./a.py"), true, false},
		{"find . -name *.py -exec chmod +x {} ;", true, file("./a.txt"), false, false},
		{"find . -iname *.PY -exec chmod +x {} +", true, file("./a.py"), true, false},
		{"find . ! -name *.py -exec chmod +x {} ;", true, file("./a.py"), false, false},
		{"find . -path ./.git -prune -o -exec chmod +x {} ;", true, dir("./.git"), false, true},
		{"find . -path ./.git -prune -o -exec chmod +x {} ;", true, file("./x"), true, false},
		{"find . -size +1 -prune -o -exec chmod +x {} ;", true, dir("./.git"), true, false},
		{"find . -path */.git/* -o -exec chmod +x {} ;", true, file("./a/.git/config"), false, false},
		{"find . -type f,l -exec chmod +x {} ;", true, dir("./d"), false, false},
		{"find . -newer x -exec chmod +x {} ;", true, file("./a"), true, false},
		{"find . -exec test -d {} ; -exec chmod +x {} ;", true, file("./a"), true, false},
		{"find . ( -name a -o -name b ) -exec chmod +x {} ;", true, file("./b"), true, false},
		{"find . -name [!a]* -exec chmod +x {} ;", true, file("./a"), false, false},
		{"find . -name [[:alpha:]] -exec chmod +x {} ;", true, file("./a"), true, false},
		{"find -L . -exec chmod +x {} ;", false, findEntry{}, false, false},
		{"find . -follow -exec chmod +x {} ;", false, findEntry{}, false, false},
		{"find . -frobnicate -exec chmod +x {} ;", false, findEntry{}, false, false},
		{"find . -exec chmod +w {} ;", false, findEntry{}, false, false},
	} {
		plan, ok := readFind(strings.Fields(tc.argv), action)
		if ok != tc.ok {
			t.Errorf("%s: read %v, want %v", tc.argv, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		r := plan.visit(tc.entry)
		if r.reached != tc.reached || r.pruned != tc.pruned {
			t.Errorf("%s on %s: reached %v pruned %v, want %v %v", tc.argv, tc.entry.path, r.reached, r.pruned, tc.reached, tc.pruned)
		}
	}
}
