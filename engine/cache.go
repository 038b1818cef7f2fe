package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/open-policy-agent/opa/v1/ast"
)

// The decision cache remembers decisions by their exact policy input: the
// Input's JSON (which is the document the policies see, see
// TestInputValueMatchesJSON), made after the call's paths were resolved and
// its program facts read, so a change on disk that changes the input misses.
// It belongs to one Engine, that is one compilation of the policies and one
// settings index: a reload builds a new Engine and so starts empty. It holds
// only when no policy module calls a non-deterministic built-in (time,
// randomness, the network: checked when the policies are compiled), only
// decisions the policies made (never a timeout, a cancellation or a policy
// error), and never decisions made on a remote OPA server.

// DefaultCacheEntries is how many decisions the cache holds by default.
const DefaultCacheEntries = 4096

// maxCacheKeyBytes bounds the input a cached decision is kept for; a larger
// input (a write_file with a big content, a very long command) is decided
// every time.
const maxCacheKeyBytes = 16 << 10

// Cache results, the label values of gate_decision_cache_total.
const (
	CacheHit    = "hit"
	CacheMiss   = "miss"
	CacheBypass = "bypass" // too large or not cacheable
	CacheEvict  = "evict"  // a miss that pushed out the least recently used entry
)

// CacheResults are the values CacheObserver.CacheResult is called with.
var CacheResults = []string{CacheHit, CacheMiss, CacheBypass, CacheEvict}

// CacheObserver learns what the decision cache does (package metrics
// counts it).
type CacheObserver interface {
	CacheResult(result string)
	CacheEntries(n int)
}

// lruCache is a bounded map from string keys to values that forgets the
// least recently used entry first, and tells its observer of every hit,
// eviction and change of size (misses and bypasses are the caller's).
type lruCache[V any] struct {
	c   *lru.Cache[string, V]
	max int
	obs CacheObserver
}

func newLRU[V any](max int, obs CacheObserver) *lruCache[V] {
	if obs == nil {
		obs = nopObserver{}
	}
	c, err := lru.New[string, V](max)
	if err != nil {
		panic(err) // only for a size below 1, which callers never ask for
	}
	obs.CacheEntries(0)
	return &lruCache[V]{c: c, max: max, obs: obs}
}

type nopObserver struct{}

func (nopObserver) CacheResult(string) {}
func (nopObserver) CacheEntries(int)   {}

func (c *lruCache[V]) get(key string) (V, bool) {
	v, ok := c.c.Get(key)
	if ok {
		c.obs.CacheResult(CacheHit)
	}
	return v, ok
}

func (c *lruCache[V]) put(key string, v V) {
	if c.c.Add(key, v) {
		c.obs.CacheResult(CacheEvict)
	}
	c.obs.CacheEntries(c.c.Len())
}

func (c *lruCache[V]) len() int { return c.c.Len() }

// decisionCache is a bounded LRU map from exact policy input to decision.
// Decisions are copied in and out, so that a caller that changes the
// decision it got does not change the cache.
type decisionCache struct{ *lruCache[Decision] }

func newDecisionCache(max int, obs CacheObserver) *decisionCache {
	return &decisionCache{newLRU[Decision](max, obs)}
}

// key returns the cache key of an input, or false when it is too large to
// keep.
func cacheKey(in *Input) (string, bool) {
	bs, err := json.Marshal(in)
	if err != nil || len(bs) > maxCacheKeyBytes {
		return "", false
	}
	return string(bs), true
}

func (c *decisionCache) get(key string) (Decision, bool) {
	d, ok := c.lruCache.get(key)
	return copyDecision(d), ok
}

func (c *decisionCache) put(key string, d Decision) { c.lruCache.put(key, copyDecision(d)) }

// copyDecision copies a decision's reasons, so that a caller that changes
// the decision it got does not change the cache.
func copyDecision(d Decision) Decision {
	d.Reasons = slices.Clone(d.Reasons)
	for i, r := range d.Reasons {
		if r.Segment != nil {
			id := *r.Segment
			d.Reasons[i].Segment = &id
		}
	}
	return d
}

// nondeterministicBuiltins lists the non-deterministic built-ins the modules
// call (time.now_ns, rand.intn, uuid.rfc4122, http.send, ...), by name:
// decisions that call them may differ for the same input.
func nondeterministicBuiltins(modules map[string]*ast.Module) []string {
	found := map[string]bool{}
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			call, ok := t.Value.(ast.Call)
			if !ok || len(call) == 0 {
				return false
			}
			name := call[0].Value.String()
			if b, ok := ast.BuiltinMap[name]; ok && b.Nondeterministic {
				found[name] = true
			}
			return false
		})
		ast.WalkExprs(m, func(x *ast.Expr) bool {
			if x.IsCall() {
				name := x.Operator().String()
				if b, ok := ast.BuiltinMap[name]; ok && b.Nondeterministic {
					found[name] = true
				}
			}
			return false
		})
	}
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CacheStatus says whether this engine caches decisions, and why not.
func (e *Engine) CacheStatus() string {
	if e.cache != nil {
		return fmt.Sprintf("on (%d entries at most, %d held)", e.cache.max, e.cache.len())
	}
	return "off: " + e.cacheOff
}
