package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/gate-dev/gate/fstools"
	"github.com/gate-dev/gate/shellparse"
)

// maxRemoteKeyWords is how many words the lookup keys of a segment cover
// when the settings live on a remote decision point.
const maxRemoteKeyWords = 64

// Query is the policy entrypoint.
const Query = "data.gate.decision"

// DefaultEvalTimeout bounds one policy evaluation.
const DefaultEvalTimeout = 2 * time.Second

// unsafeBuiltins are refused in policies: a decision must not depend on the
// network or on the process running it.
var unsafeBuiltins = map[string]struct{}{
	"http.send":          {},
	"net.lookup_ip_addr": {},
	"opa.runtime":        {},
}

// Options configure an Engine.
type Options struct {
	// Settings are the Qwen Code settings to decide with.
	Settings Settings
	// Root is the workspace root; it defaults to the current directory.
	Root string
	// Home is the home directory (~); it defaults to the user's.
	Home string
	// TempDir is the temporary directory, which the fs layer lets commands
	// write and shell commands may write without asking (a path's facts
	// say "temp"); it defaults to os.TempDir(). "/", or a directory that
	// holds the home directory or the root, is no temporary directory.
	TempDir string
	// PolicyDirs are loaded besides the embedded default policies.
	PolicyDirs []string
	// Protected are files and directories no call may write (gate's own
	// settings and policy directories), with the reason why.
	Protected map[string]string
	// Secret are files and directories no call may read or write (gate's
	// state directory, which holds the server's bearer token), with the
	// reason why; a path ending in "/" is a directory even before it
	// exists. They join data.gate.paths.secret (see secret.go).
	Secret map[string]string
	// EvalTimeout bounds one evaluation; zero means DefaultEvalTimeout.
	EvalTimeout time.Duration
	// Remote, when its URL is set, makes decisions on a running OPA
	// server instead of the embedded engine.
	Remote RemoteOptions
	// Layers are the enforcement layers active around the commands gate
	// runs, given to the policies as input.layers; empty means
	// DefaultLayers. "static" is the decision on the parsed command;
	// "exec" is exec-time supervision of every program a command starts
	// (package supervise); "fs" the confinement of its writes.
	Layers []string
	// Limits bound the parse of a shell command; a command over them is
	// denied with CodeCommandTooComplex. Zero fields take their values
	// from shellparse.DefaultLimits.
	Limits shellparse.Limits
	// CacheEntries bounds the decision cache (see cache.go): zero means
	// DefaultCacheEntries, a negative number turns the cache off, and the
	// parse cache (parsecache.go) with it.
	CacheEntries int
	// CacheObserver, when set, learns every hit, miss, bypass and eviction
	// of the decision cache and its size.
	CacheObserver CacheObserver
	// ParseCacheObserver is the same for the parse cache.
	ParseCacheObserver CacheObserver
}

// DefaultLayers are the enforcement layers gate has: the static decision.
var DefaultLayers = []string{"static"}

// Engine decides tool calls. It is safe for concurrent use.
type Engine struct {
	remote *remote
	query  rego.PreparedEvalQuery
	mask   *maskQuery
	exec   *execQuery
	cat    *shellparse.Catalogue
	parser *shellparse.Parser
	// execParser reads the argv of a program at exec time (execSegment).
	execParser *shellparse.Parser
	resolver   *fstools.Resolver
	fs         *fstools.FS
	idx        *index
	ids        *identities
	home       string
	temp       string // resolved temporary directory, or ""
	// gitConfigured caches the paths the repository's configuration
	// names (core.hooksPath, include.path): see gitconfigured.go
	gitConfigured *configuredCache
	secrets       []secretPath // data.gate.paths.secret and Options.Secret, absolute
	// denyKeys are the path keys no command may write: data.gate.paths.deny
	// and Options.Protected (see protectedArgs).
	denyKeys map[string]bool
	// rootDenyKeys are denyKeys relative to the root, for patterns
	rootDenyKeys []denyKey
	layers       []string
	timeout      time.Duration
	policies     *Policies
	store        storage.Store
	cache        *decisionCache // nil when off
	cacheOff     string         // why the cache is off
	parses       *parseCache    // nil when off (see parsecache.go)
	// identity is Options.Identity of the options the engine was built
	// with, when New built it.
	identity    string
	identityErr error
	// getenv reads the environment of the process a call comes from
	// (knownWord); nil means this process's.
	getenv func(string) string
}

// maskQuery is the decision log mask policy, compiled on first use.
type maskQuery struct {
	once  sync.Once
	query rego.PreparedEvalQuery
	err   error
}

// Decision is the outcome of a call.
type Decision struct {
	// DecisionID names the decision in the decision log, when the gateway
	// made it.
	DecisionID string `json:"decision_id,omitempty"`
	// Decision is "allow", "deny" or "ask".
	Decision string `json:"decision"`
	// Reasons explain it, each with a code from gate's vocabulary (or a
	// user policy's own).
	Reasons []Reason `json:"reasons"`
}

// Reason is one reason for a decision.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Segment is the shell segment the reason is about.
	Segment *int `json:"segment,omitempty"`
	// Entry is the settings entry involved.
	Entry string `json:"entry,omitempty"`
	// Finding is the parser finding involved.
	Finding string `json:"finding,omitempty"`
	// Path is the resolved path involved.
	Path string `json:"path,omitempty"`
}

// Decisions.
const (
	Allow = "allow"
	Deny  = "deny"
	Ask   = "ask"
)

// DenyWith returns a deny decision with one reason.
func DenyWith(code Code, msg string) Decision {
	return Decision{Decision: Deny, Reasons: []Reason{{Code: string(code), Message: msg}}}
}

// Policies are loaded Rego modules and data.
type Policies struct {
	Modules   map[string]*ast.Module
	Documents map[string]any
}

// LoadPolicies loads the embedded default policies and those in dirs
// (.rego modules and data.json / data.yaml files).
func LoadPolicies(dirs []string) (*Policies, error) {
	res, err := embeddedPolicies()
	if err != nil {
		return nil, errorf(CodeBadPolicy, "loading embedded policies", err)
	}
	p := &Policies{Modules: map[string]*ast.Module{}, Documents: res.Documents}
	for name, m := range res.ParsedModules() {
		p.Modules["embedded:"+name] = m
	}
	if len(dirs) > 0 {
		for _, d := range dirs {
			if _, err := os.Stat(d); err != nil {
				return nil, errorf(CodeBadPolicy, "policy directory", err)
			}
		}
		user, err := loader.NewFileLoader().WithRegoVersion(ast.RegoV1).All(dirs)
		if err != nil {
			return nil, errorf(CodeBadPolicy, "loading policies", err)
		}
		for name, m := range user.ParsedModules() {
			if err := checkUserModule(m); err != nil {
				return nil, errorf(CodeBadPolicy, name, err)
			}
			p.Modules[name] = m
		}
		if err := mergeDocuments(p.Documents, user.Documents, ""); err != nil {
			return nil, errorf(CodeBadPolicy, "merging policy data", err)
		}
	}
	return p, nil
}

// entrypoints are the references of the decision rules, and where rules
// that add to them go.
var entrypoints = []struct {
	ref   ast.Ref
	rules string
}{{ast.MustParseRef(Query), "data.gate.rules"}, {ast.MustParseRef(ExecQuery), "data.gate.exec.rules"}}

// checkUserModule refuses a module that defines an entrypoint: extra
// policies add reasons under data.gate.rules (data.gate.exec.rules at exec
// time), they do not replace the decision.
func checkUserModule(m *ast.Module) error {
	for _, r := range m.Rules {
		for _, ep := range entrypoints {
			if p := r.Path(); p.HasPrefix(ep.ref) || ep.ref.HasPrefix(p) {
				return fmt.Errorf("rule %s redefines gate's entrypoint %s; add deny or ask rules in a package under %s instead", r.Ref(), ep.ref, ep.rules)
			}
		}
	}
	return nil
}

// mergeDocuments merges src into dst; objects merge recursively, anything
// else present in both is a conflict.
func mergeDocuments(dst, src map[string]any, path string) error {
	for k, v := range src {
		cur, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		a, aok := cur.(map[string]any)
		b, bok := v.(map[string]any)
		if !aok || !bok {
			return fmt.Errorf("data.%s%s is defined twice", path, k)
		}
		if err := mergeDocuments(a, b, path+k+"."); err != nil {
			return err
		}
	}
	return nil
}

// Catalogue returns the program catalogue at data.gate.catalogue.
func (p *Policies) Catalogue() (*shellparse.Catalogue, error) {
	var c shellparse.Catalogue
	if err := p.decode([]string{"gate", "catalogue"}, &c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, errorf(CodeBadPolicy, "data.gate.catalogue", err)
	}
	return &c, nil
}

// Aliases returns data.gate.tools.aliases inverted: alias → tool.
func (p *Policies) Aliases() (map[string]string, error) {
	byTool := map[string][]string{}
	if err := p.decode([]string{"gate", "tools", "aliases"}, &byTool); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for tool, names := range byTool {
		for _, n := range names {
			out[n] = tool
		}
	}
	return out, nil
}

// Equivalents returns data.gate.equivalents.
func (p *Policies) Equivalents() (map[string][]string, error) {
	eq := map[string][]string{}
	return eq, p.decode([]string{"gate", "equivalents"}, &eq)
}

func (p *Policies) decode(path []string, v any) error {
	var cur any = p.Documents
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	if cur == nil {
		return nil
	}
	bs, err := json.Marshal(cur)
	if err == nil {
		err = json.Unmarshal(bs, v)
	}
	if err != nil {
		return errorf(CodeBadPolicy, "data."+strings.Join(path, "."), err)
	}
	return nil
}

// New loads policies, builds the settings index and prepares the query.
// The engine's identity is computed before the policies are read: when a
// file changes in between, the identity names its old content, which no
// later reader computes.
func New(ctx context.Context, opts Options) (*Engine, error) {
	id, idErr := opts.Identity()
	pol, err := LoadPolicies(opts.PolicyDirs)
	if err != nil {
		return nil, err
	}
	e, err := NewWithPolicies(ctx, opts, pol)
	if err != nil {
		return nil, err
	}
	e.identity, e.identityErr = id, idErr
	return e, nil
}

// tempDir resolves the temporary directory dir (os.TempDir() when empty).
// It returns "" for "/", a relative path, one that does not resolve, one
// that holds home (writing there is writing the home directory's files),
// and one that holds the root: a workspace in the temporary directory
// keeps its edge there (../x is outside it).
func tempDir(dir, home, root string) string {
	if dir == "" {
		dir = os.TempDir()
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || !filepath.IsAbs(real) || filepath.Dir(real) == real {
		return ""
	}
	for _, d := range []string{home, root} {
		if _, under := fstools.Within(real, d); d != "" && under {
			return ""
		}
	}
	return real
}

// NewWithPolicies is New with policies already loaded.
func NewWithPolicies(ctx context.Context, opts Options, pol *Policies) (*Engine, error) {
	if err := opts.Settings.Validate(); err != nil {
		return nil, err
	}
	root := opts.Root
	if root == "" {
		root = "."
	}
	files, err := fstools.New(root)
	if err != nil {
		return nil, errorf(CodeBadSettings, "workspace root", err)
	}
	resolver := files.Resolver()
	if fi, err := os.Stat(resolver.Root()); err != nil || !fi.IsDir() {
		return nil, errorf(CodeBadSettings, fmt.Sprintf("workspace root %s is not a directory", root), nil)
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		if real, err := filepath.EvalSymlinks(home); err == nil {
			home = real
		}
	}
	cat, err := pol.Catalogue()
	if err != nil {
		return nil, err
	}
	eq, err := pol.Equivalents()
	if err != nil {
		return nil, err
	}
	aliases, err := pol.Aliases()
	if err != nil {
		return nil, err
	}
	parser := shellparse.NewParser(cat, shellparse.WithHome(home), shellparse.WithLimits(opts.Limits))
	protected := absPathKeys(opts.Protected)
	secret := absPathKeys(opts.Secret)
	dataSecret := map[string]string{}
	if err := pol.decode([]string{"gate", "paths", "secret"}, &dataSecret); err != nil {
		return nil, err
	}
	dataDeny, err := pol.ProtectedPaths()
	if err != nil {
		return nil, err
	}
	idx := buildIndex(opts.Settings, parser, aliases, eq, protected)
	idx.Secret = secret
	if idx.key, err = settingsKey(idx); err != nil {
		return nil, errorf(CodeInternal, "settings index", err)
	}
	if opts.Remote.URL != "" && opts.Remote.KeepSettings {
		// The server's settings are not known here: give every segment the
		// keys of entries of any length gate could hold, so that none can
		// be missed.
		idx.maxWords, idx.maxPath = max(idx.maxWords, maxRemoteKeyWords), max(idx.maxPath, maxRemoteKeyWords)
	}
	e := &Engine{
		gitConfigured: &configuredCache{},
		parser:        parser,
		execParser:    shellparse.NewParser(cat, shellparse.WithHome(home), shellparse.WithLimits(opts.Limits), shellparse.ForExec()),
		cat:           cat,
		resolver:      resolver,
		fs:            files,
		idx:           idx,
		ids:           newIdentities(excludedPrograms(idx)),
		home:          home,
		temp:          tempDir(opts.TempDir, home, resolver.Root()),
		secrets:       secretPaths(secret, dataSecret, home),
		denyKeys:      denyKeySet(protected, dataDeny),
		layers:        slices.Clone(opts.Layers),
		timeout:       opts.EvalTimeout,
		policies:      pol,
		mask:          &maskQuery{},
		exec:          &execQuery{},
	}
	e.rootDenyKeys = rootDenyKeys(e.denyKeys)
	if e.timeout <= 0 {
		e.timeout = DefaultEvalTimeout
	}
	if len(e.layers) == 0 {
		e.layers = slices.Clone(DefaultLayers)
	}
	if opts.Remote.URL != "" {
		e.remote = newRemote(opts.Remote)
	}
	if err := e.prepare(ctx, pol); err != nil {
		return nil, err
	}
	if opts.CacheEntries >= 0 {
		e.parses = newParseCache(DefaultParseCacheEntries, opts.ParseCacheObserver)
	}
	switch nd := nondeterministicBuiltins(pol.Modules); {
	case opts.CacheEntries < 0:
		e.cacheOff = "turned off in the settings"
	case e.remote != nil:
		e.cacheOff = "decisions are made on a remote OPA server, whose policies and data may change"
	case len(nd) > 0:
		e.cacheOff = "the policies call non-deterministic built-ins: " + strings.Join(nd, ", ")
	default:
		n := opts.CacheEntries
		if n == 0 {
			n = DefaultCacheEntries
		}
		e.cache = newDecisionCache(n, opts.CacheObserver)
	}
	return e, nil
}

// excludedPrograms lists the programs named first by exclude entries.
func excludedPrograms(idx *index) []string {
	set := map[string]bool{}
	for _, byKey := range idx.Exclude.Paths {
		for key := range byKey {
			prog, _, _ := strings.Cut(key, " ")
			set[prog] = true
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (e *Engine) prepare(ctx context.Context, pol *Policies) error {
	docs := map[string]any{}
	if err := mergeDocuments(docs, pol.Documents, ""); err != nil {
		return errorf(CodeBadPolicy, "policy data", err)
	}
	settings, err := toJSONValue(e.idx)
	if err != nil {
		return errorf(CodeInternal, "settings index", err)
	}
	// The settings live under their own key, which the input names: the
	// policies read them as data.gate.settings (policies/gate/decision.rego),
	// here as on a shared OPA server.
	if err := mergeDocuments(docs, map[string]any{"gate": map[string]any{
		"settings_by_key":      map[string]any{e.idx.key: settings},
		"default_settings_key": e.idx.key,
	}}, ""); err != nil {
		return errorf(CodeBadPolicy, "data.gate.settings_by_key and data.gate.default_settings_key are reserved for gate's settings", err)
	}
	e.store = inmem.NewFromObjectWithOpts(docs, inmem.OptReturnASTValuesOnRead(true))
	q, err := e.prepareQuery(ctx, Query)
	if err != nil {
		return errorf(CodeBadPolicy, "compiling policies", err)
	}
	e.query = q
	return nil
}

// prepareQuery compiles the policies for one query on the engine's store.
func (e *Engine) prepareQuery(ctx context.Context, query string) (rego.PreparedEvalQuery, error) {
	opts := []func(*rego.Rego){
		rego.Query(query),
		rego.Store(e.store),
		rego.StrictBuiltinErrors(true),
		rego.UnsafeBuiltins(unsafeBuiltins),
		rego.SetRegoVersion(ast.RegoV1),
	}
	names := make([]string, 0, len(e.policies.Modules))
	for name := range e.policies.Modules {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		opts = append(opts, rego.ParsedModule(e.policies.Modules[name]))
	}
	return rego.New(opts...).PrepareForEval(ctx)
}

// settingsKey names a settings index: a hash of its JSON form.
func settingsKey(idx *index) (string, error) {
	bs, err := json.Marshal(idx)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(bs)
	return hex.EncodeToString(sum[:8]), nil
}

// settingsKeyFor is the key an input names: the engine's own, or none when
// the settings are the remote server's (--opa-keep-settings).
func (e *Engine) settingsKeyFor() string {
	if e.remote != nil && !e.remote.push {
		return ""
	}
	return e.idx.key
}

// toJSONValue converts v to the generic JSON form the store holds.
func toJSONValue(v any) (any, error) {
	bs, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	d := json.NewDecoder(bytes.NewReader(bs))
	d.UseNumber()
	return out, d.Decode(&out)
}

// Scoped returns the engine deciding as it would in another process: with
// the enforcement layers active there (empty: the engine's own) and the
// environment variables set there (KEY=VALUE, the first of a key
// counting, as os.Getenv reads them), which the paths of $NAME words
// expand with. It shares the engine's compiled policies and cache.
func (e *Engine) Scoped(layers []string, environ []string) *Engine {
	s := *e
	if len(layers) > 0 {
		s.layers = slices.Clone(layers)
	}
	env := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if _, seen := env[k]; ok && !seen {
			env[k] = v
		}
	}
	s.getenv = func(k string) string { return env[k] }
	return &s
}

// Parse parses a shell command as the engine's policies see it.
func (e *Engine) Parse(command string) *shellparse.Program { return e.parser.Parse(command) }

// SettingsData returns data.gate.settings as the policies see it.
func (e *Engine) SettingsData() any {
	v, _ := toJSONValue(e.idx)
	return v
}

// MaskQuery is the decision log mask policy, as OPA names it.
const MaskQuery = "data.system.log.mask"

// Mask evaluates the decision log mask policy on a decision log event (a
// JSON object) and returns its results: JSON pointers to erase, or
// {"op", "path", "value"} objects. The query is compiled on first use, so
// that commands that log nothing do not pay for it.
func (e *Engine) Mask(ctx context.Context, event map[string]any) ([]any, error) {
	e.mask.once.Do(func() {
		opts := []func(*rego.Rego){rego.Query(MaskQuery), rego.Store(e.store), rego.StrictBuiltinErrors(true),
			rego.UnsafeBuiltins(unsafeBuiltins), rego.SetRegoVersion(ast.RegoV1)}
		names := make([]string, 0, len(e.policies.Modules))
		for name := range e.policies.Modules {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			opts = append(opts, rego.ParsedModule(e.policies.Modules[name]))
		}
		e.mask.query, e.mask.err = rego.New(opts...).PrepareForEval(ctx)
	})
	if e.mask.err != nil {
		return nil, e.mask.err
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	rs, err := e.mask.query.Eval(ctx, rego.EvalInput(event))
	if err != nil || len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, err
	}
	list, _ := rs[0].Expressions[0].Value.([]any)
	return list, nil
}

// Files returns the file tools of the engine's root.
func (e *Engine) Files() *fstools.FS { return e.fs }

// Decide decides a call. A malformed call is an error with CodeInvalidCall;
// every other failure is a deny decision whose reason names the cause.
func (e *Engine) Decide(ctx context.Context, call Call) (Decision, error) {
	_, d, err := e.DecideInput(ctx, call)
	return d, err
}

// DecideInput is Decide that also returns the policy input it decided on.
// Parsing and evaluation share one time budget (the evaluation timeout).
// A panic while deciding is a deny with CodeInternal; the input is then the
// call alone.
func (e *Engine) DecideInput(ctx context.Context, call Call) (in *Input, d Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			in, d, err = &Input{Tool: call.Tool, Args: call.Args, Paths: []PathInput{}}, PanicDecision(v), nil
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	in, err = e.InputContext(ctx, call)
	if err != nil {
		return nil, Decision{}, err
	}
	return in, e.Evaluate(ctx, in), nil
}

// PanicDecision is the deny that answers a call whose decision panicked
// with v.
func PanicDecision(v any) Decision {
	return DenyWith(CodeInternal, fmt.Sprintf("internal error: panic while deciding: %v", v))
}

// Evaluate evaluates the policies on an input. A command over the parser's
// limits is denied with CodeCommandTooComplex without evaluation.
func (e *Engine) Evaluate(ctx context.Context, in *Input) Decision {
	in.SettingsKey = e.settingsKeyFor()
	if in.Shell != nil && in.Shell.TooComplex != nil {
		return e.tooComplex(in.Shell.TooComplex)
	}
	var key string
	cached := false
	if e.cache != nil {
		if key, cached = cacheKey(in); !cached {
			e.cache.obs.CacheResult(CacheBypass)
		} else if d, ok := e.cache.get(key); ok {
			return d
		} else {
			e.cache.obs.CacheResult(CacheMiss)
		}
	}
	val, err := inputValue(in)
	if err != nil {
		return DenyWith(CodeInternal, "cannot encode the policy input: "+err.Error())
	}
	ctx, cancel := withBudget(ctx, e.timeout)
	defer cancel()
	if e.remote != nil {
		return e.remote.evaluate(ctx, e, in)
	}
	rs, err := evalQuery(ctx, e.query, val)
	d := e.result(ctx, Query, rs, err)
	if cached && err == nil && ctx.Err() == nil && policyMade(d) {
		e.cache.put(key, d)
	}
	return d
}

// withBudget bounds ctx to d from now, unless it already ends no later
// (Decide's budget, set before parsing): a second timer would only cost.
func withBudget(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if end, ok := ctx.Deadline(); ok && !end.After(time.Now().Add(d)) {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// evalQuery evaluates a prepared query on a parsed input, without two
// things OPA otherwise does on every evaluation: start a goroutine that
// waits for the context to end (the query is cancelled from a context
// callback instead, registered for the evaluation and removed after it),
// and collect metrics no one reads.
func evalQuery(ctx context.Context, q rego.PreparedEvalQuery, in ast.Value) (rego.ResultSet, error) {
	c := topdown.NewCancel()
	stop := context.AfterFunc(ctx, c.Cancel)
	defer stop()
	return q.Eval(ctx, rego.EvalParsedInput(in), rego.EvalExternalCancel(c), rego.EvalMetrics(metrics.NoOp()))
}

// policyMade reports whether a decision is the policies' own answer, not a
// failure to get one (a timeout, an error, an undefined result), which is
// never cached.
func policyMade(d Decision) bool {
	for _, r := range d.Reasons {
		switch Code(r.Code) {
		case CodeEvalTimeout, CodePolicyError, CodePolicyUndefined, CodeInternal:
			return false
		}
	}
	return true
}

// tooComplex is the deny of a command over a limit of the parser.
func (e *Engine) tooComplex(le *shellparse.LimitError) Decision {
	msg := le.Message
	if le.Limit == shellparse.LimitTime {
		msg = fmt.Sprintf("parsing the command did not finish within the decision budget of %s", e.timeout)
	}
	return DenyWith(CodeCommandTooComplex, "The command is too complex to check ("+le.Limit+" limit): "+msg)
}

func decodeDecision(v any) (Decision, error) { return decodeDecisionOf(Query, v) }

// decodeDecisionOf checks and decodes the value of the entrypoint query.
func decodeDecisionOf(Query string, v any) (Decision, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Decision{}, fmt.Errorf("%s is not an object", Query)
	}
	d := Decision{Reasons: []Reason{}}
	d.Decision, _ = m["decision"].(string)
	switch d.Decision {
	case Allow, Deny, Ask:
	default:
		return Decision{}, fmt.Errorf("%s.decision is %v, not allow, deny or ask", Query, m["decision"])
	}
	list, _ := m["reasons"].([]any)
	for _, r := range list {
		rm, ok := r.(map[string]any)
		if !ok {
			return Decision{}, fmt.Errorf("%s.reasons holds %v, not an object", Query, r)
		}
		reason := Reason{}
		reason.Code, _ = rm["code"].(string)
		reason.Message, _ = rm["message"].(string)
		reason.Entry, _ = rm["entry"].(string)
		reason.Finding, _ = rm["finding"].(string)
		reason.Path, _ = rm["path"].(string)
		if n, ok := rm["segment"].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				id := int(i)
				reason.Segment = &id
			}
		}
		if reason.Code == "" {
			return Decision{}, fmt.Errorf("%s.reasons holds a reason without a code", Query)
		}
		d.Reasons = append(d.Reasons, reason)
	}
	if d.Decision != Allow && len(d.Reasons) == 0 {
		return Decision{}, fmt.Errorf("%s is %s without a reason", Query, d.Decision)
	}
	return d, nil
}

// Enabled reports whether the settings make tool available, as Qwen Code
// decides which tools exist: a non-empty tools.core must list it (a
// run_shell_command(...) entry enables the shell), and tools.exclude must
// not name it bare.
func (e *Engine) Enabled(tool string) bool {
	if !KnownTool(tool) {
		return false
	}
	if e.idx.Core.Count > 0 && !e.idx.Core.Tools[tool] {
		return false
	}
	return !e.idx.Exclude.Names[tool]
}

// Add adds modules and data (from bundles) to loaded policies. Data may
// not redefine what the policies already hold, and modules may not
// redefine the entrypoint.
func (p *Policies) Add(modules map[string]*ast.Module, data map[string]any) error {
	for name, m := range modules {
		if err := checkUserModule(m); err != nil {
			return errorf(CodeBadPolicy, name, err)
		}
		p.Modules[name] = m
	}
	if err := mergeDocuments(p.Documents, data, ""); err != nil {
		return errorf(CodeBadPolicy, "merging bundle data", err)
	}
	return nil
}
