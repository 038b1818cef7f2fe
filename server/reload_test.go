package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

// policyReload returns a Reload of the embedded policies and dir, with the
// settings read (as JSON, {"exclude": [...]}) from settings when it is set.
func policyReload(g *Gateway, dir, settings string) Reload {
	return func() (*engine.Engine, string, error) {
		s := engine.Settings{ApprovalMode: engine.ApprovalYolo}
		watched := []string{dir}
		if settings != "" {
			watched = []string{settings}
			bs, err := os.ReadFile(settings)
			if err != nil {
				return nil, "", err
			}
			if err := json.Unmarshal(bs, &s); err != nil {
				return nil, "", err
			}
		}
		opts := engine.Options{Root: g.Runner().Root(), Settings: s, CacheObserver: g.Metrics()}
		if dir != "" {
			opts.PolicyDirs = []string{dir}
		}
		e, err := engine.New(context.Background(), opts)
		return e, Revision(watched), err
	}
}

// reloads returns gate_policy_reloads_total by result.
func reloads(t *testing.T, g *Gateway) map[string]float64 {
	return countersBy(t, g, "gate_policy_reloads_total")
}

func decideShell(t *testing.T, g *Gateway, command string) engine.Decision {
	t.Helper()
	d, err := g.Decide(context.Background(), engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command, "is_background": false}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// until polls a decision until it holds, or fails.
func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never: %s", what)
}

const netPolicy = "package gate.rules.net\n\ndeny contains {\"code\": \"net\", \"message\": \"no network\"} if {\n\tsome s in input.shell.segments\n\ts.program == \"curl\"\n}\n"

// TestWatchReload changes a policy directory under a running gateway: a
// good change takes effect without a restart, a broken one is refused and
// the last good policy keeps deciding.
func TestWatchReload(t *testing.T) {
	g := newGateway(t, yolo())
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{dir}, policyReload(g, dir, "")); err != nil {
		t.Fatal(err)
	}
	decide := func() string { return decideShell(t, g, "curl x").Decision }
	if decide() != "allow" {
		t.Fatal("curl denied before any policy")
	}
	os.WriteFile(filepath.Join(dir, "net.rego"), []byte(netPolicy), 0o644)
	until(t, "curl denied", func() bool { return decide() == "deny" })
	os.WriteFile(filepath.Join(dir, "broken.rego"), []byte("package gate.rules.broken\n\ndeny contains if {\n"), 0o644)
	until(t, "the broken policy refused", func() bool { return reloads(t, g)["error"] == 1 })
	if decide() != "deny" {
		t.Fatal("a broken policy changed the decision")
	}
	os.Remove(filepath.Join(dir, "broken.rego"))
	os.Remove(filepath.Join(dir, "net.rego"))
	until(t, "curl allowed again", func() bool { return decide() == "allow" })
	// the engine is swapped in before the reload is counted
	until(t, "the second reload counted", func() bool { return reloads(t, g)["ok"] >= 2 })
	if r := reloads(t, g); r["ok"] != 2 || r["error"] != 1 {
		t.Fatalf("reloads %v", r)
	}
}

// TestReloadEmptiesDecisionCache decides one command again and again: the
// repeats are cache hits, and after a policy change the same command gets
// the new policy's decision, not the cached one.
func TestReloadEmptiesDecisionCache(t *testing.T) {
	g := newGateway(t, yolo())
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{dir}, policyReload(g, dir, "")); err != nil {
		t.Fatal(err)
	}
	// A first reload puts in an engine that reports to the gateway's metrics.
	os.WriteFile(filepath.Join(dir, "noop.rego"), []byte("package gate.rules.noop\n"), 0o644)
	until(t, "the first reload", func() bool { return reloads(t, g)["ok"] >= 1 })
	for i := 0; i < 3; i++ {
		if d := decideShell(t, g, "curl x"); d.Decision != "allow" {
			t.Fatalf("curl %s before any policy", d.Decision)
		}
	}
	os.WriteFile(filepath.Join(dir, "net.rego"), []byte(netPolicy), 0o644)
	until(t, "curl denied", func() bool { return decideShell(t, g, "curl x").Decision == "deny" })
	if d := decideShell(t, g, "curl x"); d.Decision != "deny" {
		t.Fatalf("curl %s after the reload", d.Decision)
	}
	if c := countersBy(t, g, "gate_decision_cache_total"); c["hit"] < 2 || c["miss"] < 2 {
		t.Fatalf("cache counters %v: want hits of the repeated decision and misses after the reload", c)
	}
}

// TestReloadRewriteInPlace rewrites a policy file in place (truncate, then
// write it slowly in pieces), again and again, while decisions run: the
// command the full file denies is never allowed, and the last full file is
// in force in the end.
func TestReloadRewriteInPlace(t *testing.T) {
	g := newGateway(t, yolo())
	g.reloadDelay = 400 * time.Millisecond
	dir := t.TempDir()
	file := filepath.Join(dir, "net.rego")
	version := func(i int) string {
		return strings.Replace(netPolicy, "no network", fmt.Sprintf("no network (version %d)", i), 1)
	}
	os.WriteFile(file, []byte(version(0)), 0o644)
	reload := policyReload(g, dir, "")
	if !g.ReloadNow(reload) {
		t.Fatal("the first policy did not load")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{dir}, reload); err != nil {
		t.Fatal(err)
	}
	var allowed, decided atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if decideShell(t, g, "curl -s https://example.org").Decision == "allow" {
					allowed.Add(1)
				}
				decided.Add(1)
				time.Sleep(time.Millisecond)
			}
		}()
	}
	// The writer pauses once per round for longer than the debounce
	// interval, right after the package line (a module that compiles and
	// denies nothing), and briefly between the other pieces.
	const rounds = 4
	for i := 1; i <= rounds; i++ {
		text := version(i)
		head := strings.Index(text, "\n") + 1
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text[:head])
		time.Sleep(g.reloadDelay * 5 / 4)
		for off := head; off < len(text); off += 16 {
			f.WriteString(text[off:min(off+16, len(text))])
			time.Sleep(g.reloadDelay / 8)
		}
		f.Close()
	}
	last := fmt.Sprintf("(version %d)", rounds)
	until(t, "the last version in force", func() bool {
		return strings.Contains(decideShell(t, g, "curl x").Reasons[0].Message, last)
	})
	close(stop)
	wg.Wait()
	if n := allowed.Load(); n != 0 {
		t.Fatalf("curl allowed %d times out of %d decisions while its policy was rewritten", n, decided.Load())
	}
	if decided.Load() == 0 {
		t.Fatal("no decision ran during the rewrites")
	}
	if r := reloads(t, g); r["error"] != 0 {
		t.Fatalf("reloads %v: a partial file was compiled", r)
	}
}

// TestReloadRefusesEvalError changes a policy into one that compiles but
// fails when evaluated: the reload is refused, and the old policy keeps
// deciding (no policy_error).
func TestReloadRefusesEvalError(t *testing.T) {
	g := newGateway(t, yolo())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "net.rego"), []byte(netPolicy), 0o644)
	reload := policyReload(g, dir, "")
	if !g.ReloadNow(reload) {
		t.Fatal("the first policy did not load")
	}
	// A real call, which becomes a canary.
	if d := decideShell(t, g, "git log -1"); d.Decision != "allow" {
		t.Fatalf("git log: %+v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{dir}, reload); err != nil {
		t.Fatal(err)
	}
	// to_number("git") is an error under strict built-in errors.
	os.WriteFile(filepath.Join(dir, "boom.rego"), []byte("package gate.rules.boom\n\ndeny contains {\"code\": \"boom\", \"message\": \"x\"} if {\n\tsome s in input.shell.segments\n\tto_number(s.program) > 0\n}\n"), 0o644)
	until(t, "the reload refused", func() bool { return reloads(t, g)["error"] == 1 })
	if d := decideShell(t, g, "git log -1"); d.Decision != "allow" {
		t.Fatalf("git log after the refused reload: %+v", d)
	}
	if d := decideShell(t, g, "curl x"); d.Decision != "deny" || d.Reasons[0].Code != "net" {
		t.Fatalf("curl after the refused reload: %+v", d)
	}
	// The same contents are not tried again; fixed ones are taken.
	time.Sleep(4 * reloadDelay)
	if r := reloads(t, g); r["error"] != 1 || r["ok"] != 1 {
		t.Fatalf("reloads %v", r)
	}
	os.Remove(filepath.Join(dir, "boom.rego"))
	os.Remove(filepath.Join(dir, "net.rego"))
	until(t, "curl allowed", func() bool { return decideShell(t, g, "curl x").Decision == "allow" })
}

// TestReloadIgnoresOtherFiles writes a log file beside a watched settings
// file, and the settings file with the same contents: neither reloads; a
// real change does.
func TestReloadIgnoresOtherFiles(t *testing.T) {
	g := newGateway(t, yolo())
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	content := []byte(`{"exclude": ["run_shell_command(whoami)"]}`)
	os.WriteFile(settings, content, 0o644)
	var calls atomic.Int64
	reload := policyReload(g, "", settings)
	counted := func() (*engine.Engine, string, error) { calls.Add(1); return reload() }
	if !g.ReloadNow(counted) {
		t.Fatal("the settings did not load")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := g.Watch(ctx, []string{settings}, counted); err != nil {
		t.Fatal(err)
	}
	log, err := os.OpenFile(filepath.Join(dir, "gate.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for i := 0; i < 12; i++ {
		fmt.Fprintf(log, "line %d\n", i)
		os.WriteFile(filepath.Join(dir, "decisions.json"), []byte(fmt.Sprint(i)), 0o644)
		if i%4 == 0 {
			os.WriteFile(settings, content, 0o644) // no new revision
		}
		time.Sleep(reloadDelay / 2)
	}
	time.Sleep(3 * reloadDelay)
	if n, r := calls.Load(), reloads(t, g); n != 1 || r["ok"] != 1 || r["error"] != 0 {
		t.Fatalf("%d reloads %v after writes beside the settings file", n, r)
	}
	os.WriteFile(settings, []byte(`{"exclude": ["run_shell_command(uptime)"]}`), 0o644)
	until(t, "the new settings in force", func() bool { return decideShell(t, g, "whoami").Decision == "allow" })
	if d := decideShell(t, g, "uptime"); d.Decision != "deny" {
		t.Fatalf("uptime: %+v", d)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d reloads for one change", n)
	}
}

// countersBy returns the values of the one-label counter name by label value.
func countersBy(t *testing.T, g *Gateway, name string) map[string]float64 {
	t.Helper()
	mfs, err := g.Metrics().Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.Metric {
				out[m.Label[0].GetValue()] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}
