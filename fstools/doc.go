// Package fstools implements gate's file tools (list_directory, read_file,
// write_file, glob, grep_search, edit) as Qwen Code's tools behave, confined
// to a workspace root. Paths are resolved against the root the way the
// kernel would resolve them (Resolver), so that policies decide on where a
// path really leads; the I/O itself goes through an os.Root, so that a
// symlink swapped in after the decision cannot lead it out of the root.
// Writes and edits are computed first (a Change with its unified diff) and
// applied only if the file still holds what the diff was computed from.
package fstools
