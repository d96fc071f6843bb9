package report

import (
	"math"
	"slices"
	"testing"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/sim"
)

// referenceResample is the bootstrap step as it was before series were
// ranked: every resample gathers each series into scratch, sums it in idx
// order and selects its quantiles. TestBootstrapMatchesGather holds the
// builder to its bits.
func (b *builder) referenceResample(r int, idx []int32, scratch []float64) {
	inv := 1 / float64(len(idx))
	var q [2]float64
	base := b.o.Values[b.base]
	for s := range b.o.Strategies {
		for kb, m := range b.boot {
			rep := &b.reps[s][kb]
			if su := &b.sampleSum[s][m]; su.Constant {
				rep.mean[r], rep.p50[r], rep.p95[r] = su.Min, su.Min, su.Min
			} else {
				v := b.o.Values[s][m]
				total := 0.0
				for j, i := range idx {
					x := v[i]
					scratch[j] = x
					total += x
				}
				rep.mean[r] = total * inv
				stats.SelectQuantiles(scratch, bootQuantiles, q[:])
				rep.p50[r], rep.p95[r] = q[0], q[1]
			}
			if s == b.base {
				continue
			}
			if ds := &b.sampleDiff[s][m]; ds.constant {
				b.med[s][kb][r] = ds.median
			} else {
				v, bv := b.o.Values[s][m], base[m]
				for j, i := range idx {
					scratch[j] = v[i] - bv[i]
				}
				stats.SelectQuantiles(scratch, bootQuantiles[:1], q[:1])
				b.med[s][kb][r] = q[0]
			}
		}
	}
}

// TestBootstrapMatchesGather compares the builder's replicates with those
// of referenceResample, bit for bit: m = n (ranked), m < n within and
// beyond rankedMaxRatio (ranked, then gathered), every metric (whole
// numbers, fractions, constant and tied series), and a series holding −0,
// which is never ranked.
func TestBootstrapMatchesGather(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name                  string
		strategies, n, maxM   int
		resamples             int
		negativeZero, onlyTie bool
	}{
		{name: "n=2", strategies: 3, n: 2, resamples: 50},
		{name: "n=3", strategies: 2, n: 3, resamples: 50},
		{name: "n=57", strategies: 5, n: 57, resamples: 40},
		{name: "n=3000", strategies: 8, n: 3000, resamples: 12},
		{name: "m<n ranked", strategies: 4, n: 1200, maxM: 400, resamples: 12},
		{name: "m<n gathered", strategies: 4, n: 5000, maxM: 200, resamples: 12},
		{name: "negative zero", strategies: 3, n: 300, resamples: 20, negativeZero: true},
		{name: "ties", strategies: 3, n: 500, resamples: 20, onlyTie: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := syntheticOutcomes(tc.strategies, tc.n, 3)
			if tc.negativeZero {
				o.Values[1][sim.MInputTokens][tc.n/2] = negZero
				o.Values[0][sim.MCostUSD][1] = negZero
			}
			if tc.onlyTie {
				for s := range o.Values {
					for i := range o.Values[s][sim.MSessionMs] {
						o.Values[s][sim.MSessionMs][i] = float64((i + s) % 3)
					}
				}
			}
			boot, err := bootstrapMetrics([]string{"all"})
			if err != nil {
				t.Fatal(err)
			}
			rs := stats.NewResampling(tc.n, tc.resamples, tc.maxM, 5)
			newBuilder := func() *builder {
				b := &builder{o: o, boot: boot, rs: rs, n: tc.n, workers: 2, scale: rs.Scale()}
				b.exact()
				return b
			}
			got := newBuilder()
			got.bootstrap()
			if tc.negativeZero && (got.rank[1][slices.Index(boot, sim.MInputTokens)] != nil ||
				got.rank[0][slices.Index(boot, sim.MCostUSD)] != nil) {
				t.Fatal("a series holding -0 was ranked")
			}
			if ranked := tc.n <= rankedMaxRatio*rs.M; ranked != (got.rank != nil) {
				t.Fatalf("series ranked: %v, want %v", got.rank != nil, ranked)
			}
			if exact := slices.Concat(got.exactSum...); !slices.Contains(exact, true) || !slices.Contains(exact, false) {
				t.Fatal("want series with and without exact sums")
			}
			want := newBuilder()
			want.bootstrap() // allocates the replicates
			rs.Run(want.referenceResample)
			for s := range tc.strategies {
				for kb, m := range boot {
					g, w := got.reps[s][kb], want.reps[s][kb]
					for _, st := range []struct {
						name string
						g, w []float64
					}{{"mean", g.mean, w.mean}, {"p50", g.p50, w.p50}, {"p95", g.p95, w.p95}, {"median diff", got.med[s][kb], want.med[s][kb]}} {
						if !sameBits(st.g, st.w) {
							t.Errorf("strategy %d %s %s: replicates differ from the gathering reference", s, sim.Metrics[m].Name, st.name)
						}
					}
				}
			}
		})
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
