package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
)

// Merge combines the shard.bin states of every shard of one run into the
// output a single run over all sessions gives: counts, sums and every
// exact statistic are equal; while the whole run has at most ExactSessions
// sessions, results.json is byte-identical (percentiles included), and
// beyond it percentiles come from the merged sketches — which equal the
// sketches of a single run, so results.json is byte-identical then too.
// Cancelling ctx stops the statistics with ctx's error; bootMem limits
// their memory as Config.BootstrapMemory does. Every shard must
// have been written by the running build (StateFile.Build): results.json
// names one build as the one that replayed every session.
func Merge(ctx context.Context, files []*StateFile, workers int, bootMem int64) (*Output, error) {
	return mergeBy(ctx, files, workers, bootMem, thisBuild())
}

// mergeBy is Merge by the defersim build named build: every shard must
// be of that build.
func mergeBy(ctx context.Context, files []*StateFile, workers int, bootMem int64, build string) (*Output, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no shard states")
	}
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b *StateFile) int { return a.Shard.Index - b.Shard.Index })
	first := files[0]
	n := first.Shard.Count
	if n == 0 {
		n = 1
	}
	// The most specific reason first: a shard of another run (or of the
	// same run split otherwise) is not a repeated shard.
	seen := map[int]*StateFile{}
	for _, f := range files {
		if f.Build != build {
			return nil, fmt.Errorf("merge: %s was written by defersim %s, and this is %s: merge with the build that replayed the shards, whose version results.json records", f.name(), f.Build, build)
		}
		if f.Kind != KindShard {
			return nil, fmt.Errorf("merge: %s is a %s, not a completed shard (resume it first)", f.name(), f.Kind)
		}
		if d := first.sameRun(f); d != "" {
			return nil, fmt.Errorf("merge: %s and %s come from different runs: they differ in %s", first.name(), f.name(), d)
		}
		if f.Reader.SessionsRead != first.Reader.SessionsRead || f.Reader.LinesRead != first.Reader.LinesRead {
			return nil, fmt.Errorf("merge: %s and %s read different traces (%d and %d sessions)", first.name(), f.name(),
				first.Reader.SessionsRead, f.Reader.SessionsRead)
		}
		if max(f.Shard.Count, 1) != n {
			return nil, fmt.Errorf("merge: %s is of a run in %d shards, %s of one in %d", f.name(), f.Shard.Count, first.name(), first.Shard.Count)
		}
		if g := seen[f.Shard.Index]; g != nil {
			msg := fmt.Sprintf("merge: shard %s given twice", f.Shard)
			if g.path != "" && f.path != "" {
				msg += fmt.Sprintf(" (%s and %s)", g.path, f.path)
			}
			return nil, errors.New(msg)
		}
		seen[f.Shard.Index] = f
		if err := f.State.Check(f.Strategies, first.State.Options); err != nil {
			return nil, fmt.Errorf("merge: %s: %w", f.name(), err)
		}
	}
	var missing []string
	for i := range n {
		if seen[i] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: missing shards %s", strings.Join(missing, ", "))
	}
	merged := *first
	merged.Shard = Shard{}
	st, err := sim.NewRunState(first.Strategies, first.State.Options)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := st.Merge(f.State); err != nil {
			return nil, fmt.Errorf("merge: %s: %w", f.name(), err)
		}
	}
	merged.State = st
	out, err := finish(ctx, &merged, resultOf(st, first.Strategies), workers, bootMem)
	if err != nil {
		return nil, err
	}
	if err := checkResolution(out); err != nil {
		return nil, err
	}
	return out, nil
}

// resultOf describes a merged state as the result of one run.
func resultOf(st *sim.RunState, strategies []sim.Strategy) *sim.RunResult {
	res := &sim.RunResult{Outcomes: st.Outcomes(strategies), Fidelity: st.Fidelity(), State: st,
		Failures: st.FailureMessages(), FailedSessions: st.FailedSessions()}
	res.Counts.SessionsReplayed, res.Counts.SessionsSkipped, res.Counts.StepsRemoved = st.Replayed, st.Skipped, st.StepsRemoved
	res.Counts.SessionsEpochDated = st.EpochDated
	res.Counts.UserPausesFromParams = st.UserPausesFromParams
	res.Resolution = st.Resolution
	return res
}
