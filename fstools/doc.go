// Package fstools resolves the paths tool calls name against the workspace
// root, following symlinks the way the kernel would, so that policies decide
// on where a write really lands.
package fstools
