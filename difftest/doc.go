// Package difftest compares gate's reading of shell commands with what real
// bash runs: a parser differential is a program that bash really executes
// in a command gate allows, which none of gate's segments names.
//
// # Design
//
// Run decides a command with an engine (exclude rm, approval mode yolo, an
// empty workspace root). A command gate allows runs in real bash (bash -c)
// under the exec supervisor (package supervise), whose Decider records every
// exec of the tree before its first instruction. Each exec the command's own
// shell makes (Exec.ByShell, wrappers and shells transparent as in gate) is
// looked up among the segments' programs (name, identity, path); one that no
// segment names is a Differential.
//
// # Safety
//
// The corpora hold commands written by other people (rm -rf, curl, sudo,
// kill). Nothing is trusted to be harmless:
//   - the Decider allows only programs on a short list (Safe: text tools,
//     shells, wrappers) and kills every other exec before it runs, after
//     recording it: rm, curl, git, sudo, sleep are seen, never run;
//   - every bash of the tree starts with BASH_ENV disabling its kill
//     builtin (kill is then a program, which is killed); bash in POSIX mode
//     (which skips BASH_ENV) and sh (dash) are off the list;
//   - the tree is confined (package confine, Landlock): writes land only in
//     the throwaway root and its private TMPDIR; HOME is in the root too;
//     without Landlock, Run refuses (ErrUnsafe) and the tests skip loudly;
//   - commands that bash itself could make harmful without an exec are not
//     run (Skip): the kill builtin, /dev/tcp and /dev/udp, endless sources
//     (/dev/zero, /dev/urandom), fork bombs;
//   - each run has a deadline (Timeout) after which the whole tree is
//     killed; output goes to a file capped by the deadline.
//
// Programs a denied exec would have started (what make or git runs) are not
// seen; they are the exec layer's business, not the parser's.
//
// # Corpora
//
// testdata/corpus.jsonl is a bounded, deterministic sample of the shared
// corpora (see its first line); Mutations derives more commands from each
// (nesting in bash -c, subshells, groups, pipelines, command substitution,
// env). testdata/differentials.jsonl lists accepted differentials with a
// reason each. GATE_DIFF_FULL=DIR runs every command of DIR/conformance/
// *.jsonl and DIR/realworld/*.jsonl as well:
//
//	GATE_DIFF_FULL=/work/shared go test ./difftest -run Differential -timeout 6h
package difftest
