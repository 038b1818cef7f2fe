package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var gateBinary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// buildGate builds the gate binary once per test process.
func buildGate(b *testing.B) string {
	gateBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "gate-bench")
		if err != nil {
			gateBinary.err = err
			return
		}
		gateBinary.path = filepath.Join(dir, "gate")
		gateBinary.out, gateBinary.err = exec.Command("go", "build", "-o", gateBinary.path, ".").CombinedOutput()
	})
	if gateBinary.err != nil {
		b.Fatalf("go build: %v\n%s", gateBinary.err, gateBinary.out)
	}
	return gateBinary.path
}

// BenchmarkProcess compares whole processes: bare bash -c true, gate eval
// (decide only) and gate exec (decide, then bash -c true), as an agent's hook
// or a script would spawn them:
//
//	go test ./cmd/gate -run '^$' -bench Process -benchmem
func BenchmarkProcess(b *testing.B) {
	root := b.TempDir()
	for _, tc := range []struct {
		name string
		argv func() []string
	}{
		{"bash", func() []string { return []string{"bash", "-c", "true"} }},
		{"gate-eval", func() []string { return []string{buildGate(b), "eval", "--root", root, "--command", "true"} }},
		{"gate-exec", func() []string {
			return []string{buildGate(b), "exec", "--root", root, "--approval-mode", "yolo", "--command", "true"}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			argv := tc.argv()
			b.ReportAllocs()
			for b.Loop() {
				if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", argv, err, out)
				}
			}
		})
	}
}
