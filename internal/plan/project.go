package plan

import (
	"fmt"
	"math"
	"strings"

	"github.com/defersim/defersim/internal/stats"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// Amount is a projected quantity with its 95% interval.
type Amount struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Interval says where the interval comes from: "bootstrap" (the
	// results' interval of the mean), "normal" (mean ± 1.96 sd/√n, for
	// metrics the results did not bootstrap) or "none" (one session).
	Interval string `json:"interval"`
}

// Scale returns a multiplied by k.
func (a Amount) Scale(k float64) Amount {
	return Amount{Value: a.Value * k, Low: a.Low * k, High: a.High * k, Interval: a.Interval}
}

// Options of a projection.
type Options struct {
	SessionsPerDay float64
	// DaysPerMonth turns days into months (default 30; at most
	// MaxDaysPerMonth).
	DaysPerMonth float64
	// WarmStartTolerance is how far params.cache_warm_start may lie from
	// the warm start the volume implies before the projection warns (nil:
	// DefaultWarmStartTolerance; CheckWarmStartTolerance bounds it).
	WarmStartTolerance *float64
}

// Kinds of tokens projected, as results metrics.
var tokenKinds = []struct{ Name, Metric string }{
	{"uncached input", "uncached_input_tokens"},
	{"cache write", "cache_write_tokens"},
	{"cache read", "cache_read_tokens"},
	{"output", "output_tokens"},
}

// projected are the metrics Project reads.
var projected = []string{"cost_usd", "input_tokens", "uncached_input_tokens", "cache_write_tokens", "cache_read_tokens",
	"output_tokens", "first_reply_ms", "session_ms", "extra_round_trips"}

// StrategyPlan is one strategy's projection.
type StrategyPlan struct {
	Strategy string `json:"strategy"`
	// Per day: tokens by kind (in token-kind order), all input tokens,
	// dollars (from cost_usd) and dollars by kind (from the prices).
	Tokens      []KindAmount `json:"tokens_per_day"`
	InputTokens Amount       `json:"input_tokens_per_day"`
	USD         Amount       `json:"usd_per_day"`
	USDByKind   []KindAmount `json:"usd_per_day_by_kind,omitempty"`
	// MonthUSD and MonthTokens are the month (DaysPerMonth days).
	MonthUSD         Amount `json:"usd_per_month"`
	MonthInputTokens Amount `json:"input_tokens_per_month"`
	// Latency per session: first reply p50 and p95, session time p50.
	FirstReplyP50 Amount `json:"first_reply_p50_ms"`
	FirstReplyP95 Amount `json:"first_reply_p95_ms"`
	SessionP50    Amount `json:"session_p50_ms"`
	// ExtraRequests per day caused by deferral.
	ExtraRequests Amount `json:"extra_requests_per_day"`
	// ContextOverflow counts the strategy's replayed requests over the
	// model's context window (the results' strategies[].context_overflow),
	// which a provider refuses: the projection counts them as sent
	// (projectionOverflow warns of it). Absent when none was.
	ContextOverflow *sim.ContextOverflow `json:"context_overflow,omitempty"`
}

// KindAmount is an amount of one token kind.
type KindAmount struct {
	Kind string `json:"kind"`
	Amount
}

// Projection is a results file projected to a volume.
type Projection struct {
	Scenario string `json:"scenario"`
	// SweepPoint is the results' run.sweep_point: the parameter and value
	// a sweep set in place of the scenario's (absent for a plain run).
	SweepPoint *sim.SweepPoint `json:"sweep_point,omitempty"`
	// GrowthPoint is the results' run.growth_point: the catalog size a
	// `plan --growth` replayed them at (absent for a plain run).
	GrowthPoint    *sim.GrowthPoint `json:"growth_point,omitempty"`
	Sessions       int              `json:"sessions_replayed"`
	SmallSample    bool             `json:"small_sample"`
	SessionsPerDay float64          `json:"sessions_per_day"`
	DaysPerMonth   float64          `json:"days_per_month"`
	Prices         *report.Prices   `json:"prices,omitempty"`
	Strategies     []StrategyPlan   `json:"strategies"`
	// Warnings say what in the results makes them a doubtful basis for a
	// projection (resultsWarnings); absent for a clean, whole run.
	Warnings []string `json:"warnings,omitempty"`
	// Cache states the prompt-cache assumption of the per-session figures
	// against the projected volume (cacheStart).
	Cache *CacheStart `json:"cache"`
	// Sketched, when the results' percentiles come from a quantile sketch
	// (a streamed run), bounds their error; absent when they are exact.
	Sketched *SketchBound `json:"percentiles_sketched,omitempty"`
}

// Project projects every strategy of res to opt.SessionsPerDay sessions a
// day. The replayed sessions are taken as a sample of the fleet's: daily
// totals are the per-session means times the volume, their intervals the
// intervals of the means times the volume; percentiles are per session
// and do not depend on the volume.
func Project(res *report.Results, opt Options) (*Projection, error) {
	if !(opt.SessionsPerDay > 0) || math.IsInf(opt.SessionsPerDay, 0) {
		return nil, fmt.Errorf("sessions per day %v: want a positive number", opt.SessionsPerDay)
	}
	if opt.DaysPerMonth == 0 {
		opt.DaysPerMonth = 30
	}
	if err := CheckDaysPerMonth("days per month", opt.DaysPerMonth); err != nil {
		return nil, err
	}
	tol := DefaultWarmStartTolerance
	if opt.WarmStartTolerance != nil {
		tol = *opt.WarmStartTolerance
	}
	if err := CheckWarmStartTolerance("warm-start tolerance", tol); err != nil {
		return nil, err
	}
	for _, s := range res.Strategies {
		for _, m := range projected {
			if _, ok := s.Metrics[m]; !ok {
				return nil, fmt.Errorf("results: strategy %q has no metric %s, which the projection needs (%s)", s.Name, m, strings.Join(projected, ", "))
			}
		}
	}
	n := opt.SessionsPerDay
	p := &Projection{Scenario: res.Run.Scenario, SweepPoint: res.Run.SweepPoint, GrowthPoint: res.Run.GrowthPoint, Sessions: res.Sessions, SmallSample: res.SmallSample,
		SessionsPerDay: n, DaysPerMonth: opt.DaysPerMonth, Prices: res.Prices, Warnings: resultsWarnings(res),
		Sketched: sketchBound(res)}
	var cacheWarning string
	p.Cache, cacheWarning = cacheStart(res, n, tol)
	if cacheWarning != "" {
		p.Warnings = append(p.Warnings, cacheWarning)
	}
	for _, s := range res.Strategies {
		sp := StrategyPlan{Strategy: s.Name}
		for _, k := range tokenKinds {
			sp.Tokens = append(sp.Tokens, KindAmount{Kind: k.Name, Amount: meanAmount(s.Metrics[k.Metric]).Scale(n)})
		}
		sp.InputTokens = meanAmount(s.Metrics["input_tokens"]).Scale(n)
		sp.USD = meanAmount(s.Metrics["cost_usd"]).Scale(n)
		if pr := res.Prices; pr != nil {
			for i, price := range []float64{pr.Input, pr.CacheWrite, pr.CacheRead, pr.Output} {
				sp.USDByKind = append(sp.USDByKind, KindAmount{Kind: tokenKinds[i].Name, Amount: sp.Tokens[i].Scale(price / 1e6)})
			}
		}
		sp.MonthUSD = sp.USD.Scale(opt.DaysPerMonth)
		sp.MonthInputTokens = sp.InputTokens.Scale(opt.DaysPerMonth)
		fr := s.Metrics["first_reply_ms"]
		sp.FirstReplyP50 = quantileAmount(fr.P50, fr.P50CI, fr.Count)
		sp.FirstReplyP95 = quantileAmount(fr.P95, fr.P95CI, fr.Count)
		ss := s.Metrics["session_ms"]
		sp.SessionP50 = quantileAmount(ss.P50, ss.P50CI, ss.Count)
		sp.ExtraRequests = meanAmount(s.Metrics["extra_round_trips"]).Scale(n)
		if o := s.ContextOverflow; o != nil && o.Requests > 0 {
			sp.ContextOverflow = o
			p.Warnings = append(p.Warnings, projectionOverflow(s.Name, o, res.Sessions))
		}
		p.Strategies = append(p.Strategies, sp)
	}
	if what := p.overflow(); what != "" {
		return nil, fmt.Errorf("sessions per day %v, %v days per month: %s overflows (it is more than a float64 holds, about 1.8×10^308): want a smaller volume",
			n, opt.DaysPerMonth, what)
	}
	return p, nil
}

// overflow names the first amount of p that is not finite: a volume so
// large that a per-session mean times it, or a day times the days per
// month, overflows float64. Such a projection has no number to print or
// to write in plan.json (JSON has no infinity); "" when every amount is
// finite.
func (p *Projection) overflow() string {
	for _, s := range p.Strategies {
		amounts := []KindAmount{{"cost per day", s.USD}, {"cost per month", s.MonthUSD},
			{"input tokens per day", s.InputTokens}, {"input tokens per month", s.MonthInputTokens},
			{"extra requests per day", s.ExtraRequests}}
		for _, k := range s.Tokens {
			amounts = append(amounts, KindAmount{k.Kind + " tokens per day", k.Amount})
		}
		for _, k := range s.USDByKind {
			amounts = append(amounts, KindAmount{k.Kind + " cost per day", k.Amount})
		}
		for _, a := range amounts {
			for _, v := range []float64{a.Value, a.Low, a.High} {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					return fmt.Sprintf("strategy %s's %s", s.Strategy, a.Kind)
				}
			}
		}
	}
	return ""
}

// meanAmount is a distribution's mean with its interval: the bootstrap
// interval when the results have one, else the normal approximation.
func meanAmount(d report.Distribution) Amount {
	a := Amount{Value: d.Mean, Low: d.Mean, High: d.Mean, Interval: "none"}
	switch {
	case d.MeanCI != nil:
		a.Low, a.High, a.Interval = d.MeanCI.Low, d.MeanCI.High, "bootstrap"
	case d.Count > 1:
		h := stats.NormalHalfWidth(d.StdDev, d.Count)
		a.Low, a.High, a.Interval = d.Mean-h, d.Mean+h, "normal"
		if d.Min >= 0 {
			a.Low = max(a.Low, 0)
		}
	}
	return a
}

func quantileAmount(v float64, ci *report.Interval, count int) Amount {
	a := Amount{Value: v, Low: v, High: v, Interval: "none"}
	if ci != nil {
		a.Low, a.High, a.Interval = ci.Low, ci.High, "bootstrap"
	} else if count > 1 {
		a.Interval = "none (not bootstrapped)"
	}
	return a
}

// pointAt says which sweep or growth point the projected results are
// (sim.PointAt), to follow the scenario's name in the projection's title.
func (p *Projection) pointAt() string {
	return sim.PointAt(p.SweepPoint, p.GrowthPoint)
}
