package runner

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// Overrides replace parts of a scenario from the command line, so a user
// can try presets on their own data without writing YAML.
type Overrides struct {
	Traces     []string
	Catalogs   []string
	Strategies []string // preset or scenario strategy names
	Baseline   string
	Seed       *int64
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
			return Config{}, fmt.Errorf("--baseline %q is not a strategy of this run", ov.Baseline)
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
	catalogs := sc.Catalogs
	if len(ov.Catalogs) > 0 {
		catalogs = ov.Catalogs
	}
	cfg := Config{Scenario: sc.Name, ScenarioFingerprint: sc.Fingerprint(), Seed: sc.Seed, Baseline: sc.Baseline,
		Strategies: sc.Strategies, Model: sc.Model, Params: sc.Params, Deny: sc.Permissions.Deny,
		CatalogFingerprint: sc.CatalogFingerprint}
	names := make([]string, 0, len(sc.Servers))
	for name := range sc.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := sc.Servers[name]
		if s.Local {
			cfg.LocalServers = append(cfg.LocalServers, name)
		}
		for _, u := range s.Upgrades {
			up := sim.Upgrade{Server: name, To: u.To, AfterSession: -1}
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
	var err error
	if cfg.Traces, err = sources(traces, embedded); err != nil {
		return Config{}, err
	}
	if cfg.Catalogs, err = sources(catalogs, embedded); err != nil {
		return Config{}, err
	}
	if len(cfg.Traces) == 0 {
		return Config{}, fmt.Errorf("scenario %s names no traces (use --traces FILE)", sc.Name)
	}
	return cfg, nil
}

func sources(paths []string, embedded fs.FS) ([]Source, error) {
	var out []Source
	for _, p := range paths {
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
