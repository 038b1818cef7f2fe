// Package policies embeds gate's default Rego policies and their data: the
// decision entrypoint data.gate.decision, its rules, and the program catalogue
// the shell parser uses (gate/catalogue/data.yaml).
package policies

import "embed"

// FS holds the default policy trees: "gate" (the decision) and "system"
// (the decision log mask, data.system.log.mask).
//
//go:embed gate system
var FS embed.FS
