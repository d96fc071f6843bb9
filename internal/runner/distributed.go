package runner

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Distributed is a run whose traces are read and whose sessions are
// replayed in parts by someone else — the workers of a Beam pipeline —
// and whose parts' states are merged before Finish. It is the same engine,
// summary and results as Run: a session replayed by ReplayBatch at the
// stream index Run would give it leaves the same trace in the state, and
// states merge exactly, so Finish writes what Run writes.
type Distributed struct {
	p       *prepared
	strict  bool
	bootMem int64 // Config.BootstrapMemory
	// Strategies are the run's strategies as the engine normalised them.
	Strategies []sim.Strategy
	// Summary are the options every part's state is made with.
	Summary sim.SummaryOptions
}

// TraceRead is what the caller found reading one trace file: its
// fingerprint (as Run records it), its reader's counts and the number of
// sessions it yielded.
type TraceRead struct {
	Input    sim.Input
	Counts   traces.Counts
	Sessions int64
}

// NewDistributed prepares cfg for replay in parts. cfg.Traces is not read
// (the caller reads the traces and reports them to Finish); resume,
// checkpoints and shards do not apply.
func NewDistributed(cfg Config) (*Distributed, error) {
	if cfg.Resume || cfg.Checkpoint != "" || cfg.Shard.Count > 0 || cfg.Select != nil || cfg.Transform != nil {
		return nil, errors.New("a distributed run has no checkpoint, resume, shard, selection or transform")
	}
	cfg.Traces = nil
	p, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	return &Distributed{p: p, strict: cfg.Strict, bootMem: cfg.BootstrapMemory, Strategies: p.file.Strategies, Summary: p.summary}, nil
}

// NewState returns an empty state of the run, for merging parts into.
func (d *Distributed) NewState() (*sim.RunState, error) {
	return sim.NewRunState(d.Strategies, d.Summary)
}

// ReplayBatch replays sessions, which are the sessions at stream indexes
// first, first+1, … of the run (the position of each among all sessions of
// all traces, in order, as Run numbers them), and returns their state.
// A session that fails to replay is counted in the state as in Run; with
// cfg.Strict it is an error.
func (d *Distributed) ReplayBatch(ctx context.Context, first int64, sessions []*traces.Session, workers int) (*sim.RunState, error) {
	st, err := d.NewState()
	if err != nil {
		return nil, err
	}
	// The engine numbers sessions by their position in the stream it is
	// given, so the stream starts with first placeholders, which the state
	// (resumed at first) leaves out. Each costs the engine a few
	// nanoseconds (docs/beam.md).
	st.Next = first
	placeholder := &traces.Session{}
	stream := func(yield func(*traces.Session, error) bool) {
		for range first {
			if !yield(placeholder, nil) {
				return
			}
		}
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	res, err := d.p.eng.Run(ctx, iter.Seq2[*traces.Session, error](stream), sim.RunOptions{Workers: workers,
		Strict: d.strict, Summary: d.Summary, Resume: st})
	if err != nil {
		return nil, err
	}
	return res.State, nil
}

// Finish turns the merged state of every part into the run's output, with
// what reading the traces found (in the order of the run's traces), as
// Run does; cancelling ctx stops the statistics.
func (d *Distributed) Finish(ctx context.Context, st *sim.RunState, read []TraceRead, workers int) (*Output, error) {
	if err := st.Check(d.Strategies, d.Summary); err != nil {
		return nil, fmt.Errorf("finish: %w", err)
	}
	f := *d.p.file
	f.Info.Inputs = nil
	var counts []traces.Counts
	var sessions int64
	for _, r := range read {
		f.Info.Inputs = append(f.Info.Inputs, r.Input)
		counts = append(counts, r.Counts)
		sessions += r.Sessions
	}
	f.Info.Inputs = append(f.Info.Inputs, d.p.file.Info.Inputs...)
	f.Kind, f.State = KindShard, st
	f.Reader = readerCounts(len(read), sessions, counts)
	out, err := finish(ctx, &f, resultOf(st, d.Strategies), workers, d.bootMem)
	if out != nil {
		out.addWarnings(counts)
	}
	locateSkips(err, counts)
	if err == nil {
		// The stop on unresolved inputs, as Run and Merge apply it.
		if rerr := checkResolution(out); rerr != nil {
			return nil, rerr
		}
	}
	return out, err
}

// TraceInput describes a trace file in the results as Run does.
func TraceInput(path, sha256 string, bytes int64) sim.Input {
	return sim.Input{Kind: "trace", Path: path, SHA256: sha256, Bytes: bytes}
}
