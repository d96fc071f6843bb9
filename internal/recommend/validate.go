package recommend

import (
	"context"
	"fmt"
	"github.com/defersim/defersim/internal/nouns"
	"math"
	"slices"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// Validation is the replay of the held-out sessions under the proposal,
// the current strategy and the presets, compared pairwise with the proposal.
type Validation struct {
	Sessions int `json:"sessions"`
	// SmallSample is true when Sessions is below SmallSampleBelow (a
	// run's threshold, report.SmallSampleBelow): the intervals are wide,
	// and a verdict that counts a difference within them as equal says
	// little.
	SmallSample      bool            `json:"small_sample"`
	SmallSampleBelow int             `json:"small_sample_below"`
	Current          string          `json:"current"`
	Results          *report.Results `json:"-"`
	Rows             []Row           `json:"rows"`
}

// Row compares one strategy with the proposal on the held-out sessions.
type Row struct {
	Strategy string `json:"strategy"`
	// Means per session of cost and first reply, and the p95 first reply.
	CostUSD      float64 `json:"cost_usd"`
	InputTokens  float64 `json:"input_tokens"`
	FirstReplyMs float64 `json:"first_reply_ms"`
	FirstP95Ms   float64 `json:"first_reply_p95_ms"`
	// Paired differences proposal − strategy over the same sessions (mean,
	// with its 95% interval when bootstrapped): negative = the proposal is
	// cheaper / faster.
	CostDiff       float64          `json:"cost_diff"`
	CostDiffCI     *report.Interval `json:"cost_diff_ci,omitempty"`
	FirstReplyDiff float64          `json:"first_reply_diff"`
	FirstDiffCI    *report.Interval `json:"first_reply_diff_ci,omitempty"`
	// Verdict: how the proposal compares (see verdict).
	Verdict string `json:"verdict"`
}

// validate replays the held-out sessions of srcs under every compared
// strategy with the proposal as baseline.
func validate(ctx context.Context, cfg Config, p *Proposal, srcs []runner.Source) (*Validation, error) {
	strategies := []sim.Strategy{p.Strategy}
	names := []string{proposalName}
	add := func(s sim.Strategy) {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
			strategies = append(strategies, s)
		}
	}
	if cfg.Current.Name != "" {
		add(cfg.Current)
	}
	list := cfg.Presets
	if list == nil {
		list = presets.StrategyNames()
	}
	for _, name := range list {
		s, err := presets.Strategy(name)
		if err != nil {
			return nil, err
		}
		add(s)
	}
	rc := runner.Config{Scenario: "recommend-validation", Seed: cfg.Seed, Baseline: proposalName,
		Strategies: strategies, Model: cfg.Model, Params: cfg.Params, Traces: srcs, LocalServers: p.LocalServers,
		Bootstrap: cfg.Bootstrap, BootstrapMemory: cfg.BootstrapMemory, Workers: cfg.Workers, AllowUnresolved: cfg.AllowUnresolved,
		Select: func(id string) bool { return isHeldOut(cfg.Seed, id, cfg.TestShare) }}
	catSrcs, err := runner.CatalogSources(cfg.Catalogs, cfg.Embedded)
	if err != nil {
		return nil, err
	}
	rc.Catalogs = catSrcs
	out, err := runner.Run(ctx, rc)
	if err != nil {
		return nil, err
	}
	res := out.Results
	v := &Validation{Sessions: res.Sessions, SmallSample: res.SmallSample, SmallSampleBelow: res.Statistics.SmallSampleBelow, Current: cfg.Current.Name, Results: res}
	for _, s := range res.Strategies {
		row := Row{Strategy: s.Name}
		row.CostUSD = s.Metrics["cost_usd"].Mean
		row.InputTokens = s.Metrics["input_tokens"].Mean
		row.FirstReplyMs = s.Metrics["first_reply_ms"].Mean
		row.FirstP95Ms = s.Metrics["first_reply_ms"].P95
		if s.Name != proposalName {
			// VsBaseline holds strategy − proposal: flip to proposal − strategy.
			c := s.VsBaseline["cost_usd"]
			f := s.VsBaseline["first_reply_ms"]
			row.CostDiff, row.CostDiffCI = -c.MeanDiff, negate(c.MeanDiffCI)
			row.FirstReplyDiff, row.FirstDiffCI = -f.MeanDiff, negate(f.MeanDiffCI)
			row.Verdict = verdict(row, s.Metrics["cost_usd"].Mean, s.Metrics["first_reply_ms"].Mean)
		}
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}

func negate(iv *report.Interval) *report.Interval {
	if iv == nil {
		return nil
	}
	return &report.Interval{Low: -iv.High, High: -iv.Low}
}

// Verdicts of the proposal against one strategy.
const (
	// dominates: no dearer and no slower (each within its interval or better).
	dominates = "proposal no worse on both"
	// dominated: no cheaper and no faster, and worse on one.
	dominated = "proposal worse"
	// Cheaper but slower, or faster but dearer: a trade-off.
	tradeCheaper = "trade-off: proposal cheaper, slower first reply"
	tradeFaster  = "trade-off: proposal faster first reply, dearer"
)

// verdict classifies the paired differences: a difference whose interval
// contains 0 (or that is exactly 0) counts as equal.
func verdict(r Row, costScale, firstScale float64) string {
	cost := sign(r.CostDiff, r.CostDiffCI, costScale)
	first := sign(r.FirstReplyDiff, r.FirstDiffCI, firstScale)
	switch {
	case cost <= 0 && first <= 0:
		return dominates
	case cost >= 0 && first >= 0:
		return dominated
	case cost < 0:
		return tradeCheaper
	default:
		return tradeFaster
	}
}

// sign is -1, 0 or 1: 0 when d is 0 (within rounding of scale) or its
// interval contains 0.
func sign(d float64, iv *report.Interval, scale float64) int {
	tiny := report.EqualTolerance * (math.Abs(scale) + 1)
	switch {
	case math.Abs(d) <= tiny || (iv != nil && iv.Low <= tiny && iv.High >= -tiny):
		return 0
	case d < 0:
		return -1
	}
	return 1
}

// Summary says in one line how the proposal fared.
func (v *Validation) Summary() string {
	n := map[string]int{}
	for _, r := range v.Rows {
		if r.Verdict != "" {
			n[r.Verdict]++
		}
	}
	return fmt.Sprintf("on %s%s the proposal is no worse on cost and first reply than %d of %s; worse than %d; trade-offs with %d",
		nouns.Count(v.Sessions, "held-out session"), v.smallFlag(), n[dominates], nouns.CountAs(len(v.Rows)-1, "strategy", "strategies"), n[dominated], n[tradeCheaper]+n[tradeFaster])
}

// smallFlag is " (SMALL SAMPLE, < 30 sessions: wide intervals)", as a
// run's summary flags it, or "".
func (v *Validation) smallFlag() string {
	if !v.SmallSample {
		return ""
	}
	return fmt.Sprintf(" (SMALL SAMPLE, < %d sessions: wide intervals)", v.SmallSampleBelow)
}

// smallWarning says what a small validation sample means for its verdicts.
func (v *Validation) smallWarning() string {
	return fmt.Sprintf("the validation replayed %s, fewer than %d: its intervals are wide, and a difference within one counts as equal, "+
		"so \"no worse\" verdicts say little; hold out more sessions (--test-share) or record more",
		nouns.Count(v.Sessions, "held-out session"), v.SmallSampleBelow)
}
