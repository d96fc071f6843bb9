package report

import (
	"math"
	"slices"
	"testing"

	"github.com/defersim/defersim/sim"
)

// streamedOutcomes files every session of o into a run state keeping at
// most exact sessions, and returns the state's outcomes.
func streamedOutcomes(t *testing.T, o *sim.Outcomes, exact int) *sim.Outcomes {
	t.Helper()
	st, err := sim.NewRunState(o.Strategies, sim.SummaryOptions{ExactSessions: exact, EqualTolerance: EqualTolerance, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range o.SessionIDs {
		vals := make([][sim.NumMetrics]float64, len(o.Strategies))
		for s := range vals {
			for m := range sim.NumMetrics {
				vals[s][m] = o.Values[s][m][i]
			}
		}
		st.AddSession(int64(i), id, vals)
	}
	return st.Outcomes(o.Strategies)
}

// TestBuildStreamed compares results built from every session with results
// built from streaming statistics and a sample: exact figures agree (to the
// last bits of a differently ordered sum), quantiles stay within the
// sketch's bound of the order statistic at their rank, and intervals exist.
func TestBuildStreamed(t *testing.T) {
	o := syntheticOutcomes(3, 3000, 11)
	info := syntheticInfo()
	exact, err := Build(o, info, BuildOptions{Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	so := streamedOutcomes(t, o, 400)
	if !so.Sampled() || len(so.SessionIDs) != 400 {
		t.Fatalf("streamed outcomes keep %d sessions, sampled %v", len(so.SessionIDs), so.Sampled())
	}
	streamed, err := Build(so, info, BuildOptions{Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	if streamed.Sessions != 3000 || streamed.Statistics.Streaming == nil || streamed.Statistics.Streaming.SampleSessions != 400 {
		t.Fatalf("sessions %d, streaming %+v", streamed.Sessions, streamed.Statistics.Streaming)
	}
	alpha := streamed.Statistics.Streaming.RelativeAccuracy
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-12 }
	for s := range o.Strategies {
		for m := range sim.NumMetrics {
			name := sim.Metrics[m].Name
			e, g := exact.Strategies[s].Metrics[name], streamed.Strategies[s].Metrics[name]
			if e.Count != g.Count || !close(e.Sum, g.Sum) || !close(e.Mean, g.Mean) || !close(e.StdDev, g.StdDev) || e.Min != g.Min || e.Max != g.Max {
				t.Errorf("%s %s: exact figures differ: %+v vs %+v", o.Strategies[s].Name, name, e, g)
			}
			sorted := slices.Sorted(slices.Values(o.Values[s][m]))
			for _, q := range []struct {
				q      float64
				ex, gt float64
			}{{0.5, e.P50, g.P50}, {0.9, e.P90, g.P90}, {0.95, e.P95, g.P95}, {0.99, e.P99, g.P99}} {
				k := int(q.q * float64(len(sorted)-1))
				lo, hi := sorted[k], sorted[min(k+1, len(sorted)-1)]
				if q.gt < lo*(1-2*alpha)-1e-9 || q.gt > hi*(1+2*alpha)+1e-9 {
					t.Errorf("%s %s q%.2f = %v, order statistics at its rank %v..%v (exact %v)", o.Strategies[s].Name, name, q.q, q.gt, lo, hi, q.ex)
				}
			}
			if e.MeanCI != nil && g.MeanCI == nil {
				t.Errorf("%s %s: streamed results lack the mean's interval", o.Strategies[s].Name, name)
			}
			if s == 0 {
				continue
			}
			ec, gc := exact.Strategies[s].VsBaseline[name], streamed.Strategies[s].VsBaseline[name]
			if ec.Better != gc.Better || ec.Worse != gc.Worse || ec.Equal != gc.Equal || !close(ec.MeanDiff, gc.MeanDiff) || ec.Sessions != gc.Sessions {
				t.Errorf("%s %s: paired figures differ: %+v vs %+v", o.Strategies[s].Name, name, ec, gc)
			}
		}
	}
}

func TestBuildStreamedRefusesAnotherBaseline(t *testing.T) {
	o := streamedOutcomes(t, syntheticOutcomes(2, 100, 3), 10)
	info := syntheticInfo()
	info.Baseline = o.Strategies[1].Name
	if _, err := Build(o, info, BuildOptions{Bootstrap: -1}); err == nil {
		t.Fatal("building streamed outcomes against another baseline succeeded")
	}
}
