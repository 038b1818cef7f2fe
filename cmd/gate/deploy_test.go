package main

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/plugins"
	bundleplugin "github.com/open-policy-agent/opa/v1/plugins/bundle"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/shell"
)

// The Dockerfile's build command gives a static binary (no dynamic
// loader, so it runs on a distroless base) that works: this runs the same
// command, with the output moved to a temporary directory.
func TestDockerBuildIsStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: builds gate")
	}
	src, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*) -o /out/gate (\./cmd/gate)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("the Dockerfile has no 'RUN CGO_ENABLED=0 go build ... -o /out/gate ./cmd/gate' line")
	}
	bin := filepath.Join(t.TempDir(), "gate")
	words, err := shell.Fields(string(m[1]), nil)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(words[1], append(append(words[2:], "-o", bin), string(m[2]))...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), words[0])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the binary needs a dynamic loader: it cannot run on a distroless static base")
		}
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "gate") {
		t.Fatalf("gate version: %v\n%s", err, out)
	}
}

// The compose fleet (deploy/compose) is checked as far as it can be
// without a container registry: every gate's command is a valid gate serve
// command line, the files it mounts exist, its OPA configuration is one
// gate accepts, and the team bundle decides as the README says.
func TestComposeFleet(t *testing.T) {
	dir := "../../deploy/compose"
	raw, err := os.ReadFile(filepath.Join(dir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Command []string `yaml:"command"`
			Volumes []string `yaml:"volumes"`
			Build   any      `yaml:"build"`
		} `yaml:"services"`
		Secrets map[string]struct {
			File string `yaml:"file"`
		} `yaml:"secrets"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatal(err)
	}
	var gates []string
	for name, s := range compose.Services {
		for _, v := range s.Volumes {
			if src, _, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(src, "./") {
				if _, err := os.Stat(filepath.Join(dir, src)); err != nil {
					t.Errorf("%s mounts %s: %v", name, src, err)
				}
			}
		}
		if s.Build == nil {
			continue
		}
		gates = append(gates, name)
		if len(s.Command) == 0 || s.Command[0] != "serve" {
			t.Fatalf("%s: command %q is not gate serve", name, s.Command)
		}
		a := &app{v: viper.New(), stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
		root := a.rootCommand()
		serve, rest, err := root.Find(s.Command)
		if err != nil || serve.Name() != "serve" {
			t.Fatalf("%s: %v", name, err)
		}
		if err := serve.ParseFlags(rest); err != nil {
			t.Fatalf("%s: gate serve refuses its flags: %v", name, err)
		}
		if got := serve.Flags().Args(); len(got) != 0 {
			t.Fatalf("%s: stray arguments %q", name, got)
		}
	}
	slices.Sort(gates)
	if !slices.Equal(gates, []string{"gate1", "gate2", "gate3"}) {
		t.Fatalf("gate services %q, want three", gates)
	}
	if compose.Secrets["gate-token"].File == "" {
		t.Fatal("no gate-token secret")
	}
	// The OPA configuration: gate's bundle plugin takes it.
	config, err := os.ReadFile(filepath.Join(dir, "opa.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := plugins.New(config, "test", inmem.New())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bundleplugin.NewConfigBuilder().WithBytes(m.Config.Bundles).WithServices(m.Services()).Parse(); err != nil {
		t.Fatalf("bundles: %v", err)
	}
	// The team bundle with the fleet's settings: curl asks, ls is allowed,
	// rm is excluded.
	for command, want := range map[string]string{"curl x": `"code":"network"`, "ls -la": `"code":"allowed"`, "rm x": `"code":"command_excluded"`} {
		code, stdout, stderr := runGate(t, context.Background(), "eval", "--settings", filepath.Join(dir, "settings.json"),
			"--policy", filepath.Join(dir, "bundle"), "--approval-mode", "yolo", "--root", t.TempDir(), "--command", command)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("%s: exit %d, %s%s, want %s", command, code, stdout, stderr, want)
		}
	}
	if !bytes.Contains(raw, []byte("--opa-config")) {
		t.Fatal("the gates do not poll the bundle")
	}
}
