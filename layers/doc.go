// Package layers says which enforcement layers protect the commands gate
// runs on this machine, and why a missing one is missing:
//
//   - static: the decision on the parsed command (always);
//   - exec: every program the command's tree runs is decided before it runs
//     (package supervise: ptrace, Linux);
//   - fs: the tree's writes are confined to the workspace, the temp dir and
//     the configured writable paths, and protected paths are read-only
//     (package confine: Landlock, plus read-only bind mounts in a private
//     mount namespace when gate may make one).
//
// Detect combines what the machine supports (supervise.Available,
// confine.Probe) with what the configuration turned off; gate doctor,
// /readyz, every shell result, a metric and the start-up warnings show it.
package layers
