//go:build linux

package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/confine"
)

// benignSpec is the confinement gate applies by default: the protected
// paths read-only, the default writable paths.
func benignSpec() *confine.Spec {
	return &confine.Spec{Writable: DefaultWritable(os.Getenv), ReadOnly: []string{".git/hooks/", ".git/config", ".gate/", ".qwen/"}}
}

// runBoth runs the command in a fresh copy of the fixture, bare and then
// supervised under "exclude rm, git push" with the default confinement,
// and returns both results.
func runBoth(t *testing.T, fixture func(root string), req Request) (bare, sup *Result) {
	t.Helper()
	needConfine(t, false)
	for i, supervised := range []bool{false, true} {
		root := t.TempDir()
		fixture(root)
		opts := Options{Root: root, DefaultTimeout: 5 * time.Minute}
		if supervised {
			opts.Supervise = &Supervision{Self: self(t), Default: denying("rm", "git-push"), Confine: benignSpec()}
		} else {
			opts.Layers = nil
		}
		var r *Runner
		if supervised {
			r = newTestRunner(t, opts)
		} else {
			var err error
			if r, err = New(opts); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Shutdown(context.Background()) })
		}
		res, err := r.Run(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			bare = res
		} else {
			sup = res
		}
	}
	return bare, sup
}

func sameOutcome(t *testing.T, bare, sup *Result, normalize func(string) string) {
	t.Helper()
	if normalize == nil {
		normalize = func(s string) string { return s }
	}
	if intOr(bare.ExitCode) != intOr(sup.ExitCode) || intOr(bare.Signal) != intOr(sup.Signal) {
		t.Errorf("status differs: bare %s/%s, supervised %s/%s\nbare:\n%s\nsupervised:\n%s",
			intOr(bare.ExitCode), intOr(bare.Signal), intOr(sup.ExitCode), intOr(sup.Signal), bare.Text(), sup.Text())
	}
	if normalize(bare.Stdout) != normalize(sup.Stdout) {
		t.Errorf("stdout differs:\nbare: %q\nsupervised: %q\n%s", bare.Stdout, sup.Stdout, sup.Text())
	}
	if len(sup.Blocked) != 0 {
		t.Errorf("benign work was blocked: %+v", sup.Blocked)
	}
	if bare.ExitCode == nil || *bare.ExitCode != 0 {
		t.Errorf("the benign command failed:\n%s", bare.Text())
	}
}

func TestBenignGoTest(t *testing.T) {
	goBin := needTool(t, "go")
	fixture := func(root string) {
		writeFile(t, filepath.Join(root, "go.mod"), "module example.com/tiny\n\ngo 1.21\n")
		writeFile(t, filepath.Join(root, "tiny.go"), "package tiny\n\nfunc Add(a, b int) int { return a + b }\n")
		writeFile(t, filepath.Join(root, "tiny_test.go"), "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n")
	}
	// -count=1: no cached result, the test binary is built and run.
	bare, sup := runBoth(t, fixture, Request{Command: goBin + " test -count=1 ./..."})
	strip := func(s string) string { // "ok  example.com/tiny 0.002s"
		f := strings.Fields(s)
		if len(f) > 2 {
			f = f[:2]
		}
		return strings.Join(f, " ")
	}
	sameOutcome(t, bare, sup, strip)
}

func TestBenignMake(t *testing.T) {
	needTool(t, "make")
	needTool(t, "cc")
	fixture := func(root string) {
		writeFile(t, filepath.Join(root, "hello.c"), "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n")
		writeFile(t, filepath.Join(root, "Makefile"), "hello: hello.c\n\tcc -o hello hello.c\n\nclean:\n\trm -f hello\n")
	}
	bare, sup := runBoth(t, fixture, Request{Command: "make -s && ./hello"})
	sameOutcome(t, bare, sup, nil)
}

func TestBenignGitCommit(t *testing.T) {
	needTool(t, "git")
	fixture := func(root string) {
		writeFile(t, filepath.Join(root, "a.txt"), "a\n")
	}
	// git config writes .git/config, which is read-only under
	// confinement: the repository and its hook are set up before.
	setup := func(root string) {
		fixture(root)
		runGit := func(args ...string) {
			if out, err := execCommand(root, "git", args...); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		runGit("init", "-q", ".")
		runGit("config", "user.email", "t@example.com")
		runGit("config", "user.name", "t")
		writeFile(t, filepath.Join(root, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho hook ran\n")
		os.Chmod(filepath.Join(root, ".git", "hooks", "pre-commit"), 0o755)
	}
	bare, sup := runBoth(t, setup, Request{Command: "git add a.txt && git commit -q -m one && git log --format=%s"})
	sameOutcome(t, bare, sup, nil)
	if !strings.Contains(sup.Stderr, "hook ran") || !strings.Contains(sup.Stdout, "one") || bare.Stderr != sup.Stderr {
		t.Errorf("hook or commit missing:\n%s", sup.Text())
	}
}

func TestBenignNpmTest(t *testing.T) {
	needTool(t, "npm")
	fixture := func(root string) {
		writeFile(t, filepath.Join(root, "package.json"), `{"name":"tiny","version":"1.0.0","scripts":{"test":"echo ok"}}`)
	}
	bare, sup := runBoth(t, fixture, Request{Command: "npm test --silent"})
	sameOutcome(t, bare, sup, nil)
}

// TestBenignDevServer: a background server keeps serving after the call
// returned, and Background.Stop ends it.
func TestBenignDevServer(t *testing.T) {
	py := needTool(t, "python3")
	needConfine(t, false)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "index.html"), "served")
	r := supervisedRunner(t, root, denying("rm"), benignSpec())
	script := `import http.server, socketserver
h = http.server.SimpleHTTPRequestHandler
s = socketserver.TCPServer(("127.0.0.1", 0), h)
open("port.tmp", "w").write(str(s.server_address[1]))
import os; os.rename("port.tmp", "port")
s.serve_forever()
`
	writeFile(t, filepath.Join(root, "serve.py"), script)
	res, err := r.Run(context.Background(), Request{Command: py + " serve.py", IsBackground: true})
	if err != nil || res.Error != "" {
		t.Fatalf("%v %s", err, res.Error)
	}
	var port string
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(root, "port")); err == nil {
			port = string(b)
			break
		}
		if time.Now().After(deadline) {
			p, _ := r.Background().Get(res.PGID)
			t.Fatalf("the server did not start: %+v", p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%s/index.html", port))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	p, err := r.Background().Stop(res.PGID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Running {
		t.Errorf("still running after stop: %+v", p)
	}
	if _, err := http.Get(fmt.Sprintf("http://127.0.0.1:%s/index.html", port)); err == nil {
		t.Error("the server still answers after stop")
	}
}
