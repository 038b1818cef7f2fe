package server

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/logging"
	"github.com/open-policy-agent/opa/v1/plugins"
	bundleplugin "github.com/open-policy-agent/opa/v1/plugins/bundle"
	"github.com/open-policy-agent/opa/v1/plugins/logs"
	"github.com/open-policy-agent/opa/v1/plugins/status"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/gate-dev/gate/engine"
)

// BundleBuild builds an engine from gate's own policies plus the modules
// and data of the activated bundles. It should smoke-evaluate the engine
// with [Gateway.CheckEngine] before it keeps the bundles as the base of
// later builds, and answer an error (the bundle refused) when that fails.
type BundleBuild func(modules map[string]*ast.Module, data map[string]any) (*engine.Engine, error)

// StartBundles runs OPA's bundle plugin with an OPA configuration (its
// services, keys and bundles sections: polling, signature verification;
// decision_logs and status, when present, run OPA's plugins for them)
// and, each time bundles are activated, builds an engine with them and
// swaps it in. Bundles add policies under data.gate.rules (team rules) and
// data beside gate's own; their manifest roots must leave data.gate.settings
// to gate. The gateway is not ready until a bundle is activated; an
// activation gate cannot compile keeps the last good engine, and is
// counted as a failed reload. Every download attempt is counted in
// gate_bundle_loads_total: activated, refused (also a failed reload: a
// bundle that cannot be read, verified, activated or compiled) or
// unavailable (the server failed or answered an error status). Stop the returned manager when done.
func (g *Gateway) StartBundles(ctx context.Context, config []byte, id string, build BundleBuild) (*plugins.Manager, error) {
	store := inmem.New()
	// OPA's plugins log warnings and errors (a refused bundle says why).
	logger := logging.New()
	logger.SetLevel(logging.Warn)
	m, err := plugins.New(config, id, store, plugins.Logger(logger), plugins.ConsoleLogger(logger))
	if err != nil {
		return nil, fmt.Errorf("OPA configuration: %w", err)
	}
	if m.Config.Bundles == nil {
		return nil, fmt.Errorf("OPA configuration: no bundles section")
	}
	t := plugins.DefaultTriggerMode
	cfg, err := bundleplugin.NewConfigBuilder().WithBytes(m.Config.Bundles).WithServices(m.Services()).
		WithKeyConfigs(m.PublicKeys()).WithTriggerMode(&t).Parse()
	if err != nil {
		return nil, fmt.Errorf("OPA configuration: bundles: %w", err)
	}
	bp := bundleplugin.New(cfg, m)
	m.Register(bundleplugin.Name, bp)
	var (
		mu          sync.Mutex
		buildFailed bool                     // gate could not build the last activated bundles
		activated   = map[string]time.Time{} // per bundle, the last activation counted
	)
	bp.Register("gate", func(st bundleplugin.Status) {
		mu.Lock()
		defer mu.Unlock()
		result := bundleResult(st, activated, buildFailed)
		g.metrics.BundleLoad(result)
		if result == "refused" && st.Code != "" { // the compiler trigger counts its own
			g.metrics.Reload(false)
		}
	})
	// Decision logs are uploaded, and status reported, by OPA's own
	// plugins when the configuration asks for them.
	if m.Config.DecisionLogs != nil {
		lc, err := logs.ParseConfig(m.Config.DecisionLogs, m.Services(), nil)
		if err != nil {
			return nil, fmt.Errorf("OPA configuration: decision_logs: %w", err)
		}
		lp := logs.New(lc, m)
		m.Register(logs.Name, lp)
		g.opaLogs = lp
	}
	if m.Config.Status != nil {
		sc, err := status.ParseConfig(m.Config.Status, m.Services(), nil)
		if err != nil {
			return nil, fmt.Errorf("OPA configuration: status: %w", err)
		}
		m.Register(status.Name, status.New(sc, m))
	}
	m.RegisterCompilerTrigger(func(txn storage.Transaction) {
		modules, data, rev, err := readBundles(ctx, store, txn)
		if errors.Is(err, errNoBundles) {
			return // the store's first commit, before any bundle: nothing to build
		}
		if err == nil {
			var e *engine.Engine
			if e, err = build(modules, data); err == nil {
				g.SetEngine(e, rev)
				g.metrics.Reload(true)
				g.log.Info("bundle activated", "revision", rev)
				mu.Lock()
				buildFailed = false
				mu.Unlock()
				return
			}
		}
		mu.Lock()
		buildFailed = true
		mu.Unlock()
		g.metrics.Reload(false)
		g.log.Error("bundle refused; the last good policy keeps deciding", "error", err)
	})
	if err := m.Init(ctx); err != nil {
		return nil, err
	}
	if err := m.Start(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// bundleResult classifies a status report of OPA's bundle plugin (one per
// download attempt) as one of metrics.BundleResults, or "" when nothing
// new happened (not modified). A bundle the plugin could not download is
// unavailable; one it downloaded but could not read, verify or activate is
// refused, as is one gate could not build (buildFailed). activated holds
// each bundle's last activation counted.
func bundleResult(st bundleplugin.Status, activated map[string]time.Time, buildFailed bool) string {
	switch {
	case st.Code != "" && (st.HTTPCode != "" || strings.HasPrefix(st.Message, "request failed")):
		// An error status, or no answer (OPA's download.go: "request failed: ...").
		return "unavailable"
	case st.Code != "":
		return "refused"
	case st.LastSuccessfulActivation.After(activated[st.Name]):
		activated[st.Name] = st.LastSuccessfulActivation
		if buildFailed {
			return "refused"
		}
		return "activated"
	}
	return ""
}

// errNoBundles: no bundle has been activated yet.
var errNoBundles = errors.New("no bundle activated yet")

// readBundles reads the activated bundles' modules, data and revisions.
func readBundles(ctx context.Context, store storage.Store, txn storage.Transaction) (map[string]*ast.Module, map[string]any, string, error) {
	ids, err := store.ListPolicies(ctx, txn)
	if err != nil {
		return nil, nil, "", err
	}
	modules := map[string]*ast.Module{}
	for _, id := range ids {
		bs, err := store.GetPolicy(ctx, txn, id)
		if err != nil {
			return nil, nil, "", err
		}
		m, err := ast.ParseModuleWithOpts(id, string(bs), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return nil, nil, "", err
		}
		modules["bundle:"+id] = m
	}
	v, err := store.Read(ctx, txn, storage.RootPath)
	if err != nil {
		return nil, nil, "", err
	}
	data, _ := v.(map[string]any)
	delete(data, "system") // OPA's own bookkeeping (bundle manifests)
	names, err := bundle.ReadBundleNamesFromStore(ctx, store, txn)
	if storage.IsNotFound(err) || (err == nil && len(names) == 0) {
		return nil, nil, "", errNoBundles
	}
	if err != nil {
		return nil, nil, "", err
	}
	sort.Strings(names)
	var revs []string
	for _, n := range names {
		rev, _ := bundle.ReadBundleRevisionFromStore(ctx, store, txn, n)
		revs = append(revs, n+"@"+rev)
	}
	return modules, data, strings.Join(revs, ","), nil
}
