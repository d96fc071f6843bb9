package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Summary writes a five-line plain-text summary of res for a terminal:
// what was run, the cheapest strategy, the fastest first reply, the most
// round trips and malformed calls, and the cost/latency Pareto front;
// a Fidelity line when the run compared a replay with the recording; then
// one line per finding (Findings).
func Summary(w io.Writer, res *Results) error {
	if res == nil || len(res.Strategies) == 0 {
		return errors.New("summary: no results")
	}
	base := res.BaselineName()
	lines := []string{runLine(res)}
	if sh := ShardText(res); sh != "" {
		lines = append(lines, "Shard:                "+sh)
	}

	costs := means(res, sim.MCostUSD, 1)
	if i := argBest(res, sim.MCostUSD, costs, true); i >= 0 {
		s := &res.Strategies[i]
		lines = append(lines, fmt.Sprintf("Cheapest:             %s at %s/session%s", s.Name, fmtUSD(costs[i]),
			vsBaseline(s, sim.MCostUSD, column{metric: sim.MCostUSD, stat: "mean", scale: 1, format: fmtUSD, delta: deltaRelative}, base)))
	} else {
		lines = append(lines, "Cheapest:             (no cost data)")
	}

	p95 := make([]float64, len(res.Strategies))
	for i := range res.Strategies {
		if d, ok := metricOf(&res.Strategies[i], sim.MFirstReplyMs); ok {
			p95[i] = d.P95
		}
	}
	if i := argBest(res, sim.MFirstReplyMs, p95, true); i >= 0 {
		s := &res.Strategies[i]
		lines = append(lines, fmt.Sprintf("Fastest first reply:  %s at p95 %s%s", s.Name, fmtMs(p95[i]),
			vsBaseline(s, sim.MFirstReplyMs, column{metric: sim.MFirstReplyMs, stat: "p95", scale: 1, format: fmtMs, delta: deltaAbsolute}, base)))
	} else {
		lines = append(lines, "Fastest first reply:  (no latency data)")
	}

	extra := means(res, sim.MExtraRoundTrips, 1)
	malformed := means(res, sim.MMalformedCalls, perThousand)
	var parts []string
	if i := argBest(res, sim.MExtraRoundTrips, extra, false); i >= 0 && extra[i] > 0 {
		parts = append(parts, fmt.Sprintf("most extra round trips: %s (%s/session)", res.Strategies[i].Name, fmtCount(extra[i])))
	}
	if i := argBest(res, sim.MMalformedCalls, malformed, false); i >= 0 && malformed[i] > 0 {
		parts = append(parts, fmt.Sprintf("most malformed calls: %s (%s per 1,000 sessions)", res.Strategies[i].Name, fmtCount(malformed[i])))
	}
	ignored := means(res, sim.MIgnoredArguments, perThousand)
	if i := argBest(res, sim.MIgnoredArguments, ignored, false); i >= 0 && ignored[i] > 0 {
		parts = append(parts, fmt.Sprintf("most ignored arguments: %s (%s per 1,000 sessions)", res.Strategies[i].Name, fmtCount(ignored[i])))
	}
	if len(parts) == 0 {
		lines = append(lines, "Errors:               no extra round trips and no malformed calls under any strategy")
	} else {
		lines = append(lines, "Errors:               "+strings.Join(parts, "; "))
	}

	var front []string
	for _, p := range paretoPoints(res) {
		if p.OnFrontier {
			front = append(front, p.Name)
		}
	}
	if len(front) == 0 {
		front = []string{"(no cost or latency data)"}
	}
	lines = append(lines, "Pareto (cost vs p95):  "+strings.Join(front, ", "))
	if fl := fidelityLine(res.Run.Fidelity); fl != "" {
		lines = append(lines, "Fidelity:             "+fl)
	}
	for _, f := range Findings(res) {
		lines = append(lines, "Note:                 "+f)
	}

	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// reportTitle is the title of the HTML and Markdown reports: the
// scenario's name, and the sweep point when the results are one.
func reportTitle(res *Results) string {
	title := "defersim report"
	if res.Run.Scenario != "" {
		title += ": " + res.Run.Scenario + res.Run.PointAt()
	}
	return title
}

// runLine says what was run, in one line.
func runLine(res *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s × %s", fmtNoun(res.Sessions, "session"),
		nouns.CountAs(len(res.Strategies), "strategy", "strategies"))
	if res.Run.Scenario != "" {
		fmt.Fprintf(&b, ", scenario %s%s", res.Run.Scenario, res.Run.PointAt())
	}
	fmt.Fprintf(&b, ", seed %d; baseline %s", res.Run.Seed, res.BaselineName())
	if res.Run.Tokenizer != "" {
		fmt.Fprintf(&b, "; tokenizer %s", tokenizerLabel(&res.Run))
	}
	if res.Run.CacheModel != "" {
		fmt.Fprintf(&b, ", cache %s", res.Run.CacheModel)
	}
	if res.SmallSample {
		fmt.Fprintf(&b, " — SMALL SAMPLE (< %d sessions): wide intervals", res.Statistics.SmallSampleBelow)
	}
	return b.String()
}

// argBest returns the strategy with the best value (lowest when low is
// true), skipping strategies without the metric; -1 when none has it.
func argBest(res *Results, m int, vals []float64, low bool) int {
	best := -1
	for i := range res.Strategies {
		if _, ok := metricOf(&res.Strategies[i], m); !ok {
			continue
		}
		if best < 0 || (low && vals[i] < vals[best]) || (!low && vals[i] > vals[best]) {
			best = i
		}
	}
	return best
}

// vsBaseline describes the difference of s from the baseline for column c.
func vsBaseline(s *StrategyResult, m int, c column, base string) string {
	if s.Baseline {
		return " (the baseline)"
	}
	cmp, ok := s.VsBaseline[sim.Metrics[m].Name]
	if !ok {
		return ""
	}
	text, ci, sig, hasCI := describeDelta(cmp, c)
	switch {
	case !hasCI:
		return fmt.Sprintf(" (%s vs %s, no interval)", text, base)
	case !sig:
		return fmt.Sprintf(" (%s vs %s: not significant, %s %s)", "≈", base, text, ci)
	}
	return fmt.Sprintf(" (%s vs %s, 95%% CI %s)", text, base, ci)
}
