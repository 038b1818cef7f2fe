package engine

import (
	"context"
	"slices"

	"github.com/gate-dev/gate/shellparse"
)

// The parse cache remembers the parse of a command by its text. A parse
// depends on the text and the parser (the catalogue, the limits) only, not
// on the disk or the call's directory, so it holds as long as the engine
// does: a reload builds a new engine and so starts empty. Agents repeat
// the same commands all day (git status, ls, npm test); a repeated one
// skips the parser and goes straight to the resolution of its paths, which
// reads the disk every time. It is on exactly when the decision cache is
// (--decision-cache), so that "cold" decisions stay cold.

// DefaultParseCacheEntries is how many parsed commands the cache holds.
const DefaultParseCacheEntries = 1024

// maxParseCacheKeyBytes bounds the commands whose parse is kept: a longer
// command (a script in a here-document) is parsed every time.
const maxParseCacheKeyBytes = 2 << 10

// parseCache is a bounded LRU map from command text to its parse.
type parseCache struct{ *lruCache[*shellparse.Program] }

func newParseCache(max int, obs CacheObserver) *parseCache {
	return &parseCache{newLRU[*shellparse.Program](max, obs)}
}

// parse returns the parse of command: the cached one when there is one,
// else a new one, kept unless the parse was cut short (by ctx or a limit).
// A cached Program is shared: callers must not change it, or its segments,
// and get segments of their own from ownSegments.
func (e *Engine) parse(ctx context.Context, command string) *shellparse.Program {
	c := e.parses
	if c == nil {
		return e.parser.ParseContext(ctx, command)
	}
	if len(command) > maxParseCacheKeyBytes {
		c.obs.CacheResult(CacheBypass)
		return e.parser.ParseContext(ctx, command)
	}
	if prog, ok := c.get(command); ok {
		return prog
	}
	c.obs.CacheResult(CacheMiss)
	prog := e.parser.ParseContext(ctx, command)
	if prog.TooComplex == nil {
		c.put(command, prog)
	}
	return prog
}

// ownSegments returns copies of a program's segments that a caller may
// add findings to without changing the (possibly cached) program: the
// segment structs are copied, and their findings clipped so that an
// append allocates anew.
func ownSegments(prog *shellparse.Program) []*shellparse.Segment {
	out := make([]*shellparse.Segment, len(prog.Segments))
	for i, seg := range prog.Segments {
		c := *seg
		c.Findings = slices.Clip(c.Findings)
		out[i] = &c
	}
	return out
}
