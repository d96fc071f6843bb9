package runner

import (
	"context"
	"fmt"
	"iter"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Output is what a run produced.
type Output struct {
	Results *report.Results
	Run     *sim.RunResult
	Info    sim.RunInfo
}

// Run executes cfg: it replays every session of every trace under every
// strategy and builds the results.
func Run(ctx context.Context, cfg Config) (*Output, error) {
	cat, err := loadCatalogs(cfg.Catalogs)
	if err != nil {
		return nil, err
	}
	reg := cfg.Registry
	if reg == nil {
		if reg, err = DefaultRegistry(); err != nil {
			return nil, err
		}
	}
	val := cfg.Validator
	if val == nil {
		val = defaultValidator()
	}
	eng, err := sim.NewEngine(sim.Config{Strategies: cfg.Strategies, Model: cfg.Model, Params: cfg.Params,
		Catalog: cat, Seed: cfg.Seed, Registry: reg, LocalServers: cfg.LocalServers, Deny: cfg.Deny, Upgrades: cfg.Upgrades,
		Validator: val})
	if err != nil {
		return nil, err
	}
	info := sim.RunInfo{Scenario: cfg.Scenario, ScenarioFingerprint: cfg.ScenarioFingerprint, Seed: cfg.Seed,
		Baseline: cfg.Baseline, Tokenizer: cfg.Params.Tokenizer, Model: cfg.Model.Name, CacheModel: cacheLabel(cfg.Model.Cache)}
	if info.Baseline == "" {
		info.Baseline = cfg.Strategies[0].Name
	}
	for _, src := range cfg.Traces {
		in, err := src.fingerprint("trace")
		if err != nil {
			return nil, err
		}
		info.Inputs = append(info.Inputs, in)
	}
	info.Inputs = append(info.Inputs, catalogInputs(cat)...)

	var counts []traces.Counts
	prog := newProgress(cfg.Progress)
	res, err := eng.Run(ctx, allSessions(cfg.Traces, traces.ReadOptions{SkipBad: cfg.SkipBad}, &counts),
		sim.RunOptions{Workers: cfg.Workers, Strict: cfg.Strict, Progress: prog.update})
	prog.done()
	if err != nil {
		return nil, err
	}
	c := &res.Counts
	c.Files = len(cfg.Traces)
	for _, tc := range counts {
		c.LinesRead += tc.Lines
		c.EventsRead += tc.Events
		c.LinesSkipped += tc.Skipped
		for k, v := range tc.SkipReasons {
			if c.SkipReasons == nil {
				c.SkipReasons = map[string]int{}
			}
			c.SkipReasons[string(k)] += int(v)
		}
	}
	if len(res.Failures) > 0 {
		if c.SkipReasons == nil {
			c.SkipReasons = map[string]int{}
		}
		c.SkipReasons["replay_failed"] += len(res.Failures)
	}
	info.Counts = *c
	if c.SessionsReplayed == 0 {
		return nil, fmt.Errorf("no session was replayed (%d read, %d skipped)", c.SessionsRead, c.SessionsSkipped)
	}
	if f := eng.FidelityStrategy(); f != "" {
		info.Fidelity = sim.SummarizeFidelity(f, res.Fidelity)
	}
	info.Assumptions = Assumptions(cfg, eng)
	results, err := report.Build(res.Outcomes, info, report.BuildOptions{Bootstrap: cfg.Bootstrap, Workers: cfg.Workers,
		Prices: prices(cfg.Model)})
	if err != nil {
		return nil, fmt.Errorf("summarise results: %w", err)
	}
	return &Output{Results: results, Run: res, Info: info}, nil
}

// allSessions chains the sessions of every trace file, recording each
// file's counts when it is done.
func allSessions(srcs []Source, opts traces.ReadOptions, counts *[]traces.Counts) iter.Seq2[*traces.Session, error] {
	return func(yield func(*traces.Session, error) bool) {
		for _, src := range srcs {
			f, err := src.open()
			if err != nil {
				yield(nil, fmt.Errorf("open trace %s: %w", src.Path, err))
				return
			}
			r, err := traces.NewReader(f, src.Path, opts)
			if err != nil {
				f.Close()
				yield(nil, err)
				return
			}
			stop := false
			for s, err := range r.Sessions() {
				if !yield(s, err) || err != nil {
					stop = true
					break
				}
			}
			*counts = append(*counts, r.Counts())
			r.Close()
			f.Close()
			if stop {
				return
			}
		}
	}
}

func cacheLabel(c sim.CacheConfig) string {
	if c.Kind == "none" || c.Kind == "" {
		return "none"
	}
	return fmt.Sprintf("%s (ttl %gs, min %d tokens, write %gx, read %gx)", c.Kind, c.TTLSeconds, c.MinTokens, c.WriteMultiplier, c.ReadMultiplier)
}

func prices(m sim.Model) *report.Prices {
	in := m.Pricing.InputPerMTok
	return &report.Prices{Model: m.Name, Input: in, CacheWrite: in * m.Cache.WriteMultiplier,
		CacheRead: in * m.Cache.ReadMultiplier, Output: m.Pricing.OutputPerMTok}
}
