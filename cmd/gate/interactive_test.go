//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestExecInteractive runs gate exec --interactive in a terminal, as a
// person would: the command gets a terminal of its own, what is typed
// reaches it, and gate exits with its status.
func TestExecInteractive(t *testing.T) {
	gateBin, err := exec.LookPath("gate")
	if err != nil {
		t.Skip("gate not on PATH")
	}
	root := t.TempDir()
	cmd := exec.Command(gateBin, "exec", "-i", "--root", root, "--approval-mode", "yolo",
		"--command", `read -p "Name? " n; echo "hi $n" > out.txt; tty -s && echo tty-ok; exit 7`)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var seen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	wait := func(s string) {
		t.Helper()
		for i := 0; i < 500; i++ {
			mu.Lock()
			ok := strings.Contains(seen.String(), s)
			mu.Unlock()
			if ok {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("never saw %q in %q", s, seen.String())
	}
	wait("Name? ")
	io.WriteString(ptmx, "gate\r")
	wait("tty-ok")
	err = cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 7 {
		t.Fatalf("exit: %v", err)
	}
	if bs, _ := os.ReadFile(filepath.Join(root, "out.txt")); string(bs) != "hi gate\n" {
		t.Fatalf("out.txt holds %q", bs)
	}
}
