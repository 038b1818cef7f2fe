package server

import (
	"context"
	"fmt"
	"sort"
	"strings"

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
// and data of the activated bundles.
type BundleBuild func(modules map[string]*ast.Module, data map[string]any) (*engine.Engine, error)

// StartBundles runs OPA's bundle plugin with an OPA configuration (its
// services, keys and bundles sections: polling, signature verification;
// decision_logs and status, when present, run OPA's plugins for them)
// and, each time bundles are activated, builds an engine with them and
// swaps it in. Bundles add policies under data.gate.rules (team rules) and
// data beside gate's own; their manifest roots must leave data.gate.settings
// to gate. The gateway is not ready until a bundle is activated; an
// activation gate cannot compile keeps the last good engine, and is
// counted as a failed reload. Stop the returned manager when done.
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
	m.Register(bundleplugin.Name, bundleplugin.New(cfg, m))
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
		if err == nil {
			var e *engine.Engine
			if e, err = build(modules, data); err == nil {
				g.SetEngine(e, rev)
				g.metrics.Reload(true)
				g.log.Info("bundle activated", "revision", rev)
				return
			}
		}
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
