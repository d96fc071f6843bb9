package pipeline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/gob"
	"fmt"
	"sync"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
)

// indexFn turns a batch's position within its file into its position
// among all sessions of the run (the stream index `defersim run` gives
// its first session): the sessions of the files before it, in the run's
// order of traces, come first.
type indexFn struct{}

// ProcessElement offsets b by the sessions of the files before its own.
func (indexFn) ProcessElement(b sessionBatch, reads func(*fileRead) bool) sessionBatch {
	var f fileRead
	for reads(&f) {
		if f.Ordinal < b.File {
			b.First += f.Sessions
		}
	}
	return b
}

// replayFn replays a batch of sessions under every strategy and emits
// their state: the per-worker state the CombineFn merges.
type replayFn struct {
	Spec Spec
	d    *runner.Distributed
}

// Setup prepares the run (once per worker process: runs are shared).
func (fn *replayFn) Setup() error {
	d, err := prepared.get(fn.Spec)
	fn.d = d
	return InputError(err)
}

// ProcessElement replays b.
func (fn *replayFn) ProcessElement(ctx context.Context, b sessionBatch) (*sim.RunState, error) {
	sessions, err := decodeSessions(b.Sessions)
	if err != nil {
		return nil, err
	}
	st, err := fn.d.ReplayBatch(ctx, b.First, sessions, 0)
	if err != nil { // a session that fails to replay under --strict
		return nil, InputError(err)
	}
	return st, nil
}

// mergeFn is the CombineFn over run states: states of disjoint sessions
// merge exactly (sums, sketches, samples, pairs), whatever the order.
type mergeFn struct {
	Strategies []string
	Summary    sim.SummaryOptions
}

// CreateAccumulator returns the state of no session.
func (fn *mergeFn) CreateAccumulator() (*sim.RunState, error) {
	strategies := make([]sim.Strategy, len(fn.Strategies))
	for i, name := range fn.Strategies {
		strategies[i].Name = name
	}
	return sim.NewRunState(strategies, fn.Summary)
}

// AddInput merges a batch's state.
func (fn *mergeFn) AddInput(acc, st *sim.RunState) (*sim.RunState, error) {
	return fn.MergeAccumulators(acc, st)
}

// MergeAccumulators merges two states.
func (fn *mergeFn) MergeAccumulators(a, b *sim.RunState) (*sim.RunState, error) {
	if err := a.Merge(b); err != nil {
		return nil, err
	}
	return a, nil
}

// ExtractOutput returns the merged state.
func (fn *mergeFn) ExtractOutput(a *sim.RunState) *sim.RunState { return a }

// encodeState and decodeState are the Beam coder of run states: gzip'd
// gob, as in shard.bin.
func encodeState(st *sim.RunState) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(zw).Encode(st); err != nil {
		return nil, fmt.Errorf("encode run state: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeState(data []byte) (*sim.RunState, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode run state: %w", err)
	}
	var st sim.RunState
	if err := gob.NewDecoder(bufio.NewReader(zr)).Decode(&st); err != nil {
		return nil, fmt.Errorf("decode run state: %w", err)
	}
	return &st, nil
}

// prepared holds the runs a worker process has prepared, by spec: building
// the engine (catalogs, token counts) once per process rather than once
// per DoFn instance. It is the only process-wide state of the package, as
// Beam's workers run many DoFn instances of one pipeline in one process.
var prepared = &runs{m: map[string]*preparedRun{}}

type runs struct {
	mu sync.Mutex
	m  map[string]*preparedRun
}

type preparedRun struct {
	once sync.Once
	d    *runner.Distributed
	err  error
}

// get returns the prepared run of spec, preparing it on first use.
func (r *runs) get(spec Spec) (*runner.Distributed, error) {
	k := spec.key()
	r.mu.Lock()
	p := r.m[k]
	if p == nil {
		p = &preparedRun{}
		r.m[k] = p
	}
	r.mu.Unlock()
	p.once.Do(func() {
		cfg, err := spec.Config()
		if err != nil {
			p.err = err
			return
		}
		p.d, p.err = runner.NewDistributed(cfg)
	})
	return p.d, p.err
}
