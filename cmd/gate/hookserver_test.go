package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// hookCase is one gate hook run of a script in testdata/script.
type hookCase struct {
	line  string   // the script's line, to name the case
	dir   string   // the hook's current directory
	env   []string // KEY=VALUE set by the script's env lines
	stdin string   // the payload file
	args  []string // gate's arguments: hook AGENT ...
}

// hookCases reads the gate hook runs of a script, with the files of its
// archive written to work (templates: @WORK@ replaced, as .json).
func hookCases(t *testing.T, script, work string) []hookCase {
	t.Helper()
	ar, err := txtar.ParseFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		name, data := f.Name, f.Data
		if base, ok := strings.CutSuffix(name, ".tmpl"); ok {
			name, data = base+".json", bytes.ReplaceAll(data, []byte("@WORK@"), []byte(work))
		}
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cases []hookCase
	dir, env, stdin := work, map[string]string{}, ""
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		words := strings.Fields(strings.ReplaceAll(line, "$WORK", work))
		if len(words) > 0 && words[0] == "!" {
			words = words[1:]
		}
		switch {
		case len(words) == 0:
		case words[0] == "mkdir":
			for _, d := range words[1:] {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
		case words[0] == "cd":
			dir = filepath.Join(dir, words[1])
		case words[0] == "env":
			k, v, _ := strings.Cut(words[1], "=")
			env[k] = v
		case words[0] == "stdin":
			stdin = filepath.Join(dir, words[1])
		case len(words) > 2 && words[0] == "exec" && words[1] == "gate" && words[2] == "hook":
			c := hookCase{line: line, dir: dir, stdin: stdin, args: words[2:]}
			for k, v := range env {
				c.env = append(c.env, k+"="+v)
			}
			slices.Sort(c.env)
			cases = append(cases, c)
		}
	}
	return cases
}

// serveConfig is the configuration a gate serve needs to answer c: the
// hook's global flags, with its root (--root, the agent's project
// directory, the payload's cwd or the hook's directory, as gate hook finds
// it) and the settings relative to it.
func (c hookCase) serveConfig(t *testing.T) []string {
	t.Helper()
	env := map[string]string{}
	for _, kv := range c.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var payload struct {
		Cwd string `json:"cwd"`
	}
	if bs, err := os.ReadFile(c.stdin); err == nil {
		json.Unmarshal(bs, &payload)
	}
	root, flags := "", []string{}
	for i := 2; i < len(c.args); i++ {
		switch c.args[i] {
		case "--root":
			root = c.args[i+1]
			i++
		case "--settings", "--approval-mode":
			flags = append(flags, c.args[i], c.args[i+1])
			i++
		case "--unknown", "--ask":
			i++ // the hook's own
		}
	}
	for _, name := range projectEnv[c.args[1]] {
		if root == "" {
			root = env[name]
		}
	}
	if root == "" {
		root = payload.Cwd
	}
	if root == "" {
		root = c.dir
	}
	for i := 0; i < len(flags); i += 2 {
		if flags[i] == "--settings" && !filepath.IsAbs(flags[i+1]) {
			flags[i+1] = filepath.Join(root, flags[i+1])
		}
	}
	return append([]string{"--root", root}, flags...)
}

// TestHookServerSameAnswers runs the payloads of the hook scripts through
// gate hook twice: compiling the policies itself (--no-server), and asking
// a real gate serve started with the hook's configuration. Output and exit
// status must be the same, and each call that reaches the policies must
// have been decided by the server.
func TestHookServerSameAnswers(t *testing.T) {
	gateBin, err := exec.LookPath("gate") // the test binary, installed by TestMain
	if err != nil {
		t.Skip("SKIPPED: gate is not on PATH (TestMain installs the test binary as gate)")
	}
	for _, script := range []string{"hook.txtar", "hook_root.txtar"} {
		t.Run(script, func(t *testing.T) {
			work := t.TempDir()
			home := filepath.Join(work, "home")
			os.MkdirAll(home, 0o755)
			cases := hookCases(t, filepath.Join("testdata", "script", script), work)
			// Extra payloads: a $NAME word expanded with the hook's own
			// environment (which the server's lacks), and a malformed call.
			extra := map[string]string{
				"env-secret.json": `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat $GATE_TEST_DIR/token"}}`,
				"bad-call.json":   `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":3}}`,
			}
			for name, payload := range extra {
				os.WriteFile(filepath.Join(work, name), []byte(payload), 0o644)
				cases = append(cases, hookCase{line: name, dir: work, stdin: filepath.Join(work, name),
					env: []string{"GATE_TEST_DIR=" + filepath.Join(home, ".local", "state", "gate")}, args: []string{"hook", "claude-code", "--approval-mode", "yolo"}})
			}
			base := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
			// One gate serve for each configuration.
			hooks := filepath.Join(home, ".local", "state", "gate", "hooks")
			started := map[string]bool{}
			for _, c := range cases {
				cfg := c.serveConfig(t)
				if _, err := os.Stat(cfg[1]); err != nil || started[strings.Join(cfg, " ")] {
					continue // no server can have this root
				}
				started[strings.Join(cfg, " ")] = true
				startHookServer(t, gateBin, base, append([]string{"serve", "--listen", "127.0.0.1:0", "--no-token", "--watch=false"}, cfg...))
			}
			waitHookServers(t, hooks, len(started))
			decided := 0
			for _, c := range cases {
				env := append(append(slices.Clone(base), c.env...), "GATE_HOOK_DEBUG=1")
				own := runHook(t, gateBin, c, env, "--no-server")
				served := runHook(t, gateBin, c, env)
				if own.stdout != served.stdout || own.code != served.code || own.stderr != served.stderr {
					t.Errorf("%s (in %s):\n in process: exit %d, stdout %q, stderr %q\n via serve:  exit %d, stdout %q, stderr %q",
						c.line, c.dir, own.code, own.stdout, own.stderr, served.code, served.stdout, served.stderr)
				}
				if own.decided && !served.viaServer {
					t.Errorf("%s: not decided by the running gate serve: %s", c.line, served.debug)
				}
				if own.decided {
					decided++
				}
			}
			if decided < len(cases)/2 {
				t.Errorf("only %d of %d runs reached the policies", decided, len(cases))
			}
			t.Logf("%d runs, %d decided by %d servers", len(cases), decided, len(started))
		})
	}
}

type hookRun struct {
	stdout, stderr     string
	code               int
	debug              string
	decided, viaServer bool
}

// runHook runs gate with c's arguments and more, and separates the
// GATE_HOOK_DEBUG lines from stderr.
func runHook(t *testing.T, gateBin string, c hookCase, env []string, more ...string) hookRun {
	t.Helper()
	cmd := exec.Command(gateBin, append(slices.Clone(c.args), more...)...)
	cmd.Dir, cmd.Env = c.dir, env
	in, err := os.Open(c.stdin)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &stdout, &stderr
	err = cmd.Run()
	var r hookRun
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r.stdout = stdout.String()
	for _, line := range strings.SplitAfter(stderr.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "gate hook: "); ok {
			r.debug += line
			r.decided = r.decided || strings.HasPrefix(rest, "deciding in process: --no-server")
			r.viaServer = r.viaServer || strings.HasPrefix(rest, "decided by the gate on ")
			continue
		}
		r.stderr += line
	}
	return r
}

// startHookServer starts gate serve with args and env, and stops it when
// the test ends.
func startHookServer(t *testing.T, gateBin string, env, args []string) {
	t.Helper()
	cmd := exec.Command(gateBin, args...)
	cmd.Env = env
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	startStopped(t, cmd, func() {
		if t.Failed() {
			t.Logf("gate %s:\n%s", strings.Join(args, " "), stderr)
		}
	})
}

// startStopped starts cmd and stops it when the test ends (SIGTERM, and
// SIGKILL after 30 s), then calls after. The channel closes when cmd exits.
func startStopped(t *testing.T, cmd *exec.Cmd, after func()) <-chan struct{} {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if after != nil {
			after()
		}
	})
	return exited
}

// waitHookServers waits until n servers have published their identity.
func waitHookServers(t *testing.T, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(files) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d gate serve processes published a hook identity in %s", len(files), n, dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHookServerFallback: a hook whose configuration no server has, a
// server that does not answer (stopped) and one that died (its files left
// behind) all leave the hook to decide itself, with the same answer.
func TestHookServerFallback(t *testing.T) {
	gateBin, err := exec.LookPath("gate")
	if err != nil {
		t.Skip("SKIPPED: gate is not on PATH (TestMain installs the test binary as gate)")
	}
	work := t.TempDir()
	state := filepath.Join(work, "state")
	settings := filepath.Join(work, "settings.json")
	os.WriteFile(settings, []byte(`{"tools": {"exclude": ["run_shell_command(rm)"]}}`), 0o644)
	payload := filepath.Join(work, "payload.json")
	os.WriteFile(payload, []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls; rm -rf x"}}`), 0o644)
	env := []string{"HOME=" + work, "XDG_STATE_HOME=" + state, "PATH=" + os.Getenv("PATH"), "GATE_HOOK_DEBUG=1"}
	hooks := filepath.Join(state, "gate", "hooks")

	cmd := exec.Command(gateBin, "serve", "--listen", "127.0.0.1:0", "--root", work, "--settings", settings, "--approval-mode", "yolo")
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		<-exited
	})
	waitHookServers(t, hooks, 1)

	c := hookCase{dir: work, stdin: payload, args: []string{"hook", "claude-code", "--settings", settings, "--approval-mode", "yolo"}}
	want := runHook(t, gateBin, c, env, "--no-server")
	if !strings.Contains(want.stdout, `"permissionDecision":"deny"`) {
		t.Fatalf("in process: %+v", want)
	}
	check := func(name string, c hookCase, wantDebug string) {
		t.Helper()
		own := runHook(t, gateBin, c, env, "--no-server")
		got := runHook(t, gateBin, c, env)
		if got.stdout != own.stdout || got.code != own.code || got.stderr != own.stderr {
			t.Errorf("%s: %+v, in process %+v", name, got, own)
		}
		if !strings.Contains(got.debug, wantDebug) {
			t.Errorf("%s: GATE_HOOK_DEBUG says %q, want %q", name, got.debug, wantDebug)
		}
	}
	check("served", c, "decided by the gate on ")

	other := c
	other.args = []string{"hook", "claude-code", "--settings", settings}
	check("another configuration", other, "deciding in process: no running gate has this configuration")

	cmd.Process.Signal(syscall.SIGSTOP)
	check("a stopped server", c, "deciding in process: ")
	cmd.Process.Signal(syscall.SIGCONT)
	check("the server going on", c, "decided by the gate on ")

	cmd.Process.Kill()
	<-exited
	if files, _ := filepath.Glob(filepath.Join(hooks, "*.json")); len(files) != 1 {
		t.Fatalf("a killed server left %v", files)
	}
	check("a dead server", c, "stale")
}
