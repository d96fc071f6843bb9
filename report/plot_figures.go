package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/defersim/defersim/internal/chart"
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

// maxPanels bounds the strategies drawn as small multiples (and as context
// lines in them): beyond, the first maxPanels are drawn and the note says
// so; results.json holds every strategy.
const maxPanels = 24

// panelStrategies returns the indices of the strategies drawn as small
// multiples: all of them up to maxPanels, else the first maxPanels with the
// baseline among them.
func panelStrategies(res *Results) []int {
	var out []int
	for i := range res.Strategies {
		if len(out) < maxPanels-1 || len(out) < maxPanels && (res.Strategies[i].Baseline || i == len(res.Strategies)-1) {
			out = append(out, i)
		} else if res.Strategies[i].Baseline {
			out[len(out)-1] = i
		}
	}
	return out
}

// panelsNote says when only some strategies are drawn.
func panelsNote(res *Results, drawn int) string {
	if drawn >= len(res.Strategies) {
		return ""
	}
	return fmt.Sprintf(" Only %d of the %d strategies are drawn (results.json has every one).", drawn, len(res.Strategies))
}

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
	parts := []string{fmt.Sprintf("%s sessions", fmtInt(float64(res.Sessions)))}
	if b := res.BaselineName(); b != "" {
		parts = append(parts, "baseline "+b)
	}
	for _, kv := range [][2]string{{"tokenizer", res.Run.Tokenizer}, {"cache", res.Run.CacheModel}, {"model", res.Run.Model}} {
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
		fig.Note = fmt.Sprintf("Prices per million tokens (%s): input $%s, cache write $%s, cache read $%s, output $%s.",
			model, fmtSig(p.Input), fmtSig(p.CacheWrite), fmtSig(p.CacheRead), fmtSig(p.Output))
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

// cdfSeries is the first-reply CDF of strategy i in seconds, with its p50
// and p95 marked; ok is false when it has no latencies.
func cdfSeries(res *Results, i int) (chart.Series, bool) {
	d, ok := metricOf(&res.Strategies[i], sim.MFirstReplyMs)
	if !ok || len(d.Quantiles) == 0 {
		return chart.Series{}, false
	}
	s := chart.Series{Name: res.Strategies[i].Name, Style: chart.SeriesStyle(i)}
	for q, v := range d.Quantiles {
		s.X = append(s.X, v/1000)
		s.Y = append(s.Y, float64(q)*100/float64(len(d.Quantiles)-1))
	}
	s.Marks = []chart.XY{{X: d.P50 / 1000, Y: 50}, {X: d.P95 / 1000, Y: 95}}
	return s, true
}

// Styles of the context lines in small multiples.
var (
	contextStyle  = chart.Style{Color: color.RGBA{R: 0xc8, G: 0xc8, B: 0xc8, A: 0xff}}
	baselineStyle = chart.Style{Color: color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}, Dashes: []vg.Length{vg.Points(4), vg.Points(2.5)}}
)

func firstReplyFigure(res *Results) figure {
	base := res.BaselineName()
	fig := chart.SmallMultiples{LineFigure: chart.LineFigure{
		Header:  chart.Header{Title: "First-reply latency: share of sessions answered within x", Subtitle: subtitle(res)},
		XLabel:  "first-reply latency (s)",
		YLabel:  "sessions (%)",
		XFormat: fmtSig,
		YFormat: fmtSig,
		YRange:  chart.XY{X: 0, Y: 100},
		RefY:    []chart.RefLine{{Y: 50, Label: "p50"}, {Y: 95, Label: "p95"}},
	}}
	cdfs := make([]chart.Series, len(res.Strategies))
	has := make([]bool, len(res.Strategies))
	lo, hi := math.Inf(1), 0.0
	for i := range res.Strategies {
		cdfs[i], has[i] = cdfSeries(res, i)
		for _, x := range cdfs[i].X {
			if x > 0 {
				lo = math.Min(lo, x)
			}
			hi = math.Max(hi, x)
		}
	}
	drawn := panelStrategies(res)
	for _, i := range drawn {
		s := res.Strategies[i]
		if !has[i] {
			continue
		}
		pn := chart.Panel{Title: chart.Abbreviate(s.Name, maxLabel)}
		if s.Baseline {
			pn.Title += " (baseline)"
		}
		for _, j := range drawn {
			if j == i || !has[j] {
				continue
			}
			c := cdfs[j]
			c.Marks = nil
			if res.Strategies[j].Baseline {
				c.Style = baselineStyle
			} else {
				c.Style, c.Thin = contextStyle, true
			}
			pn.Series = append(pn.Series, c)
		}
		pn.Series = append(pn.Series, cdfs[i])
		fig.Panels = append(fig.Panels, pn)
	}
	fig.LogX = hi > 0 && lo > 0 && hi/lo > 20
	note := "Each panel: one strategy in colour (markers at p50 and p95)"
	if base != "" {
		note += ", the baseline (" + base + ") dashed"
	}
	note += ", the other strategies in grey."
	if fig.LogX {
		note += " The x axis is logarithmic: latencies span more than a factor of 20."
	}
	fig.Note = note + panelsNote(res, len(drawn))
	return figure{
		Name: PlotFirstReply, Title: "First-reply latency", draw: fig,
		About: "Each panel shows, for one strategy, the share of sessions whose first reply arrived within the time on the x " +
			"axis, against the baseline (dashed) and the other strategies (grey); the markers sit at the median (p50) and the " +
			"95th percentile (p95). A curve left of the dashed one is faster than the baseline, and a gap that opens only near " +
			"the top means the strategy slows the slowest sessions.",
	}
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
	note := "Dots: mean per 1,000 sessions; whiskers: 95% bootstrap confidence intervals of the mean."
	if finite(fig.Panels[0].Ref) || finite(fig.Panels[1].Ref) {
		note += " Dashed line: the baseline's value."
	}
	if by := malformedByClass(res); by != "" {
		note += " Malformed calls by class, all strategies: " + by + "."
	} else {
		note += " No strategy produced a malformed call."
	}
	fig.Note = note
	return figure{
		Name: PlotErrors, Title: "Malformed calls and extra round trips", draw: fig,
		About: "The left panel counts, per 1,000 sessions, tool calls the server rejects (arguments that fail the served " +
			"schema, or a call with no schema in view), the right panel model requests that exist only because of deferral " +
			"(searches, retries, nudges), each dot with the confidence interval of its mean: a whisker that reaches the " +
			"baseline's value means the data cannot tell the two apart. Lower is better in both; a strategy that saves " +
			"tokens by adding round trips pays for it in latency.",
	}
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

// minRequestSessions is the fewest sessions a request index must have to be
// drawn in the cache-hit plot.
func minRequestSessions(sessions int) int64 {
	return max(3, int64(math.Ceil(0.05*float64(sessions))))
}

// cacheSeries is strategy i's cache hit ratio (%) by model step, or by
// request position for results written before steps were recorded; steps
// reached by fewer than minN sessions are left out.
func cacheSeries(res *Results, i int, minN int64, bySteps bool) chart.Series {
	st := &res.Strategies[i]
	s := chart.Series{Name: st.Name, Style: chart.SeriesStyle(i), Points: true}
	if bySteps {
		for _, p := range st.CacheHitByStep {
			if p.Sessions >= minN {
				s.X, s.Y = append(s.X, float64(p.Step)), append(s.Y, p.HitRatio*100)
			}
		}
		return s
	}
	for _, p := range st.CacheHitByRequest {
		if p.Sessions >= minN {
			s.X, s.Y = append(s.X, float64(p.Request)), append(s.Y, p.HitRatio*100)
		}
	}
	return s
}

func cacheByRequestFigure(res *Results) figure {
	minN := minRequestSessions(res.Sessions)
	bySteps := false
	for _, s := range res.Strategies {
		bySteps = bySteps || len(s.CacheHitByStep) > 0
	}
	xlabel := "model step (1 = first)"
	if !bySteps {
		xlabel = "model request (1 = first)"
	}
	fig := chart.SmallMultiples{LineFigure: chart.LineFigure{
		Header:  chart.Header{Title: "Prompt-cache hit ratio by model step", Subtitle: subtitle(res)},
		XLabel:  xlabel,
		YLabel:  "cache hits (%)",
		XFormat: fmtCount,
		YFormat: fmtSig,
		YRange:  chart.XY{X: 0, Y: 100},
	}}
	drawn := panelStrategies(res)
	series := make([]chart.Series, len(res.Strategies))
	for _, i := range drawn {
		series[i] = cacheSeries(res, i, minN, bySteps)
	}
	for _, i := range drawn {
		st := res.Strategies[i]
		pn := chart.Panel{Title: chart.Abbreviate(st.Name, maxLabel)}
		if st.Baseline {
			pn.Title += " (baseline)"
		}
		for _, j := range drawn {
			if j == i {
				continue
			}
			c := series[j]
			c.Points = false
			if res.Strategies[j].Baseline {
				c.Style = baselineStyle
			} else {
				c.Style, c.Thin = contextStyle, true
			}
			pn.Series = append(pn.Series, c)
		}
		pn.Series = append(pn.Series, series[i])
		fig.Panels = append(fig.Panels, pn)
	}
	note := "Cache-read tokens / prompt tokens over the requests that replay the k-th model step of the trace (the " +
		"search round trips deferral adds before it included), so step k is the same point of a session under every strategy."
	if !bySteps {
		note = "Cache-read tokens / prompt tokens of every session's k-th model request. These results predate per-step data: " +
			"extra round trips shift the positions, so request k is not the same step under every strategy."
	}
	fig.Note = note + fmt.Sprintf(" Each panel: one strategy in colour, the baseline dashed, the others in grey; steps reached by "+
		"fewer than %d sessions are not drawn.", minN) + panelsNote(res, len(drawn))
	return figure{
		Name: PlotCacheByRequest, Title: "Cache hit ratio by model step", draw: fig,
		About: "Each panel follows one strategy through a session: the share of the prompt read from the prompt cache at " +
			"each model step of the recorded session, against the baseline (dashed) and the other strategies (grey). A dip " +
			"marks where loading a schema rebuilt the tools and broke the cached prefix; a line that stays high means loads " +
			"did not disturb the cache.",
	}
}
