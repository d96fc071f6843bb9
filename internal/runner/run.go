package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync/atomic"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// Output is what a run produced.
type Output struct {
	Results *report.Results
	Run     *sim.RunResult
	Info    sim.RunInfo
	// State is the run's mergeable state (written as shard.bin by a shard).
	State *StateFile
	// FirstImplausible locates the first trace lines with a count or
	// duration beyond any real session's (run.counts.lines_implausible
	// counts them all).
	FirstImplausible []traces.Problem
	// FirstBackwards locates the first events whose time is before the
	// previous timed event of their session (run.counts.events_time_backwards
	// counts them all).
	FirstBackwards []traces.Problem
	// FirstNoUser locates the first sessions without a user event
	// (run.counts.sessions_without_user counts them all).
	FirstNoUser []traces.Problem
	// FirstSkipped locates the first trace lines skipped as bad input
	// (--skip-bad), with their reasons (run.counts.lines_skipped counts
	// them all).
	FirstSkipped []traces.Problem
	// LargeTools are the catalogs' tools over catalog.DefaultOutlierTokens
	// (the threshold catalog stats names outliers by), as the replay
	// counts them: run notes them; results.json does not hold them.
	LargeTools []sim.LargeTool
}

// InputNotes are the run's input problems: its catalog notes, sessions
// without a session_end, times going backwards, implausible counts,
// sessions a dated upgrade placed by times at the Unix epoch. Its counts
// are the run's counts, so that a merged run (whose shards' locations are
// not kept) warns of the same problems, unlocated.
func (out *Output) InputNotes() inputnotes.Notes {
	c := out.Info.Counts
	return inputnotes.Notes{CatalogNotes: out.Info.CatalogNotes, SessionsRead: c.SessionsRead, EventsRead: c.EventsRead,
		SessionsIncomplete: c.SessionsIncomplete, SessionsWithoutUser: c.SessionsWithoutUser, FirstNoUser: out.FirstNoUser,
		EventsTimeBackwards: c.EventsTimeBackwards, FirstBackwards: out.FirstBackwards,
		LinesImplausible: c.LinesImplausible, FirstImplausible: out.FirstImplausible, SessionsEpochDated: c.SessionsEpochDated,
		EventsNotReplayed: c.EventsNotReplayed, SessionsWithEventsNotReplayed: c.SessionsWithEventsNotReplayed,
		LinesSkipped: c.LinesSkipped, FirstSkipped: out.FirstSkipped}
}

// addWarnings adds the readers' warnings of counts to out.
func (out *Output) addWarnings(counts []traces.Counts) {
	for _, c := range counts {
		out.FirstImplausible = append(out.FirstImplausible, c.FirstImplausible...)
		out.FirstBackwards = append(out.FirstBackwards, c.FirstBackwards...)
		out.FirstNoUser = append(out.FirstNoUser, c.FirstNoUser...)
		out.FirstSkipped = append(out.FirstSkipped, c.FirstSkips...)
	}
}

// InterruptedError is returned by Run when its context is cancelled: the
// sessions replayed before the interruption are saved in the checkpoint
// (when the run has one) and nothing else is written.
type InterruptedError struct {
	// Replayed sessions, Read sessions, Next stream index to replay.
	Replayed, Read, Next int64
	// Checkpoint is the path of the checkpoint written ("" when none).
	Checkpoint string
	// CheckpointErr is why the checkpoint could not be written, if it failed.
	CheckpointErr error
	// Statistics says the replay was complete and the statistics (the
	// bootstrap) were interrupted.
	Statistics bool
	Err        error
}

func (e *InterruptedError) Error() string {
	msg := fmt.Sprintf("interrupted after replaying %s (%d read)", nouns.Count(e.Replayed, "session"), e.Read)
	if e.Statistics {
		msg = fmt.Sprintf("interrupted while computing the statistics, after replaying all %s (%d read)", nouns.Count(e.Replayed, "session"), e.Read)
	}
	switch {
	case e.CheckpointErr != nil:
		msg += fmt.Sprintf("; the checkpoint could not be written: %v", e.CheckpointErr)
	case e.Checkpoint != "":
		msg += fmt.Sprintf("; checkpoint saved to %s: %s", e.Checkpoint, e.covered())
	}
	return msg
}

// covered says which sessions the checkpoint covers: a count of the
// input's first sessions, not a stream index, which counts from 0 (the
// message said "sessions before #41251", which read as 41250 sessions or
// as 41251). Sessions read ahead of that prefix are replayed again.
func (e *InterruptedError) covered() string {
	if e.Next == 0 {
		return "it covers no session of the input yet, and --resume replays from the first"
	}
	return fmt.Sprintf("it covers the input's first %s (in input order: replayed, failed, or another shard's), and --resume replays the sessions after them",
		nouns.Count(e.Next, "session"))
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// Run executes cfg: it replays every session of every trace (of its shard)
// under every strategy and builds the results. With cfg.Checkpoint set it
// saves its state there every cfg.CheckpointEvery sessions and when it is
// interrupted; with cfg.Resume it continues the state saved there.
func Run(ctx context.Context, cfg Config) (*Output, error) {
	p, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.hooks != nil && cfg.hooks.engine != nil {
		cfg.hooks.engine(p.eng)
	}
	large := p.eng.LargeTools(catalog.DefaultOutlierTokens) // not p after the replay: the engine is freed before the statistics
	var resume *sim.RunState
	var expect []TracePrefix
	if cfg.Resume {
		if cfg.Checkpoint == "" {
			return nil, errors.New("resume: no checkpoint path")
		}
		sf, err := ReadState(cfg.Checkpoint)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		if err := sf.matches(p.file, p.summary); err != nil {
			return nil, fmt.Errorf("resume %s: %w", cfg.Checkpoint, err)
		}
		resume, expect = sf.State, sf.Traces
		if expect == nil {
			expect = []TracePrefix{} // a checkpoint of a run without traces
		}
	}
	hashes, err := newTraceHashes(cfg.Traces, expect)
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", cfg.Checkpoint, err)
	}
	// The engine (catalogs, rankers, memos: 10-20 MB) is not needed after
	// the replay, and nothing used after it may reach it: the statistics
	// (the bootstrap) are the run's peak of memory. save outlives the
	// replay, so it holds the file, not p (TestEngineFreedBeforeStatistics).
	file, eng := p.file, p.eng
	save := func(st *sim.RunState) error {
		f := *file
		f.Kind, f.State, f.Traces = KindCheckpoint, st, hashes.prefixes()
		return WriteState(cfg.Checkpoint, &f)
	}
	// The state is read through its methods, and encoded by WriteState,
	// which completes it.
	opts := sim.RunOptions{Workers: cfg.Workers, Strict: cfg.Strict, Summary: p.summary, Resume: resume, SummaryOnDemand: true}
	if cfg.Shard.Count > 0 || cfg.Select != nil {
		sh, sel := cfg.Shard, cfg.Select
		opts.Select = func(_ int64, id string) bool {
			return (sh.Count == 0 || sh.Owns(id)) && (sel == nil || sel(id))
		}
	}
	if cfg.Checkpoint != "" && cfg.CheckpointEvery > 0 {
		opts.Checkpoint, opts.CheckpointEvery = save, cfg.CheckpointEvery
	}
	var counts []traces.Counts
	var read atomic.Int64
	if cfg.Progress != nil || cfg.AfterSession != nil {
		opts.Progress = func(n int64) {
			if cfg.Progress != nil {
				cfg.Progress.Update(read.Load(), n)
			}
			if cfg.AfterSession != nil {
				cfg.AfterSession(n)
			}
		}
	}
	var res *sim.RunResult
	if ropts := (traces.ReadOptions{SkipBad: cfg.SkipBad}); cfg.Transform == nil {
		res, err = eng.RunNeeds(ctx, allNeeds(eng, cfg.Traces, hashes, ropts, &counts, &read), opts)
	} else { // a transform changes whole sessions
		res, err = eng.Run(ctx, allSessions(cfg.Traces, hashes, ropts, &counts, &read, cfg.Transform), opts)
	}
	if cerr := hashes.changed(); cerr != nil {
		return nil, fmt.Errorf("resume %s: the checkpoint was made by another run: %w; pass the same scenario, traces and flags", cfg.Checkpoint, cerr)
	}
	if err != nil {
		if res != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			ie := &InterruptedError{Replayed: res.State.Replayed, Read: res.Counts.SessionsRead, Next: res.State.Next, Err: err}
			if cfg.Checkpoint != "" {
				if ie.CheckpointErr = save(res.State); ie.CheckpointErr == nil {
					ie.Checkpoint = cfg.Checkpoint
				}
			}
			return nil, ie
		}
		return nil, err
	}
	ins, err := hashes.inputs()
	if err != nil {
		return nil, err
	}
	if cfg.hooks != nil && cfg.hooks.statistics != nil {
		cfg.hooks.statistics()
	}
	done := *file // file stays the checkpoints' description
	done.Kind, done.State = KindShard, res.State
	done.Reader = readerCounts(len(cfg.Traces), res.Counts.SessionsRead, counts)
	done.Info.Inputs = append(ins, file.Info.Inputs...)
	out, err := finish(ctx, &done, res, cfg.Workers, cfg.BootstrapMemory)
	if out != nil {
		out.addWarnings(counts)
		out.LargeTools = large
	}
	locateSkips(err, counts)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Interrupted while computing the statistics: every session was
		// replayed, and the checkpoint says so; a resume reads the traces
		// again (replaying nothing) and computes the statistics.
		ie := &InterruptedError{Replayed: res.State.Replayed, Read: res.Counts.SessionsRead, Next: res.State.Next, Err: err,
			Statistics: true}
		if cfg.Checkpoint != "" {
			if ie.CheckpointErr = save(res.State); ie.CheckpointErr == nil {
				ie.Checkpoint = cfg.Checkpoint
			}
		}
		return nil, ie
	}
	if err == nil {
		if rerr := checkResolution(out); rerr != nil {
			return nil, rerr
		}
	}
	return out, err
}

// prepared is a run ready to replay.
type prepared struct {
	eng     *sim.Engine
	summary sim.SummaryOptions
	file    *StateFile // everything but the state
}

// prepare builds the engine and describes the run.
func prepare(cfg Config) (*prepared, error) {
	if cfg.Shard.Count > 0 {
		if err := cfg.Shard.Validate(); err != nil {
			return nil, err
		}
	}
	if err := checkReads(cfg); err != nil {
		return nil, err
	}
	if err := checkBootstrapMemory(cfg.Bootstrap, len(cfg.Strategies), 0, cfg.BootstrapMemory); err != nil {
		return nil, err
	}
	b, err := buildEngine(cfg, func(cat *catalog.Catalog) error { return checkNames(cfg, cat) }, nil)
	if err != nil {
		return nil, err
	}
	eng, cat, scope, reg, srdInfo := b.eng, b.cat, b.scope, b.reg, b.srdInfo
	info := sim.RunInfo{Scenario: cfg.Scenario, ScenarioFingerprint: cfg.ScenarioFingerprint, Seed: cfg.Seed,
		FingerprintExceptServers: cfg.FingerprintExceptServers, Servers: cfg.Servers,
		Baseline: cfg.Baseline, Tokenizer: cfg.Params.Tokenizer, Model: cfg.Model.Name, CacheModel: cacheLabel(cfg.Model.Cache),
		SRD: srdInfo, ModelPreset: presets.PresetNotNamed(cfg.ModelPreset, cfg.Model.Name), SweepPoint: cfg.SweepPoint, GrowthPoint: cfg.GrowthPoint}
	if info.Baseline == "" {
		info.Baseline = cfg.Strategies[0].Name
	}
	base := -1
	for i, s := range eng.Strategies() {
		if s.Name == info.Baseline {
			base = i
		}
	}
	if base < 0 {
		return nil, fmt.Errorf("baseline strategy %q is not among the run's strategies", info.Baseline)
	}
	for si, s := range eng.Strategies() {
		n, d := eng.Deferrable(si)
		info.Deferrable = append(info.Deferrable, sim.DeferrableTools{Strategy: s.Name, Tools: n, Digest: fmt.Sprintf("%016x", d)})
	}
	// The traces' hashes are added when the replay has read them (readonce.go).
	info.Inputs = catalogInputs(cat, cfg.Catalogs)
	info.Assumptions = append(assumptions(cfg, eng, reg), catalogAssumptions(cat, scope)...)
	markSwept(info.Assumptions, cfg.SweepPoint, cfg.Scenario)
	info.CatalogNotes = catalog.Notes(cat.All(), validation.SchemaCheck)
	info.UnchangedUpgrades = eng.UnchangedUpgrades()
	info.UnmatchedEntries = flagNames(cfg, cat)
	info.EntryVersions = entryVersions(cfg, cat)
	summary := sim.SummaryOptions{Baseline: base, EqualTolerance: report.EqualTolerance, Seed: cfg.Seed,
		ExactSessions: cfg.ExactSessions, FidelityPairs: sim.DefaultFidelityPairs}
	switch {
	case cfg.ExactSessions == 0:
		summary.ExactSessions = sim.DefaultExactSessions
	case cfg.ExactSessions < 0:
		summary.ExactSessions = 0 // every session
	}
	if cfg.KeepFidelityPairs {
		summary.FidelityPairs = 0
	}
	file := &StateFile{Version: StateVersion, Build: thisBuild(), Shard: cfg.Shard, Info: info, Strategies: eng.Strategies(),
		FidelityStrategy: eng.FidelityStrategy(), Bootstrap: cfg.Bootstrap, Prices: prices(cfg.Model),
		SkipBad: cfg.SkipBad, MaxUnresolved: DefaultMaxUnresolved, AllowUnresolved: cfg.AllowUnresolved}
	if cfg.MaxUnresolved != nil {
		if err := sim.CheckMaxUnresolved(*cfg.MaxUnresolved); err != nil {
			return nil, fmt.Errorf("--max-unresolved: %w", err)
		}
		file.MaxUnresolved = *cfg.MaxUnresolved
	}
	return &prepared{eng: eng, summary: summary, file: file}, nil
}

// built is an engine and what it was built from.
type built struct {
	eng     *sim.Engine
	cat     *catalog.Catalog
	scope   catalog.FingerprintScope
	reg     *sim.Registry
	srdInfo *sim.SRDInfo
}

// buildEngine loads cfg's catalogs and routing descriptions and builds
// the engine of cfg's strategies; check, when set, is called with the
// catalogs first; moreFidelity is sim.Config's.
func buildEngine(cfg Config, check func(*catalog.Catalog) error, moreFidelity []string) (*built, error) {
	cat, err := loadCatalogs(cfg.Catalogs)
	if err != nil {
		return nil, err
	}
	scope, err := catalog.ParseFingerprintScope(string(cfg.CatalogFingerprint))
	if err != nil {
		return nil, err
	}
	cat.SetFingerprintScope(scope)
	if check != nil {
		if err := check(cat); err != nil {
			return nil, err
		}
	}
	srds, srdInfo, err := runSRDs(cfg.SRD, cfg.SRDFiles, cat)
	if err != nil {
		return nil, err
	}
	reg := cfg.Registry
	if reg == nil {
		if reg, err = RegistryWith(srds); err != nil {
			return nil, err
		}
	}
	val := cfg.Validator
	if val == nil {
		val = defaultValidator()
	}
	domains, err := domainsOf(srds)
	if err != nil {
		return nil, err
	}
	srdInfo.UsedBy = readsSRDs(cfg.Strategies)
	if srdInfo.ServersDescribed, srdInfo.Servers, err = describedServers(srds, cat); err != nil {
		return nil, err
	}
	eng, err := sim.NewEngine(sim.Config{Strategies: cfg.Strategies, Model: cfg.Model, Params: cfg.Params,
		Catalog: cat, Seed: cfg.Seed, Registry: reg, LocalServers: cfg.LocalServers, Allow: cfg.Allow, Deny: cfg.Deny, Upgrades: cfg.Upgrades,
		Validator: val, Domains: domains, MoreFidelity: moreFidelity, RunModel: RunModel(cfg.Model.Name, cfg.ModelPreset)})
	if err != nil {
		return nil, err
	}
	return &built{eng: eng, cat: cat, scope: scope, reg: reg, srdInfo: srdInfo}, nil
}

// finish turns a completed state into results; cancelling ctx stops the
// statistics (the bootstrap) with ctx's error.
func finish(ctx context.Context, f *StateFile, res *sim.RunResult, workers int, bootMem int64) (*Output, error) {
	info := f.Info
	c := &res.Counts
	f.Reader.apply(c)
	if c.SessionsSkipped > 0 {
		if c.SkipReasons == nil {
			c.SkipReasons = map[string]int{}
		}
		c.SkipReasons["replay_failed"] += int(c.SessionsSkipped)
	}
	info.Counts = *c
	if f.Shard.Count > 1 { // a merge's Shard is zero; --shard 0/1 is the whole run
		info.Shard = &sim.ShardInfo{Index: f.Shard.Index, Count: f.Shard.Count}
	}
	if c.SessionsReplayed == 0 {
		return nil, &noReplayError{counts: c}
	}
	if f.FidelityStrategy != "" {
		info.Fidelity = res.State.FidelitySummary(f.FidelityStrategy)
	}
	info.Resolution = SummarizeResolution(&res.State.Resolution, f.MaxUnresolved, f.AllowUnresolved, heldVersions(info.Inputs))
	info.UnreplayedEntries = UnreplayedEntries(info.EntryVersions, res.State.Resolution.ReplayedVersions())
	info.RecordedModels = RecordedModels(&res.State.Resolution, info.Model, info.ModelPreset)
	info.OtherModels = OtherModels(&res.State.Resolution)
	info.UnreachedUpgrades = res.State.UnreachedUpgrades()
	results, err := report.Build(res.Outcomes, info, report.BuildOptions{Bootstrap: f.Bootstrap, Prices: f.Prices,
		Workers: workers, Context: ctx, BootstrapMemory: bootMem})
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("summarise results: %w", err)
	}
	return &Output{Results: results, Run: res, Info: info, State: f}, nil
}

// allSessions chains the sessions of every trace file, hashing each
// file's bytes into hashes (when set), counting the bytes read into read
// (when set), changing each session with transform (when set) and
// recording each file's counts (when set) when it is done. A session id
// read before, in the same file or an earlier one, is a line error (a
// skipped session with opts.SkipBad): traces.SessionSet.
func allSessions(srcs []Source, hashes traceHashes, opts traces.ReadOptions, counts *[]traces.Counts,
	read *atomic.Int64, transform func(*traces.Session)) iter.Seq2[*traces.Session, error] {
	return func(yield func(*traces.Session, error) bool) {
		opts.Seen = traces.NewSessionSet()
		opts.Seen.Reread = func(i int) (io.ReadCloser, error) { return srcs[i].reopen() }
		for i, src := range srcs {
			f, err := src.open()
			if err != nil {
				yield(nil, fmt.Errorf("trace: %w", err))
				return
			}
			var in io.Reader = f
			if hashes != nil {
				in = hashes[i].reader(in)
			}
			if read != nil {
				in = countingReader{in, read}
			}
			r, err := traces.NewReader(in, src.Path, opts)
			if err != nil {
				f.Close()
				yield(nil, err)
				return
			}
			stop := false
			for s, err := range r.Sessions() {
				if err == nil && transform != nil {
					transform(s)
				}
				if !yield(s, err) || err != nil {
					stop = true
					break
				}
			}
			if counts != nil {
				*counts = append(*counts, r.Counts())
			}
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

// checkReads runs cfg.CheckReads against the run's components before the
// catalogs are read: which strategy keys a component reads does not
// depend on the routing descriptions, so without cfg.Registry the default
// components over no SRDs answer.
func checkReads(cfg Config) error {
	if cfg.CheckReads == nil {
		return nil
	}
	reg := cfg.Registry
	if reg == nil {
		var err error
		if reg, err = RegistryWith(nil); err != nil {
			return err
		}
	}
	return cfg.CheckReads(reg, cfg.Strategies)
}
