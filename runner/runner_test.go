package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func newTestRunner(t *testing.T, opts Options) *Runner {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	if opts.KillGrace == 0 {
		opts.KillGrace = 300 * time.Millisecond
	}
	if opts.Supervise == nil {
		opts.Supervise = defaultSupervision(t)
	}
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return r
}

func run(t *testing.T, r *Runner, req Request) *Result {
	t.Helper()
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func fg(command string) Request { return Request{Command: command} }

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	bs, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(bs)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

func TestRunOutputAndExit(t *testing.T) {
	r := newTestRunner(t, Options{})
	res := run(t, r, fg("echo hi; echo err >&2; exit 3"))
	if res.Stdout != "hi\n" || res.Stderr != "err\n" || res.ExitCode == nil || *res.ExitCode != 3 || res.Error != "" {
		t.Fatalf("got %+v", res)
	}
	if res.Outcome() != "failed" {
		t.Errorf("outcome %s", res.Outcome())
	}
	text := res.Text()
	for _, want := range []string{"Command: echo hi; echo err >&2; exit 3", "Directory: (root)", "Stdout: hi", "Stderr: err",
		"Error: (none)", "Exit Code: 3", "Signal: (none)", "Background PIDs: (none)", "Process Group PGID: " + strconv.Itoa(res.PGID)} {
		if !strings.Contains(text, want+"\n") && !strings.HasSuffix(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestRunEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"defaults", Options{}, []string{"QWEN_CODE=1", "GATE=1", "PAGER=cat", "GIT_PAGER=cat", "NO_COLOR=1", "TERM=dumb"}},
		{"pager and colour", Options{Pager: "less -R", ShowColor: true, Env: []string{"NO_COLOR=1", "PAGER=more", "KEEP=x"}},
			[]string{"PAGER=less -R", "GIT_PAGER=less -R", "TERM=xterm-256color", "NO_COLOR=", "KEEP=x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRunner(t, tc.opts)
			res := run(t, r, fg(`for v in QWEN_CODE GATE PAGER GIT_PAGER NO_COLOR TERM KEEP; do echo "$v=${!v}"; done`))
			for _, w := range tc.want {
				if !strings.Contains(res.Stdout, w+"\n") {
					t.Errorf("missing %q in\n%s", w, res.Stdout)
				}
			}
		})
	}
}

func TestRunDirectory(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	for _, d := range []string{"proj/sub", "proj-evil", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "file"), nil, 0o644)
	os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "out"))
	os.Symlink("sub", filepath.Join(root, "in"))
	r := newTestRunner(t, Options{Root: root})
	for _, tc := range []struct {
		dir  string
		ok   bool
		want string
	}{
		{"sub", true, "/proj/sub"},
		{"in", true, "/proj/sub"},
		{"", true, "/proj"},
		{".", true, "/proj"},
		{"..", false, "not within"},
		{"../proj-evil", false, "not within"},
		{filepath.Join(base, "proj-evil"), false, "not within"},
		{"out", false, "not within"},
		{"sub/../..", false, "not within"},
		{"missing", false, "does not exist"},
		{"file", false, "not a directory"},
	} {
		res, err := r.Run(context.Background(), Request{Command: "pwd -P", Directory: tc.dir})
		if tc.ok {
			if err != nil || !strings.HasSuffix(strings.TrimSpace(res.Stdout), tc.want) {
				t.Errorf("%q: got %v %+v", tc.dir, err, res)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.dir, err, tc.want)
		}
		if ae, ok := err.(*ArgError); !ok || ae.Param != "directory" {
			t.Errorf("%q: error %T does not name the directory parameter", tc.dir, err)
		}
	}
}

func TestRunBackgroundPIDs(t *testing.T) {
	r := newTestRunner(t, Options{})
	res := run(t, r, fg("sleep 60 & echo started"))
	if len(res.BackgroundPIDs) != 1 || res.Stdout != "started\n" {
		t.Fatalf("got %+v", res)
	}
	pid := res.BackgroundPIDs[0]
	if !alive(pid) {
		t.Fatalf("background pid %d not running", pid)
	}
	if !strings.Contains(res.Text(), "Background PIDs: "+strconv.Itoa(pid)) {
		t.Errorf("text: %s", res.Text())
	}
	list := r.Background().List()
	if len(list) != 1 || !list[0].Adopted || !list[0].Running || list[0].PIDs[0] != pid {
		t.Fatalf("list %+v", list)
	}
	if _, err := r.Background().Stop(res.PGID); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("pid %d survived stop", pid)
	}
}

func TestRunTimeoutKillsTree(t *testing.T) {
	r := newTestRunner(t, Options{})
	// The inner shell ignores SIGTERM, so only SIGKILL after the grace
	// period ends it; the sleeps are grandchildren.
	res := run(t, r, Request{Command: `bash -c 'trap "" TERM; sleep 100 & echo $! >> pids; sleep 100' & echo $! >> pids; wait`, Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.Outcome() != "timeout" || !strings.Contains(res.Error, "timed out after 300ms") {
		t.Fatalf("got %+v", res)
	}
	if members := groupMembers(res.PGID); len(members) != 0 {
		t.Fatalf("survivors in group %d: %v", res.PGID, members)
	}
	bs, _ := os.ReadFile(filepath.Join(r.Root(), "pids"))
	for _, f := range strings.Fields(string(bs)) {
		pid, _ := strconv.Atoi(f)
		if alive(pid) {
			t.Errorf("pid %d survived the timeout", pid)
		}
	}
	if len(strings.Fields(string(bs))) != 2 {
		t.Fatalf("pids file: %q", bs)
	}
}

func TestRunCancel(t *testing.T) {
	r := newTestRunner(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := r.Run(ctx, fg("echo before; sleep 100"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Cancelled || res.TimedOut || res.Stdout != "before\n" || res.Signal == nil || *res.Signal != int(syscall.SIGTERM) {
		t.Fatalf("got %+v", res)
	}
	if m := groupMembers(res.PGID); len(m) != 0 {
		t.Fatalf("survivors %v", m)
	}
}

func TestRunOutputBounded(t *testing.T) {
	const max = 64 << 10
	r := newTestRunner(t, Options{MaxOutput: max})
	res := run(t, r, fg("head -c 50000000 /dev/zero | tr '\\0' x; head -c 1000 /dev/zero >&2"))
	if !res.StdoutTruncated || res.StderrTruncated || len(res.Stderr) != 1000 {
		t.Fatalf("truncation flags %v %v, stderr %d", res.StdoutTruncated, res.StderrTruncated, len(res.Stderr))
	}
	if len(res.Stdout) > max+200 || !strings.HasPrefix(res.Stdout, strings.Repeat("x", max)) ||
		!strings.Contains(res.Stdout, "[output truncated: 49934464 more bytes not shown") {
		t.Fatalf("stdout of %d bytes ends %q", len(res.Stdout), res.Stdout[len(res.Stdout)-100:])
	}
}

func TestCaptureTail(t *testing.T) {
	c := newCapture(10, false)
	for i := 0; i < 100; i++ {
		c.Write([]byte(strconv.Itoa(i % 10)))
	}
	got, trunc := c.snapshot()
	if !trunc || !strings.HasSuffix(got, "0123456789") || !strings.Contains(got, "first 90 bytes") || len(c.buf) > 20 {
		t.Fatalf("got %q (buf %d)", got, len(c.buf))
	}
}

func TestBackgroundCall(t *testing.T) {
	r := newTestRunner(t, Options{})
	res := run(t, r, Request{Command: "echo ready; sleep 100", IsBackground: true, Description: "server"})
	if !res.Background || len(res.BackgroundPIDs) != 1 || res.Outcome() != "background" ||
		!strings.HasPrefix(res.Text(), "Background command started. PID: "+strconv.Itoa(res.BackgroundPIDs[0])) {
		t.Fatalf("got %+v", res)
	}
	pid := res.BackgroundPIDs[0]
	var p Process
	for i := 0; i < 100; i++ {
		p, _ = r.Background().Get(pid)
		if p.Stdout != "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p.Stdout != "ready\n" || !p.Running || p.Description != "server [background]" {
		t.Fatalf("got %+v", p)
	}
	p, err := r.Background().Stop(pid)
	if err != nil || p.Running || p.Signal == nil || alive(pid) {
		t.Fatalf("after stop: %+v %v", p, err)
	}
	if _, err := r.Background().Get(424242); err != ErrNoProcess {
		t.Fatalf("unknown pid: %v", err)
	}
}

func TestBackgroundExit(t *testing.T) {
	r := newTestRunner(t, Options{})
	res := run(t, r, Request{Command: "echo done; exit 4", IsBackground: true})
	pid := res.BackgroundPIDs[0]
	var p Process
	for i := 0; i < 200; i++ {
		if p, _ = r.Background().Get(pid); !p.Running {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if p.Running || p.ExitCode == nil || *p.ExitCode != 4 {
		t.Fatalf("got %+v", p)
	}
}

func TestShutdownStopsEverything(t *testing.T) {
	r, err := New(Options{Root: t.TempDir(), KillGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	bg := run(t, r, Request{Command: "sleep 100", IsBackground: true})
	done := make(chan *Result)
	go func() { res, _ := r.Run(context.Background(), fg("sleep 100")); done <- res }()
	time.Sleep(200 * time.Millisecond)
	r.Shutdown(context.Background())
	res := <-done
	if res.Signal == nil || alive(bg.BackgroundPIDs[0]) || len(groupMembers(res.PGID)) != 0 {
		t.Fatalf("after shutdown: %+v, background alive %v", res, alive(bg.BackgroundPIDs[0]))
	}
}

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args  map[string]any
		param string
		want  Request
	}{
		{map[string]any{"command": "ls", "is_background": false}, "", Request{Command: "ls"}},
		{map[string]any{"command": "ls", "is_background": true, "directory": "d", "description": "x", "timeout": 1500.0}, "",
			Request{Command: "ls", IsBackground: true, Directory: "d", Description: "x", Timeout: 1500 * time.Millisecond}},
		{map[string]any{"is_background": false}, "command", Request{}},
		{map[string]any{"command": "", "is_background": false}, "command", Request{}},
		{map[string]any{"command": 3, "is_background": false}, "command", Request{}},
		{map[string]any{"command": "ls"}, "is_background", Request{}},
		{map[string]any{"command": "ls", "is_background": "yes"}, "is_background", Request{}},
		{map[string]any{"command": "ls", "is_background": false, "directory": 1}, "directory", Request{}},
		{map[string]any{"command": "ls", "is_background": false, "timeout": 1.5}, "timeout", Request{}},
		{map[string]any{"command": "ls", "is_background": false, "timeout": 0.0}, "timeout", Request{}},
		{map[string]any{"command": "ls", "is_background": false, "timeout": 600001.0}, "timeout", Request{}},
	} {
		got, err := ParseArgs(tc.args)
		if tc.param == "" {
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%v: got %+v, %v", tc.args, got, err)
			}
			continue
		}
		ae, ok := err.(*ArgError)
		if !ok || ae.Param != tc.param || ae.Message == "" {
			t.Errorf("%v: got %v, want an error about %s", tc.args, err, tc.param)
		}
	}
}

// TestPipeKeepsBufferedOutput finishes a pipe whose writer is still open
// (a job left in the background) while its reader has had no chance to
// run: what was written before must still be copied.
func TestPipeKeepsBufferedOutput(t *testing.T) {
	var got strings.Builder
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	want := strings.Repeat("0123456789", 3000)
	pw.WriteString(want)
	pr.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := pr.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read after the deadline: %v", err)
	}
	drain(pr, &got)
	if got.String() != want {
		t.Fatalf("drained %d of %d bytes", got.Len(), len(want))
	}
}
