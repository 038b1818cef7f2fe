package policies

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"
)

// TestFormatted checks that every Rego file of the repository's policies and
// policy tests is formatted as `opa fmt` formats it.
func TestFormatted(t *testing.T) {
	n := 0
	for _, dir := range []string{".", "../policy_test"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") {
				return err
			}
			n++
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			got, err := format.SourceWithOpts(path, src, format.Opts{RegoVersion: ast.RegoV1})
			if err != nil {
				t.Errorf("%s: %v", path, err)
				return nil
			}
			if !bytes.Equal(got, src) {
				t.Errorf("%s is not formatted as opa fmt would format it", path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatal("no Rego files found")
	}
}
