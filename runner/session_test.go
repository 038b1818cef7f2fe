package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitScreen waits until the session's screen satisfies ok, and fails the
// test with the screen when it does not within a few seconds.
func waitScreen(t *testing.T, s *Session, what string, ok func(string) bool) string {
	t.Helper()
	var text string
	for i := 0; i < 500; i++ {
		text = s.Screen(false).Text
		if ok(text) {
			return text
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %s:\n%s", what, text)
	return ""
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

func waitExit(t *testing.T, s *Session) Screen {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !s.Wait(ctx) {
		t.Fatalf("the session did not end:\n%s", s.Screen(false).Text)
	}
	return s.Screen(false)
}

func need(t *testing.T, programs ...string) {
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (.ci/run installs it)", p)
		}
	}
}

func TestSessionPrompt(t *testing.T) {
	r := newTestRunner(t, Options{})
	s, err := r.Sessions().Start(SessionRequest{Command: `read -p "Your name? " n; echo "hello, $n"; tty -s && echo on-a-tty`})
	if err != nil {
		t.Fatal(err)
	}
	if !s.PTY {
		t.Fatalf("no PTY: %s", s.Notice)
	}
	waitScreen(t, s, "the prompt", contains("Your name?"))
	if err := s.Send("gate", "Enter"); err != nil {
		t.Fatal(err)
	}
	sc := waitExit(t, s)
	if sc.ExitCode == nil || *sc.ExitCode != 0 || !strings.Contains(sc.Text, "Your name? gate\nhello, gate\non-a-tty") {
		t.Fatalf("screen:\n%s\n%+v", sc.Text, sc)
	}
	if err := s.Send("more"); err == nil {
		t.Fatal("input accepted after the end")
	}
}

func TestSessionVim(t *testing.T) {
	need(t, "vim")
	r := newTestRunner(t, Options{})
	s, err := r.Sessions().Start(SessionRequest{Command: "vim -u NONE -N -n notes.txt", Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	// vim draws ~ on the empty lines and the file name at the bottom.
	waitScreen(t, s, "vim", func(text string) bool { return strings.Count(text, "\n~") > 10 && strings.Contains(text, "notes.txt") })
	s.Send("i")
	s.Send("typed in vim")
	waitScreen(t, s, "the typed text", contains("typed in vim"))
	s.Send("", "Esc")
	s.Send(":wq", "Enter")
	sc := waitExit(t, s)
	if sc.ExitCode == nil || *sc.ExitCode != 0 {
		t.Fatalf("vim exit: %+v", sc)
	}
	if bs, _ := os.ReadFile(filepath.Join(r.Root(), "notes.txt")); string(bs) != "typed in vim\n" {
		t.Fatalf("notes.txt holds %q", bs)
	}
}

func TestSessionLess(t *testing.T) {
	need(t, "less")
	r := newTestRunner(t, Options{})
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	os.WriteFile(filepath.Join(r.Root(), "long.txt"), []byte(b.String()), 0o644)
	s, err := r.Sessions().Start(SessionRequest{Command: "less long.txt", Rows: 10, Cols: 40})
	if err != nil {
		t.Fatal(err)
	}
	first := waitScreen(t, s, "the first page", contains("line 9"))
	if !strings.HasPrefix(first, "line 1\nline 2\n") || strings.Contains(first, "line 10\n") {
		t.Fatalf("first page:\n%s", first)
	}
	s.Send("", "Space")
	second := waitScreen(t, s, "the second page", contains("line 18"))
	if strings.Contains(second, "line 1\n") || !strings.HasPrefix(second, "line 10\n") {
		t.Fatalf("second page:\n%s", second)
	}
	s.Send("q")
	if sc := waitExit(t, s); sc.ExitCode == nil || *sc.ExitCode != 0 {
		t.Fatalf("less exit: %+v", sc)
	}
}

func TestSessionGitRebaseInteractive(t *testing.T) {
	need(t, "git", "vim")
	r := newTestRunner(t, Options{})
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = r.Root()
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	for _, msg := range []string{"base", "first", "second"} {
		os.WriteFile(filepath.Join(r.Root(), msg+".txt"), []byte(msg), 0o644)
		git("add", ".")
		git("commit", "-q", "-m", msg)
	}
	s, err := r.Sessions().Start(SessionRequest{Command: "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org " +
		"GIT_EDITOR='vim -u NONE -N -n' git rebase -i HEAD~2", Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	todo := waitScreen(t, s, "the rebase todo list", func(text string) bool {
		return strings.Contains(text, "pick") && strings.Contains(text, "first") && strings.Contains(text, "second")
	})
	if strings.Index(todo, "first") > strings.Index(todo, "second") {
		t.Fatalf("todo list:\n%s", todo)
	}
	// Move the first pick line below the second: dd, then p.
	s.Send("ggddp")
	waitScreen(t, s, "the reordered list", func(text string) bool {
		return strings.Index(text, "second") < strings.Index(text, "first")
	})
	s.Send(":wq", "Enter")
	if sc := waitExit(t, s); sc.ExitCode == nil || *sc.ExitCode != 0 {
		t.Fatalf("rebase: %+v\n%s", sc, sc.Text)
	}
	if log := git("log", "--format=%s"); log != "first\nsecond\nbase\n" {
		t.Fatalf("history after the rebase:\n%s", log)
	}
}

// TestSessionKill ends a session whose command left jobs behind, and one
// that stays idle: their whole process trees are gone.
func TestSessionKill(t *testing.T) {
	for _, idle := range []bool{false, true} {
		r := newTestRunner(t, Options{IdleTimeout: 500 * time.Millisecond, KillGrace: 200 * time.Millisecond})
		ended := make(chan string, 1)
		r.Sessions().OnChange(nil, func(outcome string) { ended <- outcome })
		s, err := r.Sessions().Start(SessionRequest{Command: `trap "" TERM; sleep 100 & echo $! > pid; echo ready; sleep 100`})
		if err != nil {
			t.Fatal(err)
		}
		waitScreen(t, s, "ready", contains("ready"))
		bs, _ := os.ReadFile(filepath.Join(r.Root(), "pid"))
		child, _ := strconv.Atoi(strings.TrimSpace(string(bs)))
		if !idle {
			if err := r.Sessions().Remove(s.ID); err != nil {
				t.Fatal(err)
			}
		}
		want := map[bool]string{false: "killed", true: "idle"}[idle]
		select {
		case got := <-ended:
			if got != want {
				t.Fatalf("ended as %s, want %s", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the session never ended")
		}
		if alive(s.PID) || alive(child) || len(groupMembers(s.PID)) != 0 {
			t.Fatalf("idle=%v: processes survived: shell %v, child %v, group %v", idle, alive(s.PID), alive(child), groupMembers(s.PID))
		}
	}
}

func TestSessionResizeAndKeys(t *testing.T) {
	r := newTestRunner(t, Options{})
	s, err := r.Sessions().Start(SessionRequest{Command: `read -p "size> " x; stty size; read -e -p "text> " y; echo "[$y]"`, Rows: 20, Cols: 60})
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "the prompt", contains("size>"))
	if err := s.Resize(25, 90); err != nil {
		t.Fatal(err)
	}
	s.Send("", "Enter")
	waitScreen(t, s, "the new size", contains("25 90\ntext>"))
	s.Send("ab", "Left", "Backspace")
	s.Send("X", "Enter")
	if sc := waitExit(t, s); !strings.Contains(sc.Text, "[Xb]") || sc.Rows != 25 || sc.Cols != 90 {
		t.Fatalf("screen %dx%d:\n%s", sc.Rows, sc.Cols, sc.Text)
	}
	if _, err := KeyBytes("Hyper-Q"); err == nil {
		t.Fatal("unknown key accepted")
	}
	if k, _ := KeyBytes("Ctrl-C"); k != "\x03" {
		t.Fatalf("Ctrl-C is %q", k)
	}
}

func TestSessionColours(t *testing.T) {
	r := newTestRunner(t, Options{ShowColor: true})
	s, _ := r.Sessions().Start(SessionRequest{Command: `printf '\033[31mred\033[0m plain\n'`})
	sc := waitExit(t, s)
	styled := s.Screen(true).Styled
	if !strings.Contains(sc.Text, "red plain") || !strings.Contains(styled, "38;5;1m") || !strings.Contains(s.Raw(), "\x1b[31mred") {
		t.Fatalf("text %q styled %q raw %q", sc.Text, styled, s.Raw())
	}
}

// TestSessionWithoutPTY falls back to pipes, with a notice, when no
// pseudo-terminal can be opened.
func TestSessionWithoutPTY(t *testing.T) {
	r := newTestRunner(t, Options{NoPTY: true})
	s, err := r.Sessions().Start(SessionRequest{Command: `read x; echo "got $x"; tty -s || echo no-tty`})
	if err != nil {
		t.Fatal(err)
	}
	if s.PTY || !strings.Contains(s.Notice, "plain pipes") {
		t.Fatalf("pty %v notice %q", s.PTY, s.Notice)
	}
	s.Send("input\n")
	if sc := waitExit(t, s); !strings.Contains(sc.Text, "got input") || !strings.Contains(sc.Text, "no-tty") {
		t.Fatalf("screen:\n%s", sc.Text)
	}
}

// TestRunInteractive runs run_shell_command in a pseudo-terminal, as with
// tools.shell.enableInteractiveShell: the command sees a terminal and the
// output is what the terminal shows.
func TestRunInteractive(t *testing.T) {
	r := newTestRunner(t, Options{Interactive: true, Rows: 5, Cols: 40})
	res := run(t, r, fg(`tty -s && echo on-a-tty; stty size; for i in $(seq 1 12); do echo "line $i"; done; printf 'abc\rX\n'; exit 3`))
	if res.ExitCode == nil || *res.ExitCode != 3 || !strings.Contains(res.Stdout, "on-a-tty\n5 40\nline 1\n") ||
		!strings.Contains(res.Stdout, "line 12\nXbc\n") {
		t.Fatalf("got %+v\n%s", res, res.Stdout)
	}
	res = run(t, r, Request{Command: "sleep 100", Timeout: 200 * time.Millisecond})
	if !res.TimedOut || alive(res.PGID) {
		t.Fatalf("timeout: %+v", res)
	}
}
