// Package shellparse turns a bash command line into the structured request that
// gate's policies decide on: every simple command that bash could run becomes a
// [Segment] with its argv after quote removal, its dynamic words, assignments,
// redirections and context.
//
// Parsing is done by [mvdan.cc/sh/v3/syntax] in bash mode. Wrappers (sudo, env,
// bash -c, xargs, find -exec, git aliases, ...) are unwrapped into inner segments
// as described by a [Catalogue], which is data that policy authors can read and
// extend. What cannot be known statically is reported as a [Finding] instead of
// being guessed.
//
// [Parser.ParseArgv] reads a list of words (the argv of a program about to
// run, at exec time) the way Parse reads the same words quoted; a parser
// made with [ForExec] reads such an argv for its options and path only.
package shellparse
