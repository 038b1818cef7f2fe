// Package policies embeds gate's default Rego policies and their data: the
// decision entrypoint data.gate.decision, its rules, and the program catalogue
// the shell parser uses (gate/catalogue/data.yaml).
package policies

import "embed"

// FS holds the default policy tree, rooted at "gate".
//
//go:embed gate
var FS embed.FS
