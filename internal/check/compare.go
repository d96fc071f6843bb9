package check

import (
	"math"
	"sort"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/report"
)

// Status is the verdict on one checked quantity.
type Status string

// Verdicts, from worst to best.
const (
	// Regressed: worse than the tolerance and than the noise.
	Regressed Status = "regression"
	// Noise: worse than the tolerance but within the confidence intervals.
	Noise Status = "within noise"
	// OK: within the tolerance.
	OK Status = "ok"
	// Improved: better than the tolerance and than the noise.
	Improved Status = "improved"
	// Missing: the metric or statistic is absent from one of the files.
	Missing Status = "missing"
)

// Row is the comparison of one rule for one strategy.
type Row struct {
	Strategy string  `json:"strategy"`
	Rule     Rule    `json:"rule"`
	Unit     string  `json:"unit"`
	Base     float64 `json:"baseline"`
	Current  float64 `json:"current"`
	// Change is current − baseline; Worse is the change in the bad
	// direction (positive = worse), whatever the metric's direction.
	Change float64 `json:"change"`
	Worse  float64 `json:"worse"`
	// Allowed is the accepted worsening; NoiseBand the half-width of the
	// interval of the difference (0 when neither run has an interval).
	Allowed   float64 `json:"allowed"`
	NoiseBand float64 `json:"noise"`
	// HaveCI is true when both runs have an interval for the statistic.
	HaveCI bool `json:"have_ci"`
	// NormalNoise: a run had no bootstrap interval for the mean, so its
	// part of NoiseBand is the normal approximation (stats.NormalHalfWidth).
	NormalNoise bool `json:"normal_noise,omitempty"`
	// Paired: same sessions and seed, intervals not used (see NoisePaired).
	Paired bool   `json:"paired"`
	Status Status `json:"status"`
}

// RelChange is Change relative to the baseline (NaN when it is 0).
func (r Row) RelChange() float64 {
	if r.Base == 0 {
		return math.NaN()
	}
	return r.Change / math.Abs(r.Base)
}

// Noise models: how the confidence intervals enter the verdict.
const (
	// NoiseAuto: NoisePaired when both runs replayed the same trace files,
	// NoiseCI otherwise.
	NoiseAuto = "auto"
	// NoiseCI: the runs are independent samples of sessions; a worsening
	// must also exceed the combined half-widths of their intervals.
	NoiseCI = "ci"
	// NoisePaired: the runs replayed the same sessions with the same seed,
	// so the session-sampling error their intervals measure is shared and
	// cancels in the difference: tolerances alone decide.
	NoisePaired = "paired"
)

// Options tune Compare.
type Options struct {
	// Strategies limits the comparison to these names (nil = all).
	Strategies []string
	// Noise is NoiseCI or NoisePaired (NoiseAuto is resolved by Run).
	Noise string
}

// compare checks every rule for every strategy of cur against base. Call
// Comparable first: compare assumes the strategies match.
func compare(base, cur *report.Results, rules []Rule, opt Options) []Row {
	var rows []Row
	for _, name := range strategyNames(base, opt.Strategies) {
		bs, cs := base.Strategy(name), cur.Strategy(name)
		if bs == nil || cs == nil {
			continue
		}
		for _, rule := range rules {
			rows = append(rows, compareOne(base, name, bs, cs, rule, opt))
		}
	}
	return rows
}

func compareOne(base *report.Results, name string, bs, cs *report.StrategyResult, rule Rule, opt Options) Row {
	row := Row{Strategy: name, Rule: rule, Status: Missing}
	m, ok := base.Metric(rule.Metric)
	if !ok {
		return row
	}
	row.Unit = m.Unit
	bd, ok1 := bs.Metrics[rule.Metric]
	cd, ok2 := cs.Metrics[rule.Metric]
	if !ok1 || !ok2 {
		return row
	}
	bv, bci := stat(bd, rule.Stat)
	cv, cci := stat(cd, rule.Stat)
	row.Base, row.Current = bv, cv
	row.Change = cv - bv
	row.Worse = row.Change
	if !m.LowerIsBetter {
		row.Worse = -row.Change
	}
	row.Allowed = rule.Allowed(bv)
	hb, nb := halfWidth(bci, bv, bd, rule.Stat)
	hc, nc := halfWidth(cci, cv, cd, rule.Stat)
	row.HaveCI = bci != nil && cci != nil
	row.Paired = opt.Noise == NoisePaired
	if !row.Paired {
		row.NoiseBand = math.Hypot(hb, hc)
		row.NormalNoise = nb || nc
	}
	const eps = 1e-12
	switch {
	case row.Worse > row.Allowed+eps && row.Worse > row.NoiseBand+eps:
		row.Status = Regressed
	case row.Worse > row.Allowed+eps:
		row.Status = Noise
	case -row.Worse > row.Allowed+eps && -row.Worse > row.NoiseBand+eps:
		row.Status = Improved
	default:
		row.Status = OK
	}
	return row
}

// stat returns the statistic and its confidence interval (nil when none).
func stat(d report.Distribution, s string) (float64, *report.Interval) {
	switch s {
	case StatP50:
		return d.P50, d.P50CI
	case StatP95:
		return d.P95, d.P95CI
	}
	return d.Mean, d.MeanCI
}

// halfWidth is the larger distance from the estimate to an interval end:
// bootstrap intervals need not be symmetric, and the larger side is the
// cautious one. A mean without a bootstrap interval (a metric the results
// did not bootstrap) takes the normal approximation, as plan's projection
// does (normal is then true); a percentile without one has none (0).
func halfWidth(iv *report.Interval, v float64, d report.Distribution, stat string) (h float64, normal bool) {
	if iv != nil {
		return max(math.Abs(iv.High-v), math.Abs(v-iv.Low)), false
	}
	if stat != StatMean {
		return 0, false
	}
	h = stats.NormalHalfWidth(d.StdDev, d.Count)
	return h, h > 0
}

func strategyNames(r *report.Results, only []string) []string {
	var out []string
	for _, s := range r.Strategies {
		if len(only) == 0 || contains(only, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Summary counts rows by status.
type Summary struct {
	Rows        int `json:"rows"`
	Regressions int `json:"regressions"`
	WithinNoise int `json:"within_noise"`
	Improved    int `json:"improved"`
	Missing     int `json:"missing"`
}

// summarize counts rows by status.
func summarize(rows []Row) Summary {
	s := Summary{Rows: len(rows)}
	for _, r := range rows {
		switch r.Status {
		case Regressed:
			s.Regressions++
		case Noise:
			s.WithinNoise++
		case Improved:
			s.Improved++
		case Missing:
			s.Missing++
		}
	}
	return s
}

// notable returns the rows that are not OK, regressions first, then
// within noise, improved and missing, each in input order.
func notable(rows []Row) []Row {
	rank := map[Status]int{Regressed: 0, Noise: 1, Improved: 2, Missing: 3}
	var out []Row
	for _, r := range rows {
		if r.Status != OK {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].Status] < rank[out[j].Status] })
	return out
}
