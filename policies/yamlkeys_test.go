package policies

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestDataNoDuplicateKeys: OPA reads a data.yaml with a key given twice in
// one mapping by keeping the last, so an entry added beside an existing one
// (a second "ls-remote:" under subcommand_scripts) silently replaces it.
func TestDataNoDuplicateKeys(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		for _, dup := range duplicateKeys(&doc, "") {
			t.Errorf("%s: %s is given twice", path, dup)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no data.yaml found")
	}
}

// duplicateKeys returns the keys given more than once in one mapping of the
// document, as paths from its root.
func duplicateKeys(n *yaml.Node, at string) []string {
	var dups []string
	if n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if seen[k] {
				dups = append(dups, at+"/"+k)
			}
			seen[k] = true
			dups = append(dups, duplicateKeys(n.Content[i+1], at+"/"+k)...)
		}
		return dups
	}
	for _, c := range n.Content {
		dups = append(dups, duplicateKeys(c, at)...)
	}
	return dups
}
