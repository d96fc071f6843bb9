package report

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// outcomesOf builds outcomes where only metric m is set, from one series
// per strategy.
func outcomesOf(m int, series map[string][]float64, order []string) *sim.Outcomes {
	n := len(series[order[0]])
	o := &sim.Outcomes{SessionIDs: make([]string, n)}
	for i := range n {
		o.SessionIDs[i] = "s" + string(rune('a'+i%26))
	}
	for _, name := range order {
		o.Strategies = append(o.Strategies, sim.Strategy{Name: name})
		var v [sim.NumMetrics][]float64
		for k := range v {
			v[k] = make([]float64, n)
		}
		copy(v[m], series[name])
		o.Values = append(o.Values, v)
	}
	return o
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestBuildHandComputed(t *testing.T) {
	o := outcomesOf(sim.MCostUSD, map[string][]float64{
		"base": {1, 2, 3, 4, 10},
		"alt":  {1, 1, 4, 2, 5},
	}, []string{"base", "alt"})
	o.ByRequestIndex = [][]sim.RequestIndexStat{
		{{Sessions: 5, Input: 1000, CacheRead: 0}, {Sessions: 4, Input: 1000, CacheRead: 800, Extra: 1}, {}},
		{{Sessions: 5, Input: 500}},
	}
	res, err := Build(o, sim.RunInfo{Baseline: "base", Seed: 1}, BuildOptions{Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Strategies[0].Metrics["cost_usd"]
	want := Distribution{Count: 5, Mean: 4, Sum: 20, Min: 1, P50: 3, P90: 7.6, P95: 8.8, P99: 9.76, Max: 10,
		StdDev: math.Sqrt(50.0 / 4)}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", d.Mean, want.Mean}, {"sum", d.Sum, want.Sum}, {"min", d.Min, want.Min}, {"p50", d.P50, want.P50},
		{"p90", d.P90, want.P90}, {"p95", d.P95, want.P95}, {"p99", d.P99, want.P99}, {"max", d.Max, want.Max},
		{"stddev", d.StdDev, want.StdDev},
	} {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("base %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if d.Count != 5 || len(d.Quantiles) != QuantileGridPoints || d.Quantiles[0] != 1 || d.Quantiles[100] != 10 || d.Quantiles[50] != 3 {
		t.Errorf("count/quantiles: %d %v", d.Count, d.Quantiles)
	}
	if d.MeanCI == nil || !(d.MeanCI.Low <= d.Mean && d.Mean <= d.MeanCI.High) {
		t.Errorf("mean CI %+v does not cover the mean", d.MeanCI)
	}
	if res.Strategies[0].VsBaseline != nil {
		t.Error("the baseline compares with itself")
	}
	// Differences alt − base: 0, −1, +1, −2, −5 → mean −1.4, median −1;
	// lower is better for cost: 3 better, 1 worse, 1 equal.
	c := res.Strategies[1].VsBaseline["cost_usd"]
	if !near(c.MeanDiff, -1.4, 1e-12) || c.MedianDiff != -1 || c.Sessions != 5 {
		t.Errorf("mean/median diff = %v/%v", c.MeanDiff, c.MedianDiff)
	}
	if c.Ratio == nil || !near(*c.Ratio, 13.0/20, 1e-12) {
		t.Errorf("ratio = %v, want 0.65", c.Ratio)
	}
	if !near(c.Better, 0.6, 1e-12) || !near(c.Worse, 0.2, 1e-12) || !near(c.Equal, 0.2, 1e-12) {
		t.Errorf("better/worse/equal = %v/%v/%v", c.Better, c.Worse, c.Equal)
	}
	if !near(c.P50Diff, 2-3, 1e-12) || !near(c.P95Diff, 4.8-8.8, 1e-12) {
		t.Errorf("p50/p95 diff = %v/%v", c.P50Diff, c.P95Diff)
	}
	// A metric that is zero everywhere: ratio undefined, all sessions equal.
	z := res.Strategies[1].VsBaseline["searches"]
	if z.Ratio != nil || z.Equal != 1 || z.Significant {
		t.Errorf("all-zero metric comparison: %+v", z)
	}
	hits := res.Strategies[0].CacheHitByRequest
	if len(hits) != 2 || hits[1].Request != 2 || hits[1].HitRatio != 0.8 || hits[1].ExtraShare != 0.25 || hits[0].HitRatio != 0 {
		t.Errorf("cache hit by request = %+v", hits)
	}
	if len(res.Strategies[1].CacheHitByRequest) != 1 {
		t.Errorf("alt cache hit points = %+v", res.Strategies[1].CacheHitByRequest)
	}
	if !res.SmallSample || res.Sessions != 5 {
		t.Errorf("small sample = %v, sessions = %d", res.SmallSample, res.Sessions)
	}
}

func TestBuildPairedSignificance(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 60
	base, shifted, noisy, same := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		base[i] = 3000 + 800*rng.NormFloat64()
		shifted[i] = base[i] - 200 + 20*rng.NormFloat64() // clearly faster
		noisy[i] = base[i] + 50*rng.NormFloat64()         // no real change
		same[i] = base[i]
	}
	o := outcomesOf(sim.MFirstReplyMs, map[string][]float64{"base": base, "shifted": shifted, "noisy": noisy, "same": same},
		[]string{"base", "shifted", "noisy", "same"})
	res, err := Build(o, sim.RunInfo{Baseline: "base", Seed: 11}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		strategy    string
		significant bool
	}{
		{"shifted", true},
		{"noisy", false},
		{"same", false},
	}
	for _, tc := range tests {
		c := res.Strategy(tc.strategy).VsBaseline["first_reply_ms"]
		if c.MeanDiffCI == nil {
			t.Fatalf("%s: no interval", tc.strategy)
		}
		if c.Significant != tc.significant || c.MeanDiffCI.Contains(0) == tc.significant {
			t.Errorf("%s: significant=%v, CI %+v (mean diff %v)", tc.strategy, c.Significant, *c.MeanDiffCI, c.MeanDiff)
		}
	}
	if c := res.Strategy("shifted").VsBaseline["first_reply_ms"]; c.Better < 0.95 || c.MeanDiffCI.High >= 0 || c.MedianDiffCI.High >= 0 {
		t.Errorf("shifted: better share %v, mean CI %+v, median CI %+v", c.Better, *c.MeanDiffCI, *c.MedianDiffCI)
	}
	if c := res.Strategy("same").VsBaseline["first_reply_ms"]; c.Equal != 1 || *c.MeanDiffCI != (Interval{}) {
		t.Errorf("same: equal share %v, CI %+v", c.Equal, *c.MeanDiffCI)
	}
}

func TestBuildDeterministicAcrossWorkers(t *testing.T) {
	o := syntheticOutcomes(3, 50, 2)
	one, err := Build(o, syntheticInfo(), BuildOptions{Workers: 1, Bootstrap: 300})
	if err != nil {
		t.Fatal(err)
	}
	many, err := Build(o, syntheticInfo(), BuildOptions{Workers: 4, Bootstrap: 300})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := MarshalResults(one)
	b, _ := MarshalResults(many)
	if !bytes.Equal(a, b) {
		t.Fatal("results depend on the number of workers")
	}
	info := syntheticInfo()
	info.Seed = 8
	other, _ := Build(o, info, BuildOptions{Workers: 1, Bootstrap: 300})
	if c, _ := MarshalResults(other); bytes.Equal(a, c) {
		t.Fatal("a different seed gave identical intervals")
	}
}

func TestBuildOptions(t *testing.T) {
	o := syntheticOutcomes(2, 200, 4)
	res, err := Build(o, syntheticInfo(), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Strategies[1]
	if s.Metrics["cost_usd"].MeanCI == nil || s.Metrics["unrecovered_misses"].MeanCI != nil {
		t.Error("default bootstrap metrics: want intervals for cost_usd, not unrecovered_misses")
	}
	if res.Statistics.BootstrapResamples != DefaultBootstrap || res.Statistics.BootstrapSessions != 200 {
		t.Errorf("statistics: %+v", res.Statistics)
	}

	all, _ := Build(o, syntheticInfo(), BuildOptions{BootstrapMetrics: []string{"all"}, Bootstrap: 100})
	if all.Strategies[1].Metrics["unrecovered_misses"].MeanCI == nil {
		t.Error(`{"all"}: unrecovered_misses has no interval`)
	}

	none, _ := Build(o, syntheticInfo(), BuildOptions{Bootstrap: -1})
	if c := none.Strategies[1].VsBaseline["cost_usd"]; c.MeanDiffCI != nil || c.Significant || none.Statistics.BootstrapMethod != "none" {
		t.Errorf("bootstrap disabled: %+v", c)
	}

	// m-out-of-n: intervals of about the width of the full bootstrap.
	full, _ := Build(o, syntheticInfo(), BuildOptions{Bootstrap: 400})
	sub, _ := Build(o, syntheticInfo(), BuildOptions{Bootstrap: 400, MaxBootstrapSessions: 50})
	if !strings.Contains(sub.Statistics.BootstrapMethod, "m-out-of-n") || sub.Statistics.BootstrapSessions != 50 {
		t.Errorf("m-out-of-n not recorded: %+v", sub.Statistics)
	}
	fw := full.Strategies[1].Metrics["cost_usd"].MeanCI
	sw := sub.Strategies[1].Metrics["cost_usd"].MeanCI
	ratio := (sw.High - sw.Low) / (fw.High - fw.Low)
	if ratio < 0.6 || ratio > 1.6 {
		t.Errorf("m-out-of-n interval width is %.2f× the full bootstrap's", ratio)
	}
	if m := sub.Strategies[1].Metrics["cost_usd"]; !sw.Contains(m.Mean) {
		t.Errorf("m-out-of-n interval %+v misses the mean %v", *sw, m.Mean)
	}

	if !strings.Contains(res.Run.Baseline, "eager") {
		t.Errorf("baseline = %q", res.Run.Baseline)
	}
	noBase := syntheticInfo()
	noBase.Baseline = ""
	first, _ := Build(o, noBase, BuildOptions{Bootstrap: -1})
	if first.Run.Baseline != o.Strategies[0].Name || !first.Strategies[0].Baseline {
		t.Errorf("empty baseline should default to the first strategy, got %q", first.Run.Baseline)
	}
}

func TestBuildRejectsBadOutcomes(t *testing.T) {
	good := func() *sim.Outcomes { return syntheticOutcomes(2, 5, 1) }
	tests := []struct {
		name   string
		o      *sim.Outcomes
		info   func(*sim.RunInfo)
		opts   BuildOptions
		substr string
	}{
		{name: "nil", o: nil, substr: "no strategies"},
		{name: "no strategies", o: &sim.Outcomes{}, substr: "no strategies"},
		{name: "values missing", o: func() *sim.Outcomes { o := good(); o.Values = o.Values[:1]; return o }(), substr: "values for 1"},
		{name: "short series", o: func() *sim.Outcomes { o := good(); o.Values[1][3] = o.Values[1][3][:2]; return o }(), substr: "2 values for 5 sessions"},
		{name: "NaN", o: func() *sim.Outcomes { o := good(); o.Values[0][0][1] = math.NaN(); return o }(), substr: "not finite"},
		{name: "unnamed", o: func() *sim.Outcomes { o := good(); o.Strategies[1].Name = ""; return o }(), substr: "no name"},
		{name: "duplicate", o: func() *sim.Outcomes { o := good(); o.Strategies[1].Name = o.Strategies[0].Name; return o }(), substr: "twice"},
		{name: "unknown baseline", o: good(), info: func(i *sim.RunInfo) { i.Baseline = "nope" }, substr: "baseline strategy \"nope\""},
		{name: "unknown metric", o: good(), opts: BuildOptions{BootstrapMetrics: []string{"bogus"}}, substr: "unknown bootstrap metric"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := syntheticInfo()
			if tc.info != nil {
				tc.info(&info)
			}
			_, err := Build(tc.o, info, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.substr) {
				t.Fatalf("error %v, want one containing %q", err, tc.substr)
			}
		})
	}
}

func TestBuildEmptyAndTiny(t *testing.T) {
	for _, n := range []int{0, 1} {
		res, err := Build(syntheticOutcomes(2, n, 1), syntheticInfo(), BuildOptions{})
		if err != nil {
			t.Fatalf("%d sessions: %v", n, err)
		}
		if !res.SmallSample || res.Statistics.BootstrapResamples != 0 {
			t.Errorf("%d sessions: %+v", n, res.Statistics)
		}
		if _, err := MarshalResults(res); err != nil {
			t.Errorf("%d sessions: %v", n, err)
		}
		var buf bytes.Buffer
		if err := Summary(&buf, res); err != nil || strings.Count(buf.String(), "\n") != 5 {
			t.Errorf("%d sessions: summary %q, %v", n, buf.String(), err)
		}
	}
}
