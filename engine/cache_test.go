package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingObserver records what the decision cache reports.
type countingObserver struct {
	mu      sync.Mutex
	results map[string]int
	entries int
}

func (o *countingObserver) CacheResult(r string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.results == nil {
		o.results = map[string]int{}
	}
	o.results[r]++
}

func (o *countingObserver) CacheEntries(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.entries = n
}

func (o *countingObserver) get(r string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.results[r]
}

func cachedEngine(t *testing.T, root string, entries int, obs CacheObserver) *Engine {
	t.Helper()
	s := Settings{Exclude: []string{"run_shell_command(rm)", "run_shell_command(git push)"}, ApprovalMode: ApprovalDefault,
		Allowed: []string{"run_shell_command(ls)"}}
	e, err := New(context.Background(), Options{Settings: s, Root: root, Home: t.TempDir(), CacheEntries: entries, CacheObserver: obs})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCacheSameDecisions decides a table of calls with the cache off, then
// twice with it on: the second time every decision is a hit, and every
// decision is the uncached one.
func TestCacheSameDecisions(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644)
	calls := []Call{
		shellCall("ls -la"),
		shellCall("git status --short"),
		shellCall("rm -rf build"),
		shellCall("ls; git push origin main"),
		shellCall("python3 -c 'import os'"),
		shellCall("echo hi > out.txt"),
		shellCall("cat /etc/passwd > ../x"),
		shellCall("ls 'unclosed"),
		{Tool: ToolWriteFile, Args: map[string]any{"file_path": "a.txt", "content": "new\n"}},
		{Tool: ToolEdit, Args: map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "2"}},
		{Tool: ToolReadFile, Args: map[string]any{"file_path": ".git/config"}},
		{Tool: ToolGlob, Args: map[string]any{"pattern": "**/*.go"}},
	}
	off := cachedEngine(t, root, -1, nil)
	obs := &countingObserver{}
	on := cachedEngine(t, root, 100, obs)
	if on.cache == nil || off.cache != nil {
		t.Fatalf("cache status: on %q, off %q", on.CacheStatus(), off.CacheStatus())
	}
	ctx := context.Background()
	decisions := map[string]int{}
	for round := 0; round < 2; round++ {
		for _, c := range calls {
			want, err := off.Decide(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := on.Decide(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round %d %v: cached engine decided %+v, uncached %+v", round, c.Args, got, want)
			}
			decisions[want.Decision]++
		}
	}
	for _, d := range []string{Allow, Deny, Ask} {
		if decisions[d] == 0 {
			t.Errorf("the table has no %s decision: %v", d, decisions)
		}
	}
	if h, m := obs.get(CacheHit), obs.get(CacheMiss); h != len(calls) || m != len(calls) {
		t.Errorf("hits %d misses %d, want %d each", h, m, len(calls))
	}
	if obs.entries != len(calls) {
		t.Errorf("entries %d, want %d", obs.entries, len(calls))
	}
	// A caller changing what it got does not change the cache.
	d, _ := on.Decide(ctx, shellCall("rm -rf build"))
	d.Reasons[0].Code = "changed"
	*d.Reasons[0].Segment = 99
	again, _ := on.Decide(ctx, shellCall("rm -rf build"))
	if again.Reasons[0].Code != string(CodeCommandExcluded) || *again.Reasons[0].Segment != 0 {
		t.Errorf("the cache kept a caller's change: %+v", again.Reasons[0])
	}
}

// TestCacheSeesTheDisk: the key is the input after path resolution, so a
// change on disk that changes what a call touches is decided anew. The
// harm is checked too: the write gate allowed the first time is denied once
// out.txt leads outside the root.
func TestCacheSeesTheDisk(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	obs := &countingObserver{}
	e := cachedEngine(t, root, 100, obs)
	ctx := context.Background()
	call := Call{Tool: ToolWriteFile, Args: map[string]any{"file_path": "out.txt", "content": "x"}}
	first, _ := e.Decide(ctx, call)
	if first.Decision == Deny {
		t.Fatalf("first write decided %+v", first)
	}
	if err := os.Symlink(filepath.Join(outside, "victim"), filepath.Join(root, "out.txt")); err != nil {
		t.Fatal(err)
	}
	second, _ := e.Decide(ctx, call)
	if second.Decision != Deny {
		t.Fatalf("write through a symlink leading outside the root decided %+v (a stale cached decision?)", second)
	}
	if obs.get(CacheHit) != 0 {
		t.Errorf("hits %d, want 0", obs.get(CacheHit))
	}
}

func TestCacheBounded(t *testing.T) {
	obs := &countingObserver{}
	e := cachedEngine(t, t.TempDir(), 2, obs)
	ctx := context.Background()
	for _, c := range []string{"ls a", "ls b", "ls c", "ls a"} {
		if _, err := e.Decide(ctx, shellCall(c)); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.cache.len(); n != 2 || obs.entries != 2 {
		t.Errorf("cache holds %d (reported %d), want 2", n, obs.entries)
	}
	if obs.get(CacheEvict) != 2 || obs.get(CacheMiss) != 4 || obs.get(CacheHit) != 0 {
		t.Errorf("results %v: want 4 misses (ls a was evicted), 2 evictions", obs.results)
	}
	big := shellCall("ls " + strings.Repeat("x", maxCacheKeyBytes))
	if _, err := e.Decide(ctx, big); err != nil {
		t.Fatal(err)
	}
	if obs.get(CacheBypass) != 1 {
		t.Errorf("a call over the key limit was not bypassed: %v", obs.results)
	}
}

// TestCacheOffForNondeterministicPolicies: a rule that reads the clock may
// decide differently for the same input, so the cache turns itself off and
// says why.
func TestCacheOffForNondeterministicPolicies(t *testing.T) {
	dir := writePolicy(t, `package gate.rules.clock

deny contains {"code": "late", "message": "after hours"} if {
	[h, _, _] := time.clock(time.now_ns())
	h > 25
}
`)
	e, err := New(context.Background(), Options{Settings: exclude(), Root: t.TempDir(), PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if e.cache != nil || !strings.Contains(e.CacheStatus(), "time.now_ns") {
		t.Fatalf("cache status %q, want off naming time.now_ns", e.CacheStatus())
	}
	on := newTestEngine(t, exclude())
	if on.cache == nil {
		t.Fatalf("gate's own policies turned the cache off: %s", on.CacheStatus())
	}
}

// TestCacheKeepsNoFailure: a decision that timed out is not remembered.
func TestCacheKeepsNoFailure(t *testing.T) {
	e := engineWithDecision(t, `package gate

decision := {"decision": "allow", "reasons": [{"code": "allowed", "message": "x"}]} if {
	not _found
}

_found if {
	some i in numbers.range(1, 5000)
	some j in numbers.range(1, 5000)
	i * j == -1
}
`, 20*time.Millisecond)
	for i := 0; i < 2; i++ {
		d, _ := e.Decide(context.Background(), shellCall("ls"))
		if d.Decision != Deny || !hasCode(d, CodeEvalTimeout) {
			t.Fatalf("decided %+v", d)
		}
	}
	if n := e.cache.len(); n != 0 {
		t.Errorf("the cache holds %d failed decisions", n)
	}
}

// TestParseCacheSharesNothing: a repeated command's parse comes from the
// parse cache, and its input is the one a fresh parse gives, although
// building an input adds findings to segments (here: json.py in the
// directory shadows the json module inline code imports). The cached parse
// keeps none of them, also when calls run at once.
func TestParseCacheSharesNothing(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "json.py"), []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := []string{
		"python3 -c 'import json; print(json.dumps(1))'",
		"ls -la && git status --short | head",
		"ln -s /etc a && echo x > a/passwd",
		"ls 'unclosed",
	}
	obs := &countingObserver{}
	opts := Options{Settings: exclude("run_shell_command(rm)"), Root: root, Home: t.TempDir(), ParseCacheObserver: obs}
	on, err := New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.CacheEntries = -1
	off, err := New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if off.parses != nil || on.parses == nil {
		t.Fatal("the parse cache follows the decision cache's switch")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range commands {
				want, err := off.Input(shellCall(c))
				if err != nil {
					t.Error(err)
					return
				}
				got, err := on.Input(shellCall(c))
				if err != nil {
					t.Error(err)
					return
				}
				wj, _ := json.Marshal(want)
				gj, _ := json.Marshal(got)
				if string(wj) != string(gj) {
					t.Errorf("%s: input from the parse cache\n%s\nwant\n%s", c, gj, wj)
				}
			}
		}()
	}
	wg.Wait()
	if h := obs.get(CacheHit); h < len(commands) {
		t.Errorf("parse cache hits %d, want at least %d", h, len(commands))
	}
	for _, c := range commands {
		cached, ok := on.parses.get(c)
		if !ok {
			t.Fatalf("%s: not in the parse cache", c)
		}
		fresh := on.parser.Parse(c)
		cj, _ := json.Marshal(cached)
		fj, _ := json.Marshal(fresh)
		if string(cj) != string(fj) {
			t.Errorf("%s: the cached parse changed:\n%s\nwant\n%s", c, cj, fj)
		}
	}
	long := "echo " + strings.Repeat("x", maxParseCacheKeyBytes)
	if _, err := on.Input(shellCall(long)); err != nil {
		t.Fatal(err)
	}
	if obs.get(CacheBypass) != 1 {
		t.Errorf("a command over the key limit was not bypassed: %v", obs.results)
	}
}
