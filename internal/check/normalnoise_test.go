package check

import (
	"math"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestMeanWithoutBootstrapUsesNormalNoise pins that under the ci noise
// model (independent samples) a mean the results did not bootstrap
// (calls_without_schema, unrecovered_misses: not in bootstrap_metrics) is
// judged against the normal approximation of its interval,
// 1.96·sd/√n per run, as `plan` projects it: it had a noise band of 0, so
// a sampling difference between two session sets was a "regression" (0.1525
// → 0.205 calls per session at sd 0.45 over 400 sessions each).
func TestMeanWithoutBootstrapUsesNormalNoise(t *testing.T) {
	rule := Rule{Metric: "calls_without_schema", Stat: StatMean, Rel: 0.05, Abs: 0.002}
	sample := func(mean, sd float64, n int) report.Distribution {
		return report.Distribution{Count: n, Mean: mean, StdDev: sd, Min: 0, Max: 4}
	}
	h := func(sd float64, n int) float64 { return 1.959964 * sd / math.Sqrt(float64(n)) }
	tests := []struct {
		name      string
		base, cur report.Distribution
		noise     string
		want      Status
		band      float64
	}{
		{"independent samples, inside the normal band", sample(0.1525, 0.4525, 400), sample(0.205, 0.49, 400), NoiseCI,
			Noise, math.Hypot(h(0.4525, 400), h(0.49, 400))},
		{"independent samples, beyond it", sample(0.1525, 0.4525, 400), sample(0.36, 0.6, 400), NoiseCI,
			Regressed, math.Hypot(h(0.4525, 400), h(0.6, 400))},
		{"paired: tolerances alone", sample(0.1525, 0.4525, 400), sample(0.205, 0.49, 400), NoisePaired, Regressed, 0},
		{"one session a side: no interval", sample(0, 0, 1), sample(1, 0, 1), NoiseCI, Regressed, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := results("f", map[string]map[string]report.Distribution{"a": {rule.Metric: tc.base}})
			cur := results("f", map[string]map[string]report.Distribution{"a": {rule.Metric: tc.cur}})
			rows := compare(base, cur, []Rule{rule}, Options{Noise: tc.noise})
			if len(rows) != 1 {
				t.Fatalf("%d rows", len(rows))
			}
			r := rows[0]
			if r.Status != tc.want || math.Abs(r.NoiseBand-tc.band) > 1e-9 {
				t.Errorf("status %s, band %g; want %s, %g (%+v)", r.Status, r.NoiseBand, tc.want, tc.band, r)
			}
			// The table says the band is a normal approximation.
			if got := noise(r); tc.band > 0 && !strings.HasSuffix(got, "(normal)") {
				t.Errorf("noise column %q: want the band marked (normal)", got)
			}
		})
	}
}
