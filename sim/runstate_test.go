package sim_test

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/defersim/defersim/sim"
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

// BenchmarkRunStateAddSession measures what collecting one session costs
// the run (8 strategies: exact sums, sketches, paired comparisons, sample).
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
