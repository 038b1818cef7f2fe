package engine

import (
	_ "embed" // policydata.json
	"io/fs"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/gate-dev/gate/policies"
)

// policyDataJSON is the data of the embedded policies (their data.yaml
// files, as OPA's loader reads them) in one JSON document: decoding it
// takes a tenth of the time of reading the YAML, which every gate process
// that decides would pay. TestPolicyDataJSON checks that it is the YAML's
// data, and rewrites it with -update.
//
//go:embed policydata.json
var policyDataJSON []byte

// embeddedPolicies loads the embedded Rego modules, and the embedded data
// from policyDataJSON.
func embeddedPolicies() (*loader.Result, error) {
	res, err := loader.NewFileLoader().WithFS(policies.FS).WithRegoVersion(ast.RegoV1).Filtered([]string{"."}, regoOnly)
	if err != nil {
		return nil, err
	}
	var docs map[string]any
	if err := util.UnmarshalJSON(policyDataJSON, &docs); err != nil {
		return nil, err
	}
	res.Documents = docs
	return res, nil
}

// regoOnly is a loader filter that skips every file but Rego modules.
func regoOnly(_ string, info fs.FileInfo, _ int) bool {
	return !info.IsDir() && !strings.HasSuffix(info.Name(), ".rego")
}
