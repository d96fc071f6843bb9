package calibrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/defersim/defersim/sim"
)

// kindRequests draws requests of every kind but skip, timed by lat with a
// multiplicative lognormal noise of σ sigma (seeded), half of the
// sessions fitted on and half held out.
func kindRequests(lat sim.Latency, sigma float64, skip map[sim.RequestKind]bool) []Request {
	r := rand.New(rand.NewPCG(7, 11))
	var out []Request
	for s := range 40 {
		role := FitRole
		if s%2 == 1 {
			role = HeldOut
		}
		for i := range 12 {
			k := sim.RequestKind(r.IntN(int(sim.NumRequestKinds)))
			if skip[k] {
				continue
			}
			q := Request{Session: fmt.Sprint("s", s), Index: i, Role: role, Kind: k,
				SimUncached: int64(200 + r.IntN(3000)), SimRead: int64(r.IntN(20000)), SimOutput: int64(10 + r.IntN(400))}
			q.RecordedMs = lat.DurationMs(k, q.SimUncached, q.SimRead, q.SimOutput) * math.Exp(sigma*r.NormFloat64())
			out = append(out, q)
		}
	}
	return out
}

// TestFitLatencyRecoversKindTerms: on requests timed by a known latency
// with a term per request kind, the fit recovers the overhead, the rates
// and every kind's term; the fastest kind's term is 0 by construction
// (overhead_ms is the least intercept).
func TestFitLatencyRecoversKindTerms(t *testing.T) {
	truth := sim.Latency{OverheadMs: 400, PrefillTPS: 2000, CachedPrefillTPS: 20000, DecodeTPS: 80,
		Kinds: sim.KindMs{TurnText: 1500, TurnCall: 5000, ToolText: 800, ToolCall: 300}}
	scen := sim.Latency{OverheadMs: 1000, PrefillTPS: 9500, CachedPrefillTPS: 33000, DecodeTPS: 60}
	reqs := kindRequests(truth, 0.02, nil)
	f, err := fitLatency(reqs, SplitReplay, Log, scen, Huber, true, "")
	if err != nil {
		t.Fatal(err)
	}
	got := f.Latency
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*math.Max(want, 1) {
			t.Errorf("%s = %v, want %v (±%g%%)", name, got, want, tol*100)
		}
	}
	near("overhead_ms", got.OverheadMs, truth.OverheadMs, 0.1)
	near("prefill_tps", got.PrefillTPS, truth.PrefillTPS, 0.1)
	near("decode_tps", got.DecodeTPS, truth.DecodeTPS, 0.05)
	for _, k := range sim.RequestKinds() {
		near("overhead_ms + kind_ms."+k.String(), got.OverheadMs+got.Kinds.Of(k), truth.OverheadMs+truth.Kinds.Of(k), 0.05)
	}
	if got.Kinds.Repeat != 0 {
		t.Errorf("the fastest kind's term is %v, want 0", got.Kinds.Repeat)
	}
	if !f.Kinds || len(f.Params) != 4+int(sim.NumRequestKinds) {
		t.Errorf("params %+v", f.Params)
	}

	// Without kinds, one overhead: the same requests are fitted worse.
	one, err := fitLatency(reqs, SplitReplay, Log, scen, Huber, false, "")
	if err != nil {
		t.Fatal(err)
	}
	if one.Kinds || len(one.Params) != 4 || one.Latency.Kinds != (sim.KindMs{}) {
		t.Errorf("without kinds: %+v", one)
	}
	rows, _ := latencyRows(reqs, SplitReplay)
	ev := evaluate(rows, nil, f.Latency, scen, 0, firstReplySims{}, 1)
	ev1 := evaluate(rows, nil, one.Latency, scen, 0, firstReplySims{}, 1)
	if !(ev.Requests.MedianAbsRel < 0.03 && ev1.Requests.MedianAbsRel > 2*ev.Requests.MedianAbsRel) {
		t.Errorf("held-out median error %v with kinds, %v without", ev.Requests.MedianAbsRel, ev1.Requests.MedianAbsRel)
	}
	if len(ev.ByKind) != int(sim.NumRequestKinds) {
		t.Errorf("by kind: %+v", ev.ByKind)
	}
}

// TestFitLatencyKeepsAbsentKinds: a kind with no request in the fit set
// keeps the scenario's term and says so.
func TestFitLatencyKeepsAbsentKinds(t *testing.T) {
	truth := sim.Latency{OverheadMs: 400, PrefillTPS: 2000, CachedPrefillTPS: 20000, DecodeTPS: 80,
		Kinds: sim.KindMs{TurnText: 1500, TurnCall: 5000}}
	scen := sim.Latency{OverheadMs: 1000, PrefillTPS: 9500, CachedPrefillTPS: 33000, DecodeTPS: 60, Kinds: sim.KindMs{Repeat: 77}}
	f, err := fitLatency(kindRequests(truth, 0.02, map[sim.RequestKind]bool{sim.KindRepeat: true}), SplitReplay, Log, scen, Huber, true, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Latency.Kinds.Repeat != 77 {
		t.Errorf("repeat %v, want the scenario's 77", f.Latency.Kinds.Repeat)
	}
	for _, p := range f.Params {
		if p.Name == "kind_ms.repeat" && (p.Fitted || p.Note == "") {
			t.Errorf("absent kind: %+v", p)
		}
	}
}
