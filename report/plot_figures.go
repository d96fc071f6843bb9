package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/defersim/defersim/internal/chart"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// Plot names: the base names of the files under plots/.
const (
	PlotTokens         = "tokens-per-session"
	PlotCost           = "cost-per-session"
	PlotFirstReply     = "first-reply-cdf"
	PlotErrors         = "errors-per-1000-sessions"
	PlotPareto         = "cost-vs-first-reply-p95"
	PlotCacheByRequest = "cache-hit-by-step"
)

// figure is one plot of the report with how to read it.
type figure struct {
	Name  string
	Title string
	// About is two sentences on how to read the plot.
	About string
	draw  chart.Drawer
}

// maxLabel bounds strategy names on category axes.
const maxLabel = 32

// figures returns the report's plots, built from res alone.
func figures(res *Results) []figure {
	return []figure{
		tokensFigure(res),
		costFigure(res),
		firstReplyFigure(res),
		errorsFigure(res),
		paretoFigure(res),
		cacheByRequestFigure(res),
	}
}

// subtitle says what produced the numbers.
func subtitle(res *Results) string {
	parts := []string{fmtInt(float64(res.Sessions)) + " " + nouns.Form(res.Sessions, "session", "sessions")}
	if b := res.BaselineName(); b != "" {
		parts = append(parts, "baseline "+b)
	}
	if res.Run.Tokenizer != "" {
		parts = append(parts, "tokenizer "+tokenizerLabel(&res.Run))
	}
	for _, kv := range [][2]string{{"cache", res.Run.CacheModel}, {"model", res.Run.Model}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	if res.SmallSample {
		parts = append(parts, "SMALL SAMPLE")
	}
	return strings.Join(parts, " · ")
}

func names(res *Results) []string {
	out := make([]string, len(res.Strategies))
	for i, s := range res.Strategies {
		out[i] = s.Name
	}
	return out
}

// metricOf returns the distribution of metric m for strategy s.
func metricOf(s *StrategyResult, m int) (Distribution, bool) {
	d, ok := s.Metrics[sim.Metrics[m].Name]
	return d, ok && d.Count > 0
}

// means returns the mean of metric m per strategy, times scale.
func means(res *Results, m int, scale float64) []float64 {
	out := make([]float64, len(res.Strategies))
	for i := range res.Strategies {
		if d, ok := metricOf(&res.Strategies[i], m); ok {
			out[i] = d.Mean * scale
		}
	}
	return out
}

func strategyColors(res *Results) []color.Color {
	out := make([]color.Color, len(res.Strategies))
	for i := range out {
		out[i] = chart.SeriesStyle(i).Color
	}
	return out
}

func tokensFigure(res *Results) figure {
	fig := chart.BarFigure{
		Header:     chart.Header{Title: "Tokens per session by strategy (mean)", Subtitle: subtitle(res)},
		Categories: chart.Categories(names(res), maxLabel),
		Panels: []chart.BarPanel{{
			XLabel: "tokens per session (mean)",
			Format: fmtCompact,
			Stacks: []chart.Stack{
				{Name: "uncached input", Color: chart.ColorUncached, Values: means(res, sim.MUncachedTokens, 1)},
				{Name: "cache write", Color: chart.ColorCacheWrite, Values: means(res, sim.MCacheWriteTokens, 1)},
				{Name: "cache read", Color: chart.ColorCacheRead, Values: means(res, sim.MCacheReadTokens, 1)},
				{Name: "output", Color: chart.ColorOutput, Values: means(res, sim.MOutputTokens, 1)},
			},
		}},
	}
	return figure{
		Name: PlotTokens, Title: "Tokens per session", draw: fig,
		About: "Each bar is the mean tokens of one session under a strategy, split into prompt tokens sent uncached, " +
			"written to the prompt cache and read from it, plus output tokens; the number at the end is the total. " +
			"Cache reads are billed at a fraction of the input price, so a longer bar is not always a dearer one: " +
			"compare dollars in the next plot.",
	}
}

func costFigure(res *Results) figure {
	fig := chart.BarFigure{
		Header:     chart.Header{Title: "Cost per session by strategy (mean, USD)", Subtitle: subtitle(res)},
		Categories: chart.Categories(names(res), maxLabel),
	}
	about := "Each bar is the mean list-price cost of one session under a strategy, split by token kind at the run's prices; " +
		"the number at the end is the total. Shorter is cheaper; the summary table says whether a difference " +
		"from the baseline is larger than its confidence interval."
	if p := res.Prices; p != nil {
		per := func(m int, price float64) []float64 { return means(res, m, price/1e6) }
		fig.Panels = []chart.BarPanel{{
			XLabel: "USD per session (mean)",
			Format: fmtUSD,
			Stacks: []chart.Stack{
				{Name: "uncached input", Color: chart.ColorUncached, Values: per(sim.MUncachedTokens, p.Input)},
				{Name: "cache write", Color: chart.ColorCacheWrite, Values: per(sim.MCacheWriteTokens, p.CacheWrite)},
				{Name: "cache read", Color: chart.ColorCacheRead, Values: per(sim.MCacheReadTokens, p.CacheRead)},
				{Name: "output", Color: chart.ColorOutput, Values: per(sim.MOutputTokens, p.Output)},
			},
		}}
		model := p.Model
		if model == "" {
			model = res.Run.Model
		}
		fig.Note = fmt.Sprintf("Prices per million tokens (%s): input $%s, cache write $%s%s, cache read $%s, output $%s.",
			model, fmtExact(p.Input), fmtExact(p.CacheWrite), p.WriteSurchargeNote(), fmtExact(p.CacheRead), fmtExact(p.Output))
	} else {
		fig.Panels = []chart.BarPanel{{
			XLabel:    "USD per session (mean)",
			Format:    fmtUSD,
			Stacks:    []chart.Stack{{Name: "cost", Color: chart.ColorNeutral, Values: means(res, sim.MCostUSD, 1)}},
			BarColors: strategyColors(res),
		}}
		fig.Note = "The results carry no price table, so the cost is not split by token kind."
		about = "Each bar is the mean list-price cost of one session under a strategy. Shorter is cheaper; the summary " +
			"table says whether a difference from the baseline is larger than its confidence interval."
	}
	return figure{Name: PlotCost, Title: "Cost per session", draw: fig, About: about}
}

// perThousand is the scale of the rate plots: counts per 1,000 sessions.
const perThousand = 1000

// malformedClasses are the classes of malformed calls, in legend order.
var malformedClasses = []struct {
	name string
	m    int
}{
	{"missing required property", sim.MMalformedMissingRequired},
	{"unknown property", sim.MMalformedUnknownProperty},
	{"wrong type", sim.MMalformedType},
	{"outside enum", sim.MMalformedEnum},
	{"other violation", sim.MMalformedOther},
	{"no schema in view", sim.MMalformedNoSchema},
}

// rateDots is a dot panel of metric m per 1,000 sessions with the
// intervals of the means, and the baseline's value as reference.
func rateDots(res *Results, m int, title, xlabel string) chart.DotPanel {
	n := len(res.Strategies)
	dp := chart.DotPanel{Title: title, XLabel: xlabel, Format: fmtCount, Colors: strategyColors(res), Ref: math.NaN(),
		Values: make([]float64, n), Low: make([]float64, n), High: make([]float64, n)}
	for i := range res.Strategies {
		dp.Values[i], dp.Low[i], dp.High[i] = math.NaN(), math.NaN(), math.NaN()
		d, ok := metricOf(&res.Strategies[i], m)
		if !ok {
			continue
		}
		dp.Values[i] = d.Mean * perThousand
		if d.MeanCI != nil {
			dp.Low[i], dp.High[i] = d.MeanCI.Low*perThousand, d.MeanCI.High*perThousand
		}
		if res.Strategies[i].Baseline && d.Mean > 0 {
			dp.Ref, dp.RefLabel = d.Mean*perThousand, "baseline"
		}
	}
	return dp
}

// malformedByClass says how the malformed calls of all strategies split by
// class ("" when there are none).
func malformedByClass(res *Results) string {
	total := 0.0
	for _, v := range means(res, sim.MMalformedCalls, 1) {
		total += v
	}
	if total <= 0 {
		return ""
	}
	var parts []string
	for _, c := range malformedClasses {
		sum := 0.0
		for _, v := range means(res, c.m, 1) {
			sum += v
		}
		if sum > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", c.name, fmtPercent(sum/total)))
		}
	}
	return strings.Join(parts, ", ")
}

func errorsFigure(res *Results) figure {
	fig := chart.DotFigure{
		Header:     chart.Header{Title: "Malformed calls and extra round trips per 1,000 sessions (mean, 95% CI)", Subtitle: subtitle(res)},
		Categories: chart.Categories(names(res), maxLabel),
		Panels: []chart.DotPanel{
			rateDots(res, sim.MMalformedCalls, "Malformed calls", "calls per 1,000 sessions"),
			rateDots(res, sim.MExtraRoundTrips, "Extra round trips", "model requests per 1,000 sessions"),
		},
	}
	// Ignored arguments get their own panel when a strategy has any: calls
	// the server accepts but that lose an argument (a silent failure).
	ignored := 0.0
	for _, v := range means(res, sim.MIgnoredArguments, 1) {
		ignored += v
	}
	title := "Malformed calls and extra round trips"
	about := "The left panel counts, per 1,000 sessions, tool calls the server rejects (arguments that fail the served " +
		"schema, or a call with no schema in view), the right panel model requests that exist only because of deferral " +
		"(searches, retries, nudges), each dot with the confidence interval of its mean: a whisker that reaches the " +
		"baseline's value means the data cannot tell the two apart. Lower is better in both; a strategy that saves " +
		"tokens by adding round trips pays for it in latency."
	if ignored > 0 {
		fig.Panels = append(fig.Panels[:1], rateDots(res, sim.MIgnoredArguments, "Ignored arguments", ""), fig.Panels[1])
		for i := range fig.Panels { // three panels: short axis labels (the title gives the unit)
			fig.Panels[i].XLabel = "per 1,000 sessions"
		}
		title = "Malformed calls, ignored arguments and extra round trips"
		fig.Header.Title = title + " per 1,000 sessions (mean, 95% CI)"
		about = "The left panel counts, per 1,000 sessions, tool calls the server rejects (arguments that fail the served " +
			"schema, or a call with no schema in view), the middle one calls it accepts with an argument its schema does not " +
			"define (a renamed or removed property sent from a stale schema, which the server silently ignores), the right " +
			"one model requests that exist only because of deferral (searches, retries, nudges), each dot with the " +
			"confidence interval of its mean: a whisker that reaches the baseline's value means the data cannot tell the two " +
			"apart. Lower is better in all three."
	}
	note := "Dots: mean per 1,000 sessions; whiskers: 95% bootstrap confidence intervals of the mean."
	for _, p := range fig.Panels {
		if finite(p.Ref) {
			note += " Dashed line: the baseline's value."
			break
		}
	}
	if by := malformedByClass(res); by != "" {
		note += " Malformed calls by class, all strategies: " + by + "."
	} else {
		note += " No strategy produced a malformed call."
	}
	fig.Note = note
	return figure{Name: PlotErrors, Title: title, draw: fig, About: about}
}

func paretoFigure(res *Results) figure {
	fig := chart.ScatterFigure{
		Header:  chart.Header{Title: "Cost vs p95 first-reply latency (lower left is better)", Subtitle: subtitle(res)},
		XLabel:  "cost per session, mean (USD)",
		YLabel:  "first-reply latency, p95 (s)",
		XFormat: fmtUSD,
		YFormat: fmtSeconds,
		Note: "Whiskers: 95% bootstrap confidence intervals of the mean cost and of the p95 latency. Grey line: the Pareto " +
			"front (strategies no other beats on both). Strategies at the same point share a label.",
	}
	fig.Points = paretoPoints(res)
	return figure{
		Name: PlotPareto, Title: "Cost vs first-reply latency", draw: fig,
		About: "Each point is a strategy, named beside it, at its mean cost per session and its 95th-percentile " +
			"first-reply latency, with confidence whiskers; the grey line joins the strategies no other beats on both " +
			"at once (the Pareto front). Choose along the front, and read overlapping whiskers as \"the data cannot " +
			"tell these two apart\".",
	}
}

// paretoPoints places each strategy at its mean cost and p95 first-reply
// latency (seconds), with intervals, and marks the Pareto front.
func paretoPoints(res *Results) []chart.Point {
	var pts []chart.Point
	for i := range res.Strategies {
		s := &res.Strategies[i]
		c, okc := metricOf(s, sim.MCostUSD)
		l, okl := metricOf(s, sim.MFirstReplyMs)
		pt := chart.Point{Name: s.Name, Style: chart.SeriesStyle(i), X: math.NaN(), Y: math.NaN()}
		if okc && okl {
			pt.X, pt.Y = c.Mean, l.P95/1000
			if c.MeanCI != nil {
				pt.XLow, pt.XHigh, pt.HasX = c.MeanCI.Low, c.MeanCI.High, true
			}
			if l.P95CI != nil {
				pt.YLow, pt.YHigh, pt.HasY = l.P95CI.Low/1000, l.P95CI.High/1000, true
			}
		}
		pts = append(pts, pt)
	}
	front := paretoFront(pts)
	for i := range pts {
		pts[i].OnFrontier = front[i]
	}
	return pts
}

// paretoFront marks the points not dominated by another (lower or equal on
// both axes, lower on one).
func paretoFront(pts []chart.Point) []bool {
	on := make([]bool, len(pts))
	for i, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) {
			continue
		}
		on[i] = true
		for j, q := range pts {
			if j == i || math.IsNaN(q.X) || math.IsNaN(q.Y) {
				continue
			}
			if q.X <= p.X && q.Y <= p.Y && (q.X < p.X || q.Y < p.Y) {
				on[i] = false
				break
			}
		}
	}
	return on
}
