package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/engine"
)

// TestHookSocket serves a gateway on a hook socket and asks it as gate
// hook does: the answer is the engine's own, only for the identity
// published, with the token, and the files go when the server does.
func TestHookSocket(t *testing.T) {
	g := newGateway(t, yolo("run_shell_command(rm)"))
	e := g.engine.Load()
	id, err := e.Identity()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "gate", "hooks")
	os.MkdirAll(dir, 0o755)
	// What a gate that died left behind.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, strconv.Itoa(dead.Process.Pid)+".json")
	os.WriteFile(stale, []byte(`{"pid":`+strconv.Itoa(dead.Process.Pid)+`,"identity":"`+id+`"}`), 0o600)
	s, err := ListenHook(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the identity file of a dead gate was kept")
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("hooks directory mode %o, want 700", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(s.Path()); fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %o, want 600", fi.Mode().Perm())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { ServeHooks(ctx, s, g, HandlerOptions{Token: "tok"}, nil); close(done) }()
	meta := filepath.Join(dir, strconv.Itoa(os.Getpid())+".json")
	for i := 0; ; i++ {
		if _, err := os.Stat(meta); err == nil {
			break
		}
		if i > 500 {
			t.Fatal("no identity file published")
		}
		time.Sleep(10 * time.Millisecond)
	}

	ask := func(req HookRequest, token string) (*HookResponse, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, _, err := AskHook(ctx, dir, token, req)
		return out, err
	}
	calls := []engine.Call{
		{Tool: engine.ToolShell, Args: map[string]any{"command": "ls"}},
		{Tool: engine.ToolShell, Args: map[string]any{"command": "cd / && rm -rf x"}},
	}
	out, err := ask(HookRequest{Identity: id, Calls: calls, Env: os.Environ()}, "tok")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range calls {
		want, err := e.Decide(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Decisions[i], want) {
			t.Errorf("call %d: the server decided %+v, the engine %+v", i, out.Decisions[i], want)
		}
	}
	if out.Decisions[1].Decision != engine.Deny {
		t.Errorf("rm was not denied: %+v", out.Decisions[1])
	}

	// A malformed call: the answer is the engine's error, after the
	// decisions before it.
	bad := append(calls[:1:1], engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": 3}})
	_, wantErr := e.Decide(context.Background(), bad[1])
	if wantErr == nil {
		t.Fatal("a command that is not a string was decided")
	}
	out, err = ask(HookRequest{Identity: id, Calls: bad}, "tok")
	if err != nil || out.Error == nil || out.Error.Message != wantErr.Error() || len(out.Decisions) != 1 {
		t.Errorf("malformed call: %+v, %v; want the error %q", out, err, wantErr)
	}

	if _, err := ask(HookRequest{Identity: id, Calls: calls}, "wrong"); err == nil || !strings.Contains(err.Error(), "unauthorized") {
		t.Errorf("a wrong token was answered: %v", err)
	}
	if _, err := ask(HookRequest{Identity: "other", Calls: calls}, "tok"); err == nil {
		t.Error("another identity was answered")
	}
	// Asked directly (a file naming another identity), the server checks.
	if _, err := askSocket(context.Background(), s.Path(), "tok", mustJSON(t, HookRequest{Identity: "other", Calls: calls})); err == nil || !strings.Contains(err.Error(), "config_mismatch") {
		t.Errorf("the server decided for another identity: %v", err)
	}

	// A reload publishes the new engine's identity.
	e2, err := engine.New(context.Background(), engine.Options{Settings: yolo(), Root: t.TempDir(), Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	g.SetEngine(e2, "2")
	id2, _ := e2.Identity()
	if _, err := ask(HookRequest{Identity: id, Calls: calls}, "tok"); err == nil {
		t.Error("the old identity is still answered after a reload")
	}
	if _, err := ask(HookRequest{Identity: id2, Calls: calls}, "tok"); err != nil {
		t.Errorf("the new identity is not answered: %v", err)
	}

	cancel()
	<-done
	for _, f := range []string{meta, s.Path()} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left after the server stopped", f)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	bs, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bs
}
