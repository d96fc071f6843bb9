package sim_test

import (
	"bytes"
	"context"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

func stateStrategies(n int) []sim.Strategy {
	out := make([]sim.Strategy, n)
	for i := range out {
		out[i].Name = string(rune('a' + i))
	}
	return out
}

// fillState files sessions [from, to) with seeded values: whole numbers
// below 10⁵ (a bounded range, so the sketches' bins saturate).
func fillState(st *sim.RunState, strategies, from, to int) {
	for i := from; i < to; i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		vals := make([][sim.NumMetrics]float64, strategies)
		for s := range vals {
			for m := range sim.NumMetrics {
				vals[s][m] = math.Floor(math.Exp(rng.Float64() * math.Log(1e5)))
			}
		}
		st.AddSession(int64(i), "s", vals)
	}
}

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestRunStateSizeIsBounded pins bounded memory: past ExactSessions, the
// state a run keeps (sample, sketches, sums) stops growing with sessions
// (a sketch grows only with the range of its values: at most
// ln(max/min)/ln(γ) bins).
func TestRunStateSizeIsBounded(t *testing.T) {
	strategies := stateStrategies(4)
	opt := sim.SummaryOptions{ExactSessions: 200, FidelityPairs: 100, EqualTolerance: 1e-9, Seed: 3}
	base := heapInUse()
	st, err := sim.NewRunState(strategies, opt)
	if err != nil {
		t.Fatal(err)
	}
	fillState(st, len(strategies), 0, 1000)
	small := heapInUse() - base
	fillState(st, len(strategies), 1000, 10000)
	large := heapInUse() - base
	if st.Replayed != 10000 || st.Sample.Len() != 200 {
		t.Fatalf("replayed %d, sample %d", st.Replayed, st.Sample.Len())
	}
	t.Logf("live state: %d bytes after 1,000 sessions, %d after 10,000", small, large)
	if float64(large) > 1.25*float64(small) {
		t.Errorf("state grew from %d bytes at 1,000 sessions to %d at 10,000", small, large)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(st); err != nil {
		t.Fatalf("encode state: %v", err)
	}
	var back sim.RunState
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatalf("decode state: %v", err)
	}
	if err := back.Check(strategies, opt); err != nil {
		t.Fatalf("decoded state: %v", err)
	}
	o := st.Outcomes(strategies)
	if !o.Sampled() || len(o.SessionIDs) != 200 || o.Summary.Sessions != 10000 {
		t.Errorf("outcomes: sampled %v, %d ids, %d sessions", o.Sampled(), len(o.SessionIDs), o.Summary.Sessions)
	}
}

// TestRunStateMergeIsOrderFree pins that states of disjoint session sets
// merge into the state of all of them, whatever the split.
func TestRunStateMergeIsOrderFree(t *testing.T) {
	strategies := stateStrategies(3)
	opt := sim.SummaryOptions{ExactSessions: 50, EqualTolerance: 1e-9, Seed: 5}
	whole, _ := sim.NewRunState(strategies, opt)
	fillState(whole, 3, 0, 300)
	a, _ := sim.NewRunState(strategies, opt)
	b, _ := sim.NewRunState(strategies, opt)
	fillState(b, 3, 120, 300)
	fillState(a, 3, 0, 120)
	if err := b.Merge(a); err != nil {
		t.Fatal(err)
	}
	wo, mo := whole.Outcomes(strategies), b.Outcomes(strategies)
	for s := range strategies {
		for m := range sim.NumMetrics {
			ws, ms := wo.Summary.Series[s][m], mo.Summary.Series[s][m]
			if ws.N != ms.N || ws.Mean() != ms.Mean() || ws.StdDev() != ms.StdDev() || ws.Quantile(0.9) != ms.Quantile(0.9) {
				t.Fatalf("strategy %d metric %d: merged series differs", s, m)
			}
			if s > 0 && wo.Summary.Paired[s][m].MeanDiff() != mo.Summary.Paired[s][m].MeanDiff() {
				t.Fatalf("strategy %d metric %d: merged paired differs", s, m)
			}
		}
		for i := range wo.Values[s][0] {
			if wo.Values[s][0][i] != mo.Values[s][0][i] || wo.SessionIDs[i] != mo.SessionIDs[i] {
				t.Fatalf("sample differs at %d", i)
			}
		}
	}
	other, _ := sim.NewRunState(stateStrategies(2), opt)
	if err := b.Merge(other); err == nil {
		t.Error("merging states of different strategies succeeded")
	}
	if err := whole.Check(strategies, sim.SummaryOptions{ExactSessions: 51, EqualTolerance: 1e-9, Seed: 5}); err == nil {
		t.Error("Check accepted other options")
	}
	if _, err := sim.NewRunState(strategies, sim.SummaryOptions{Baseline: 3}); err == nil {
		t.Error("NewRunState accepted a baseline out of range")
	}
}

// BenchmarkRunStateAddSession measures what AddSession costs: one session
// filed and flushed at once (8 strategies: exact sums, sketches, paired
// comparisons, sample). The run files sessions in batches
// (BenchmarkRunStateCollect).
func BenchmarkRunStateAddSession(b *testing.B) {
	strategies := stateStrategies(8)
	st, err := sim.NewRunState(strategies, sim.SummaryOptions{ExactSessions: 1000, EqualTolerance: 1e-9, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	fillState(st, 8, 0, 2000)
	vals := make([][sim.NumMetrics]float64, 8)
	for s := range vals {
		for m := range sim.NumMetrics {
			vals[s][m] = float64(1000*s + 37*m)
		}
	}
	b.ReportAllocs()
	i := int64(2000)
	for b.Loop() {
		st.AddSession(i, "s", vals)
		i++
	}
}

// BenchmarkRunStateCollect measures collection alone on realistic values:
// the outcomes of 1,000 generated sessions replayed under the first 8
// strategy presets are filed into a fresh state (the bounded-memory
// summary options a run uses), as the run's collector does.
func BenchmarkRunStateCollect(b *testing.B) {
	cat, sessions := genTrace(b, 1000)
	eng := benchEngine(b, cat)
	all := func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	res, err := eng.Run(context.Background(), all, sim.RunOptions{})
	if err != nil {
		b.Fatal(err)
	}
	o := res.Outcomes
	vals := make([][][sim.NumMetrics]float64, len(o.SessionIDs))
	for i := range vals {
		vals[i] = make([][sim.NumMetrics]float64, len(o.Strategies))
		for s := range o.Strategies {
			for m := range sim.NumMetrics {
				vals[i][s][m] = o.Values[s][m][i]
			}
		}
	}
	opt := sim.SummaryOptions{ExactSessions: sim.DefaultExactSessions, FidelityPairs: sim.DefaultFidelityPairs, EqualTolerance: 1e-9, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		st, err := sim.NewRunState(o.Strategies, opt)
		if err != nil {
			b.Fatal(err)
		}
		for i, v := range vals {
			st.AddSessionBuffered(int64(i), o.SessionIDs[i], v)
		}
		st.Flush()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/session")
}

// collectValues returns n sessions' values under S strategies, shaped like
// a run's (zeros, counts, fractions, values equal to the baseline's) with
// NaN, ±Inf, -0, large, small and subnormal values among them (within a
// few decades: a sketch spans the range of its values).
func collectValues(n, S int, seed uint64) [][][sim.NumMetrics]float64 {
	rng := rand.New(rand.NewPCG(seed, 17))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 1e12, -1e-6, 0x1p-1074}
	out := make([][][sim.NumMetrics]float64, n)
	for i := range out {
		out[i] = make([][sim.NumMetrics]float64, S)
		for s := range S {
			for m := range sim.NumMetrics {
				var v float64
				switch k := rng.IntN(100); {
				case k < 40:
					v = 0
				case k < 60 && s > 0:
					v = out[i][0][m] // equal to the first strategy's
				case k < 75:
					v = float64(rng.IntN(50))
				case k < 90:
					v = rng.ExpFloat64() * 1e4
				case k < 98:
					v = rng.Float64()
				default:
					v = special[rng.IntN(len(special))]
				}
				out[i][s][m] = v
			}
		}
	}
	return out
}

// seriesBytes encodes a state's series and paired descriptions.
func seriesBytes(t *testing.T, st *sim.RunState) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(st.Series); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(st.Paired); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBatchedCollectMatchesReference pins the collector's batching: a state
// that buffers sessions and files them a series at a time holds, whenever
// it is read (mid-batch, at a batch's end, after a merge), series and
// paired descriptions that encode to the bytes of filing every value at
// once as before (Series.Add and Paired.Add per strategy and metric).
func TestBatchedCollectMatchesReference(t *testing.T) {
	const S = 5
	strategies := stateStrategies(S)
	for _, baseline := range []int{0, 3} {
		opt := sim.SummaryOptions{ExactSessions: 20, EqualTolerance: 1e-9, Seed: 4, Baseline: baseline}
		got, _ := sim.NewRunState(strategies, opt)
		want, _ := sim.NewRunState(strategies, opt)
		batch := got.CollectBatch()
		vals := collectValues(2*batch+batch/2, S, uint64(baseline))
		// The buffer holds MinCollectBatch sessions until it first fills,
		// then batch.
		since, size := 0, sim.MinCollectBatch // sessions added since the batch was last filed
		for i, v := range vals {
			got.AddSessionBuffered(int64(i), "s", v)
			want.AddSessionReference(v)
			if since++; since == size {
				if got.Buffered() != 0 {
					t.Fatalf("a full batch (%d sessions) was not filed: %d buffered", size, got.Buffered())
				}
				since, size = 0, batch
			}
			// Reads mid-batch, and one just after a full batch.
			if i == batch/3 || i == 2*batch+7 || i == batch {
				if got.Buffered() != since {
					t.Fatalf("session %d: %d buffered, want %d", i, got.Buffered(), since)
				}
				since = 0
				_ = got.Outcomes(strategies) // a read flushes
				if got.Buffered() != 0 {
					t.Fatalf("session %d: %d sessions still buffered after a read", i, got.Buffered())
				}
				if !bytes.Equal(seriesBytes(t, got), seriesBytes(t, want)) {
					t.Fatalf("baseline %d, after %d sessions: batched state differs from the reference", baseline, i+1)
				}
			}
		}
		// A merge flushes both sides.
		empty, _ := sim.NewRunState(strategies, opt)
		if err := empty.Merge(got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(seriesBytes(t, got), seriesBytes(t, want)) {
			t.Fatalf("baseline %d: batched state differs from the reference at the end", baseline)
		}
	}
}

// TestCheckpointStatesMatchReference pins that a run's checkpoints, taken
// in the middle of the collector's batches, hold every session replayed so
// far: their series and paired descriptions encode to the bytes of a state
// that filed those sessions' values one at a time; with
// RunOptions.SummaryOnDemand too (the values waiting in the sample are
// filed for each checkpoint, and by State.Complete at the end).
func TestCheckpointStatesMatchReference(t *testing.T) {
	for _, onDemand := range []bool{false, true} {
		checkpointStatesMatchReference(t, onDemand)
	}
}

func checkpointStatesMatchReference(t *testing.T, onDemand bool) {
	cat, sessions := genTrace(t, 75)
	eng := benchEngine(&testing.B{}, cat)
	all := func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	var checkpoints [][]byte
	var replayed []int64
	res, err := eng.Run(context.Background(), all, sim.RunOptions{Workers: 2, CheckpointEvery: 7, SummaryOnDemand: onDemand,
		Checkpoint: func(st *sim.RunState) error {
			checkpoints = append(checkpoints, seriesBytes(t, st))
			replayed = append(replayed, st.Replayed)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outcomes
	if (o.Summary.Series == nil) != onDemand { // 75 sessions: the sample keeps every one
		t.Fatalf("on demand %v: the summary has series: %v", onDemand, o.Summary.Series != nil)
	}
	res.State.Complete()
	if res.Counts.SessionsSkipped != 0 || len(checkpoints) != 75/7 {
		t.Fatalf("%d sessions skipped, %d checkpoints", res.Counts.SessionsSkipped, len(checkpoints))
	}
	ref, _ := sim.NewRunState(o.Strategies, res.State.Options)
	k := 0
	for i := range o.SessionIDs {
		v := make([][sim.NumMetrics]float64, len(o.Strategies))
		for s := range v {
			for m := range sim.NumMetrics {
				v[s][m] = o.Values[s][m][i]
			}
		}
		ref.AddSessionReference(v)
		if k < len(replayed) && int64(i+1) == replayed[k] {
			if !bytes.Equal(checkpoints[k], seriesBytes(t, ref)) {
				t.Fatalf("checkpoint after %d sessions differs from the reference", replayed[k])
			}
			k++
		}
	}
	if k != len(checkpoints) || !bytes.Equal(seriesBytes(t, res.State), seriesBytes(t, ref)) {
		t.Fatalf("%d of %d checkpoints compared; final state equal: %v", k, len(checkpoints),
			bytes.Equal(seriesBytes(t, res.State), seriesBytes(t, ref)))
	}
}
