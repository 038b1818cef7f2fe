package fstools

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// goSrc is a large real tree to search: Go's own source.
func goSrc(b *testing.B) string {
	dir := filepath.Join(runtime.GOROOT(), "src")
	if _, err := exec.LookPath("find"); err != nil {
		b.Skip("find not installed")
	}
	return dir
}

// BenchmarkGrep searches $(go env GOROOT)/src with the in-process search,
// through rg, and with rg alone:
//
//	go test ./fstools -run '^$' -bench 'Grep|Glob' -benchmem
func BenchmarkGrep(b *testing.B) {
	for _, p := range []struct{ name, pattern string }{
		{"literal", `func New[A-Z]\w*\(ctx`}, // holds literals ("func new", "(ctx") to look for first
		{"class", `[A-Z]{3}_[0-9]{4}`},       // no literal: the regular expression runs everywhere
	} {
		b.Run(p.name, func(b *testing.B) { benchGrep(b, p.pattern) })
	}
}

func benchGrep(b *testing.B, pattern string) {
	root := goSrc(b)
	a := args("pattern", pattern)
	b.Run("go", func(b *testing.B) {
		f := newFS(b, root, WithRipgrep(""))
		for b.Loop() {
			if res, err := f.Grep(a); err != nil || res.Error != nil {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("gate-rg", func(b *testing.B) {
		f := newFS(b, root, WithRipgrep(rgPath(b)))
		for b.Loop() {
			if res, err := f.Grep(a); err != nil || res.Error != nil {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("rg", func(b *testing.B) {
		rg := rgPath(b)
		for b.Loop() {
			cmd := exec.Command(rg, "--json", "--hidden", "--ignore-case", "--regexp", pattern, "--", ".")
			cmd.Dir = root
			if _, err := cmd.Output(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGlob finds every _test.go file under $(go env GOROOT)/src, in
// process and with find.
func BenchmarkGlob(b *testing.B) {
	root := goSrc(b)
	b.Run("go", func(b *testing.B) {
		f := newFS(b, root)
		a := args("pattern", "**/*_test.go")
		for b.Loop() {
			if res, err := f.Glob(a); err != nil || res.Error != nil {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("find", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("find", root, "-name", "*_test.go", "-type", "f", "-printf", "%T@ %p\n").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
