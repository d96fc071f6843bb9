package runner

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// sharedStrategies bounds the strategies of the runs one shared replay
// files at once (counted per run: a strategy of two runs counts twice):
// each run's state holds its own per-session values (up to
// --exact-sessions sessions) and sketches, so more runs are replayed in
// more passes over the traces (docs/performance.md).
var sharedStrategies = 32

// RunError is an error of RunShared's run Index (the first run of its
// pass when the replay failed).
type RunError struct {
	Index int
	Err   error
}

func (e *RunError) Error() string { return fmt.Sprintf("run %d: %v", e.Index, e.Err) }
func (e *RunError) Unwrap() error { return e.Err }

// RunShared runs cfgs, runs that share every input and option but their
// strategies and baseline (the values of a sweep over a strategy key),
// with one replay of the traces per pass: the engine replays the distinct
// strategies of the pass's runs (a strategy equal in two runs is replayed
// once), and each run's sessions are filed under its own strategies
// (sim.View). Each output is the one Run(ctx, cfgs[i]) returns; each is
// called with it, in order, as the outputs are ready. A pass holds the
// runs of at most sharedStrategies strategies. Errors of a run are
// *RunError; each's are returned as they are.
func RunShared(ctx context.Context, cfgs []Config, each func(i int, out *Output) error) error {
	if len(cfgs) == 0 {
		return nil
	}
	for i := range cfgs {
		if err := sharable(&cfgs[0], &cfgs[i]); err != nil {
			return &RunError{Index: i, Err: fmt.Errorf("shared replay: %w", err)}
		}
	}
	for from := 0; from < len(cfgs); {
		to, n := from, 0
		for to < len(cfgs) && (to == from || n+len(cfgs[to].Strategies) <= sharedStrategies) {
			n += len(cfgs[to].Strategies)
			to++
		}
		if err := runPass(ctx, cfgs[from:to], from, each); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// runPass replays the traces once for every run of cfgs, runs first to
// first+len(cfgs)-1 of RunShared.
func runPass(ctx context.Context, cfgs []Config, first int, each func(i int, out *Output) error) error {
	fail := func(i int, err error) error { return &RunError{Index: first + i, Err: err} }
	cfg := cfgs[0]
	// Each run is described (and checked) as Run describes it; its engine
	// only names its strategies and its fidelity strategy.
	files := make([]*StateFile, len(cfgs))
	views := make([]sim.View, len(cfgs))
	var union []sim.Strategy
	byName := map[string][]int{} // strategy name → its distinct versions in union
	names := map[string]bool{}
	var moreFidelity []string
	for i := range cfgs {
		p, err := prepare(cfgs[i])
		if err != nil {
			return fail(i, err)
		}
		files[i] = p.file
		strategies := p.eng.Strategies()
		v := sim.View{Strategies: strategies, Summary: p.summary, Fidelity: -1}
		for _, s := range strategies {
			j := slices.IndexFunc(byName[s.Name], func(u int) bool { return reflect.DeepEqual(union[u], s) })
			if j >= 0 {
				j = byName[s.Name][j]
			} else {
				j = len(union)
				byName[s.Name] = append(byName[s.Name], j)
				union = append(union, s)
			}
			v.Index = append(v.Index, j)
			if s.Name == p.eng.FidelityStrategy() {
				v.Fidelity = j
			}
		}
		views[i] = v
	}
	// The engine's names: a strategy's first version keeps its name, the
	// others get a number (a strategy's results do not depend on its name).
	engStrategies := slices.Clone(union)
	for _, s := range union {
		names[s.Name] = true
	}
	for _, us := range byName {
		for k, u := range us[1:] {
			name := engStrategies[u].Name + "#" + strconv.Itoa(k+2)
			for names[name] {
				name += "#"
			}
			names[name] = true
			engStrategies[u].Name = name
		}
	}
	for _, v := range views {
		if v.Fidelity >= 0 && !slices.Contains(moreFidelity, engStrategies[v.Fidelity].Name) {
			moreFidelity = append(moreFidelity, engStrategies[v.Fidelity].Name)
		}
	}
	ucfg := cfg
	ucfg.Strategies = engStrategies
	b, err := buildEngine(ucfg, nil, moreFidelity)
	if err != nil {
		return fail(0, fmt.Errorf("shared replay: %w", err))
	}
	hashes, err := newTraceHashes(cfg.Traces, nil)
	if err != nil {
		return fail(0, err)
	}
	var counts []traces.Counts
	var read atomic.Int64
	opts := sim.RunOptions{Workers: cfg.Workers, Strict: cfg.Strict, Views: views}
	ropts := traces.ReadOptions{SkipBad: cfg.SkipBad}
	res, err := b.eng.RunNeeds(ctx, allNeeds(b.eng, cfg.Traces, hashes, ropts, &counts, &read), opts)
	if err != nil {
		if res != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return fail(0, &InterruptedError{Replayed: res.State.Replayed, Read: res.Counts.SessionsRead, Next: res.State.Next, Err: err})
		}
		return fail(0, err)
	}
	ins, err := hashes.inputs()
	if err != nil {
		return fail(0, err)
	}
	reader := readerCounts(len(cfg.Traces), res.Counts.SessionsRead, counts)
	for i, vr := range res.Views {
		res.Views[i] = nil // the run's state is let go once its output is
		done := *files[i]
		done.Kind, done.State = KindShard, vr.State
		done.Reader = reader
		done.Info.Inputs = append(slices.Clone(ins), files[i].Info.Inputs...)
		out, err := finish(ctx, &done, vr, cfg.Workers, cfg.BootstrapMemory)
		if out != nil {
			out.addWarnings(counts)
		}
		locateSkips(err, counts)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return fail(i, &InterruptedError{Replayed: vr.State.Replayed, Read: vr.Counts.SessionsRead, Next: vr.State.Next, Err: err,
					Statistics: true})
			}
			return fail(i, err)
		}
		if err := checkResolution(out); err != nil {
			return fail(i, err)
		}
		if err := each(first+i, out); err != nil {
			return err // each's own
		}
	}
	return nil
}

// sharable says why c cannot share a replay with base, if it cannot.
func sharable(base, c *Config) error {
	switch {
	case c.Shard.Count > 0, c.Checkpoint != "", c.Resume, c.Select != nil, c.Transform != nil:
		return errors.New("shards, checkpoints, session selections and transforms replay alone")
	case c.Registry != base.Registry:
		return errors.New("another component registry")
	case !reflect.DeepEqual(c.Validator, base.Validator):
		return errors.New("another validator")
	}
	// Everything but the strategies, the baseline, the description (a
	// sweep or growth point's among it) and the per-run hooks.
	key := func(c *Config) Config {
		k := *c
		k.FingerprintExceptServers = ""
		k.Scenario, k.ScenarioFingerprint, k.Baseline, k.Strategies, k.Notes, k.SweepPoint, k.GrowthPoint = "", "", "", nil, nil, nil, nil
		k.CheckReads, k.Wrote, k.Progress, k.AfterSession = nil, nil, nil, nil
		k.Registry, k.Validator = nil, nil
		return k
	}
	if !reflect.DeepEqual(key(c), key(base)) {
		return errors.New("its inputs or options differ from the first run's")
	}
	return nil
}
