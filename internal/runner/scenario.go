package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	tracesPkg "github.com/defersim/defersim/traces"
)

// Overrides replace parts of a scenario from the command line, so a user
// can try presets on their own data without writing YAML.
type Overrides struct {
	Traces     []string
	Catalogs   []string
	Strategies []string // preset or scenario strategy names
	Baseline   string
	Seed       *int64
	// SRD replaces the scenario's routing descriptions (srd).
	SRD []string
	// MaxUnresolved replaces the scenario's max_unresolved;
	// AllowUnresolved lets a run with any share of unresolved calls go on.
	MaxUnresolved   *float64
	AllowUnresolved bool
}

// FromScenario resolves a scenario (and overrides) into a run Config.
// embedded serves "embedded:" paths (the default data set).
func FromScenario(sc *scenarios.Scenario, ov Overrides, embedded fs.FS) (Config, error) {
	if len(ov.Strategies) > 0 {
		if err := sc.SelectStrategies(ov.Strategies); err != nil {
			return Config{}, err
		}
	}
	if ov.Baseline != "" {
		if _, ok := sc.Strategy(ov.Baseline); !ok {
			var names []string
			for _, st := range sc.Strategies {
				names = append(names, st.Name)
			}
			return Config{}, errors.New(catalog.NearName(ov.Baseline, names).WithHint(fmt.Sprintf("--baseline %q is not a strategy of this run (its strategies: %s)", ov.Baseline, strings.Join(names, ", "))))
		}
		sc.Baseline = ov.Baseline
	}
	if _, ok := sc.Strategy(sc.Baseline); !ok && len(sc.Strategies) > 0 {
		sc.Baseline = sc.Strategies[0].Name
	}
	if ov.Seed != nil {
		sc.Seed = *ov.Seed
	}
	traces := sc.Traces
	if len(ov.Traces) > 0 {
		traces = ov.Traces
	}
	catalogs, from, err := RunCatalogs(sc, ov, embedded)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Scenario: sc.Name, ScenarioFingerprint: sc.Fingerprint(), Seed: sc.Seed, Baseline: sc.Baseline,
		Strategies: sc.Strategies, Model: sc.Model, ModelPreset: sc.ModelPreset, Params: sc.Params, Allow: sc.Permissions.Allow, Deny: sc.Permissions.Deny,
		CatalogFingerprint: sc.CatalogFingerprint, CatalogsFrom: from, SRD: sc.SRD,
		MaxUnresolved: sc.MaxUnresolved, AllowUnresolved: ov.AllowUnresolved, CheckReads: sc.CheckRunReads, Wrote: sc.Wrote,
		FlagUnmatched: !EmbeddedCatalogs(sc.Catalogs)}
	if len(ov.SRD) > 0 {
		cfg.SRD = ov.SRD
	}
	if ov.MaxUnresolved != nil {
		cfg.MaxUnresolved = ov.MaxUnresolved
	}
	if note := LimitNotCarried(sc, ov); note != "" {
		cfg.MaxUnresolved = nil // the default
		cfg.Notes = append(cfg.Notes, sim.Assumption{Name: "max_unresolved", Value: sim.SharePercent(DefaultMaxUnresolved), Source: note})
	}
	if fp := sc.FingerprintExceptServers(); fp != cfg.ScenarioFingerprint {
		cfg.FingerprintExceptServers = fp
	}
	names := make([]string, 0, len(sc.Servers))
	for name := range sc.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := sc.Servers[name]
		rec := sim.ScenarioServer{Server: name, Local: s.Local}
		for _, u := range s.Upgrades {
			su := sim.ScenarioUpgrade{To: u.To, At: u.At}
			if u.AfterSession != nil {
				su.AfterSession = *u.AfterSession
			}
			rec.Upgrades = append(rec.Upgrades, su)
		}
		cfg.Servers = append(cfg.Servers, rec)
		if s.Local {
			cfg.LocalServers = append(cfg.LocalServers, name)
		}
		for i, u := range s.Upgrades {
			// A "to" naming a launch variant by its version ("0.0.60+caps")
			// upgrades the variant's series, as a trace's catalog_change does.
			server, to := catalog.SeriesRef(name, u.To)
			up := sim.Upgrade{Server: server, To: to, AfterSession: -1, Where: sc.Where(fmt.Sprintf("servers.%s.upgrades[%d]", name, i))}
			if u.AfterSession != nil {
				up.AfterSession = *u.AfterSession
			} else {
				t, err := u.Time()
				if err != nil {
					return Config{}, fmt.Errorf("servers.%s.upgrades: %w", name, err)
				}
				up.At = t
			}
			cfg.Upgrades = append(cfg.Upgrades, up)
		}
	}
	for _, n := range sc.Assumptions {
		cfg.Notes = append(cfg.Notes, sim.Assumption{Name: "note", Value: n, Source: "scenario assumptions"})
	}
	cfg.Notes = append(cfg.Notes, recommendedFor(sc)...)
	if cfg.Traces, err = sources(traces, embedded); err != nil {
		return Config{}, err
	}
	cfg.Catalogs = catalogs
	if len(cfg.Traces) == 0 {
		return Config{}, fmt.Errorf("scenario %s names no traces (use --traces FILE)", sc.Name)
	}
	return cfg, nil
}

// LimitNotCarried says why a scenario's max_unresolved does not apply to a
// run ("" when it does): a limit above the default is allowed for the
// scenario's own traces (calibrate writes one for the held-out sessions it
// replays), so when --traces replaces them, and --max-unresolved does not
// set a limit, the run stops above the default share like a plain run.
func LimitNotCarried(sc *scenarios.Scenario, ov Overrides) string {
	m := sc.MaxUnresolved
	if len(ov.Traces) == 0 || ov.MaxUnresolved != nil || m == nil || *m <= DefaultMaxUnresolved {
		return ""
	}
	return fmt.Sprintf("the scenario's max_unresolved %g allows unresolved calls in its own traces; --traces replaced them, "+
		"so the default %s applies (pass --max-unresolved %g to keep the scenario's)", *m, sim.SharePercent(DefaultMaxUnresolved), *m)
}

// Where a run's catalogs come from (Config.CatalogsFrom).
const (
	CatalogsFromFlag     = "--catalogs"
	CatalogsFromScenario = "the scenario's catalogs"
	CatalogsFromTraces   = "the traces' own catalogs (the catalog each trace names, or the one beside it: docs/trace-format.md#catalog)"
)

// RunCatalogs returns the catalog sources a run of sc with the overrides
// loads (catalogsFor), and where they come from (CatalogsFrom*). `trace
// validate` resolves its traces against them, so that it says what the run
// would say of them.
func RunCatalogs(sc *scenarios.Scenario, ov Overrides, embedded fs.FS) ([]Source, string, error) {
	traces := sc.Traces
	if len(ov.Traces) > 0 {
		traces = ov.Traces
	}
	paths, from, err := catalogsFor(sc, ov, traces)
	if err != nil {
		return nil, "", err
	}
	srcs, err := sources(paths, embedded)
	if err != nil {
		return nil, "", err
	}
	return srcs, from, nil
}

// catalogsFor picks a run's catalogs: --catalogs when given; else, when
// the traces are the command line's or the scenario names no catalogs,
// the traces' own (traces.CatalogsFor: an imported trace names its
// catalog) when they have any; else the scenario's, except that
// --traces on disk with no catalog of their own under a scenario whose
// catalogs are all embedded stop with NoCatalogError.
func catalogsFor(sc *scenarios.Scenario, ov Overrides, tracePaths []string) ([]string, string, error) {
	if len(ov.Catalogs) > 0 {
		return ov.Catalogs, CatalogsFromFlag, nil
	}
	if len(ov.Traces) > 0 || len(sc.Catalogs) == 0 {
		var onDisk []string
		for _, p := range tracePaths {
			if !strings.HasPrefix(p, scenarios.EmbeddedPrefix) {
				onDisk = append(onDisk, p)
			}
		}
		own, err := tracesPkg.CatalogsFor(onDisk)
		if err != nil {
			return nil, "", err
		}
		if len(own) > 0 {
			return own, CatalogsFromTraces, nil
		}
		// The user's traces, without a catalog of their own, are not
		// replayed over catalogs written for the embedded sample sessions
		// unless --catalogs names them: a scenario file naming catalogs on
		// disk chose those for them.
		if len(ov.Traces) > 0 && len(onDisk) > 0 && EmbeddedCatalogs(sc.Catalogs) {
			return nil, "", NewNoCatalogError(sc.Catalogs, onDisk)
		}
	}
	return sc.Catalogs, CatalogsFromScenario, nil
}

func sources(paths []string, embedded fs.FS) ([]Source, error) {
	var out []Source
	for _, p := range paths {
		if err := notStdin(p); err != nil {
			return nil, err
		}
		if name, ok := strings.CutPrefix(p, scenarios.EmbeddedPrefix); ok {
			if embedded == nil {
				return nil, fmt.Errorf("%s: no embedded data in this build", p)
			}
			if _, err := fs.Stat(embedded, name); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			out = append(out, Source{Path: p, FS: embedded, Name: name})
			continue
		}
		out = append(out, Source{Path: p})
	}
	return out, nil
}

// EmbeddedCatalogs reports whether a scenario's catalogs are all embedded
// (and there are some): it was written for the embedded data.
func EmbeddedCatalogs(catalogs []string) bool {
	return len(catalogs) > 0 && !slices.ContainsFunc(catalogs, func(c string) bool { return !strings.HasPrefix(c, scenarios.EmbeddedPrefix) })
}
