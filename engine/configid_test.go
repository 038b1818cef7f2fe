package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/shellparse"
)

// identityOf is the identity of opts, failing the test on an error.
func identityOf(t *testing.T, opts Options) string {
	t.Helper()
	id, err := opts.Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestIdentityCoversOptions changes each field of Options in turn: a field
// the identity covers must change it, one in IdentityExcluded must not.
// A new field that is neither fails the test, so that whoever adds it
// decides whether it changes decisions.
func TestIdentityCoversOptions(t *testing.T) {
	dir := t.TempDir()
	base := Options{Root: t.TempDir(), Home: t.TempDir()}
	change := map[string]func(*Options){
		"Settings":    func(o *Options) { o.Settings.Exclude = []string{"run_shell_command(rm)"} },
		"Root":        func(o *Options) { o.Root = dir },
		"Home":        func(o *Options) { o.Home = dir },
		"PolicyDirs":  func(o *Options) { o.PolicyDirs = []string{dir} },
		"Protected":   func(o *Options) { o.Protected = map[string]string{filepath.Join(dir, "p"): "x"} },
		"Secret":      func(o *Options) { o.Secret = map[string]string{filepath.Join(dir, "s"): "x"} },
		"EvalTimeout": func(o *Options) { o.EvalTimeout = time.Minute },
		"Remote":      func(o *Options) { o.Remote.Token = "t" },
		"Limits":      func(o *Options) { o.Limits = shellparse.Limits{MaxWords: 3} },
		"TempDir":     func(o *Options) { o.TempDir = dir },
		// Excluded:
		"Layers":             func(o *Options) { o.Layers = []string{"static", "exec"} },
		"CacheEntries":       func(o *Options) { o.CacheEntries = -1 },
		"CacheObserver":      func(o *Options) { o.CacheObserver = nopObserver{} },
		"ParseCacheObserver": func(o *Options) { o.ParseCacheObserver = nopObserver{} },
	}
	want := identityOf(t, base)
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Options]()) {
		mutate, ok := change[f.Name]
		if !ok {
			t.Errorf("Options.%s is new: add it to IdentityExcluded if it cannot change a decision, else to Options.Identity; then to this test", f.Name)
			continue
		}
		opts := base
		mutate(&opts)
		got := identityOf(t, opts)
		_, excluded := IdentityExcluded[f.Name]
		switch {
		case excluded && got != want:
			t.Errorf("Options.%s is in IdentityExcluded but changes the identity", f.Name)
		case !excluded && got == want:
			t.Errorf("changing Options.%s does not change the identity", f.Name)
		}
	}
	for name := range IdentityExcluded {
		if _, ok := reflect.TypeFor[Options]().FieldByName(name); !ok {
			t.Errorf("IdentityExcluded names %s, which Options no longer has", name)
		}
	}
	// Every field of the structures the identity covers counts too.
	for _, name := range []string{"Settings", "Limits", "Remote"} {
		st := reflect.ValueOf(&base).Elem().FieldByName(name)
		for i := range st.NumField() {
			opts := base
			field := reflect.ValueOf(&opts).Elem().FieldByName(name).Field(i)
			switch field.Kind() {
			case reflect.String:
				field.SetString("x")
			case reflect.Bool:
				field.SetBool(!field.Bool())
			case reflect.Int:
				field.SetInt(field.Int() + 7)
			case reflect.Slice:
				field.Set(reflect.ValueOf([]string{"x"}))
			case reflect.Map:
				field.Set(reflect.ValueOf(map[string]string{"x": "ask"}))
			default:
				t.Errorf("Options.%s.%s: a %s; teach this test to change it", name, st.Type().Field(i).Name, field.Kind())
				continue
			}
			if identityOf(t, opts) == want {
				t.Errorf("changing Options.%s.%s does not change the identity", name, st.Type().Field(i).Name)
			}
		}
	}
}

// TestIdentityReadsState: the content of policy files and $PATH change the
// identity; paths are resolved (a relative root, a symlinked one).
func TestIdentityReadsState(t *testing.T) {
	pol := t.TempDir()
	file := filepath.Join(pol, "extra.rego")
	os.WriteFile(file, []byte("package gate.rules.extra\n"), 0o644)
	opts := Options{Root: t.TempDir(), PolicyDirs: []string{pol}}
	before := identityOf(t, opts)
	if again := identityOf(t, opts); again != before {
		t.Fatalf("the identity is not stable: %s then %s", before, again)
	}
	os.WriteFile(file, []byte("package gate.rules.extra2\n"), 0o644)
	if identityOf(t, opts) == before {
		t.Error("changing a policy file's content kept the identity")
	}
	os.WriteFile(file, []byte("package gate.rules.extra\n"), 0o644)
	if identityOf(t, opts) != before {
		t.Error("restoring the policy file did not restore the identity")
	}
	t.Setenv("PATH", os.Getenv("PATH")+string(filepath.ListSeparator)+t.TempDir())
	if identityOf(t, opts) == before {
		t.Error("changing PATH kept the identity")
	}

	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	if identityOf(t, Options{Root: root}) != identityOf(t, Options{Root: link}) {
		t.Error("a root and a symlink to it have different identities")
	}
	t.Chdir(root)
	if identityOf(t, Options{Root: root}) != identityOf(t, Options{}) {
		t.Error("the current directory as root (\"\") and its absolute path have different identities")
	}
}

func TestBuildID(t *testing.T) {
	id, err := BuildID()
	if err != nil || id == "" {
		t.Fatalf("BuildID() = %q, %v", id, err)
	}
	if !strings.HasPrefix(id, "go:") && (runtime.GOOS == "linux" || !strings.HasPrefix(id, "sha256:")) {
		t.Errorf("BuildID() = %q, not the Go build ID note", id)
	}
}

func TestEngineIdentity(t *testing.T) {
	opts := Options{Root: t.TempDir(), Home: t.TempDir()}
	e, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Identity(); err != nil || got != identityOf(t, opts) {
		t.Errorf("Engine.Identity() = %q, %v; Options.Identity() = %q", got, err, identityOf(t, opts))
	}
	pol, err := LoadPolicies(nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err = NewWithPolicies(context.Background(), opts, pol)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Identity(); err == nil {
		t.Errorf("an engine from NewWithPolicies has the identity %q", got)
	}
}

// TestScoped: a scoped engine decides with the caller's layers and the
// caller's environment ($NAME words), not the process's.
func TestScoped(t *testing.T) {
	e, _, xdg := secretEngine(t)
	call := shellCall(`cat "$XDG_STATE_HOME/gate/token"`)
	own, err := e.Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if own.Decision != Deny {
		t.Fatalf("own environment: %+v", own)
	}
	same, err := e.Scoped(nil, []string{"XDG_STATE_HOME=" + xdg}).Decide(context.Background(), call)
	if err != nil || !reflect.DeepEqual(same, own) {
		t.Errorf("the same environment, scoped: %+v, %v; want %+v", same, err, own)
	}
	other, err := e.Scoped(nil, []string{"XDG_STATE_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + xdg}).Decide(context.Background(), call)
	if err != nil || reflect.DeepEqual(other, own) {
		t.Errorf("another environment (its first XDG_STATE_HOME counts) decided as this one: %+v, %v", other, err)
	}
	in, _, err := e.Scoped([]string{"static", "exec"}, nil).DecideInput(context.Background(), shellCall("ls"))
	if err != nil || !slices.Equal(in.Layers, []string{"static", "exec"}) {
		t.Errorf("scoped layers: input layers %v, %v", in.Layers, err)
	}
	if in, _, _ := e.DecideInput(context.Background(), shellCall("ls")); !slices.Equal(in.Layers, DefaultLayers) {
		t.Errorf("the engine's own layers changed to %v", in.Layers)
	}
}
