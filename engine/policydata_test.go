package engine

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"

	"github.com/gate-dev/gate/policies"
)

var update = flag.Bool("update", false, "rewrite policydata.json from the embedded policies' data files")

// TestPolicyDataJSON reads the embedded policies' data files as OPA's
// loader does and checks that policydata.json holds the same data, byte
// for byte as it would be written now (go test ./engine -run
// TestPolicyDataJSON -update rewrites it), and that the engine loads the
// same policies either way.
func TestPolicyDataJSON(t *testing.T) {
	full, err := loader.NewFileLoader().WithFS(policies.FS).WithRegoVersion(ast.RegoV1).All([]string{"."})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(full.Documents); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("policydata.json", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(buf.Bytes(), policyDataJSON) {
		t.Fatal("policydata.json is not the data of the embedded policies: run go test ./engine -run TestPolicyDataJSON -update")
	}
	fast, err := embeddedPolicies()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast.Documents, full.Documents) {
		t.Error("the data decoded from policydata.json differs from the YAML's")
	}
	if len(fast.Modules) != len(full.Modules) {
		t.Errorf("%d modules, the loader reads %d", len(fast.Modules), len(full.Modules))
	}
	for name, m := range full.ParsedModules() {
		if got := fast.ParsedModules()[name]; got == nil || !got.Equal(m) {
			t.Errorf("module %s differs", name)
		}
	}
}
