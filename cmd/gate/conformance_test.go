package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// conformanceCase is one line of testdata/conformance/cases.public.jsonl.
type conformanceCase struct {
	ID        string         `json:"id"`
	Policy    map[string]any `json:"policy"`
	Tool      string         `json:"tool"`
	Args      map[string]any `json:"args"`
	Setup     string         `json:"setup"`
	Expected  string         `json:"expected"`
	Technique string         `json:"technique"`
	Ambiguous bool           `json:"ambiguous"`
}

// TestConformance runs the conformance cases through `gate eval --batch`
// in yolo mode, as ../shared/conformance/score.py does: no case expected to
// be denied or asked may be allowed (an escape), and at most 2% of the
// cases expected to be allowed may be refused. cases.public.jsonl are the
// public cases; cases.rounds.jsonl the variants of their techniques the
// twentieth to twenty-second rounds of attacks made (each escape proven in
// real bash when found; README lists the ones left out as known).
func TestConformance(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	for _, name := range []string{"cases.public.jsonl", "cases.rounds.jsonl"} {
		t.Run(name, func(t *testing.T) { conformance(t, filepath.Join("testdata", "conformance", name)) })
	}
}

func conformance(t *testing.T, file string) {
	cases := readCases(t, file)
	got := map[string]string{}

	// Cases without setup share a fixture per policy; each case with a setup
	// gets a fresh one.
	groups := map[string][]conformanceCase{}
	for _, c := range cases {
		if c.Setup == "" {
			key, _ := json.Marshal(c.Policy)
			groups[string(key)] = append(groups[string(key)], c)
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		evalCases(t, groups[k], got)
	}
	for _, c := range cases {
		if c.Setup != "" {
			evalCases(t, []conformanceCase{c}, got)
		}
	}

	var escapes, overBlocks, allowCases []string
	for _, c := range cases {
		if c.Ambiguous {
			continue
		}
		d, ok := got[c.ID]
		if !ok {
			t.Errorf("%s: no decision", c.ID)
			continue
		}
		switch {
		case c.Expected != "allow" && d == "allow":
			escapes = append(escapes, c.ID+" ["+c.Technique+"]")
		case c.Expected == "allow" && d != "allow":
			overBlocks = append(overBlocks, c.ID+" ["+c.Technique+"] -> "+d)
		}
		if c.Expected == "allow" {
			allowCases = append(allowCases, c.ID)
		}
	}
	for _, e := range escapes {
		t.Errorf("escape: %s decided allow", e)
	}
	if max := float64(len(allowCases)) * 0.02; float64(len(overBlocks)) > max && len(overBlocks) > 1 {
		t.Errorf("%d over-blocks of %d allow cases (more than 2%%): %s", len(overBlocks), len(allowCases), strings.Join(overBlocks, ", "))
	} else {
		for _, o := range overBlocks {
			t.Logf("over-block: %s", o)
		}
	}
	t.Logf("%d cases: %d escapes, %d over-blocks", len(cases), len(escapes), len(overBlocks))
}

func readCases(t *testing.T, name string) []conformanceCase {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []conformanceCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c conformanceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return cases
}

// evalCases builds the fixture score.py builds (a repository at
// BASE/workspace/repo, a directory BASE/outside), runs the cases' setup and
// records gate's decision for each case in got.
func evalCases(t *testing.T, cases []conformanceCase, got map[string]string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "workspace", "repo")
	for _, d := range []string{"src", "docs", "build", ".git/hooks", "../../outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		"README.md":                "# repo\n",
		"victim.txt":               "victim\n",
		"package.json":             `{"scripts": {"test": "echo ok"}}` + "\n",
		".git/config":              "[core]\n\tbare = false\n",
		"../../outside/victim.txt": "outside\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rewrite := func(s string) string {
		s = strings.ReplaceAll(s, "/workspace/repo", root)
		return strings.ReplaceAll(s, "/outside/", filepath.Join(base, "outside")+"/")
	}
	var batch bytes.Buffer
	for _, c := range cases {
		if c.Setup != "" {
			script := rewrite(c.Setup)
			if c.Tool == "run_shell_command" {
				script = "git init -q . 2>/dev/null; " + script
			}
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: setup: %v\n%s", c.ID, err, out)
			}
		}
		args, err := json.Marshal(c.Args)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(map[string]any{"id": c.ID, "tool": c.Tool, "args": json.RawMessage(rewrite(string(args)))})
		batch.Write(append(line, '\n'))
	}
	tools := map[string]any{}
	for _, k := range []string{"core", "exclude"} {
		if l, ok := cases[0].Policy[k].([]any); ok && len(l) > 0 {
			tools[k] = l
		}
	}
	settings := filepath.Join(base, "settings.json")
	bs, _ := json.Marshal(map[string]any{"tools": tools})
	if err := os.WriteFile(settings, bs, 0o644); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	code := run(context.Background(),
		[]string{"eval", "--settings", settings, "--root", root, "--approval-mode", "yolo", "--batch", "-"},
		&batch, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("gate eval --batch exited %d: %s", code, stderr.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var d struct{ ID, Decision string }
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("bad output line %q: %v", line, err)
		}
		got[d.ID] = d.Decision
	}
}
