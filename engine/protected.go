package engine

import "sort"

// ProtectedPaths returns the keys of data.gate.paths.deny (policies/gate/paths):
// the paths no call may write, as written there ("x/y/" under the root,
// "~/x" under home, "/abs/"), sorted.
func (p *Policies) ProtectedPaths() ([]string, error) {
	deny := map[string]any{}
	if err := p.decode([]string{"gate", "paths", "deny"}, &deny); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(deny))
	for k := range deny {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}
