package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/chart"
	"github.com/defersim/defersim/sim"
)

// Plot names: the base names of the files under plots/.
const (
	PlotTokens         = "tokens-per-session"
	PlotCost           = "cost-per-session"
	PlotFirstReply     = "first-reply-cdf"
	PlotErrors         = "errors-per-100-sessions"
	PlotPareto         = "cost-vs-first-reply-p95"
	PlotCacheByRequest = "cache-hit-by-request"
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

func firstReplyFigure(res *Results) figure {
	fig := chart.LineFigure{
		Header:      chart.Header{Title: "First-reply latency: share of sessions answered within x", Subtitle: subtitle(res)},
		XLabel:      "first-reply latency (s)",
		YLabel:      "sessions with first reply ≤ x (%)",
		XFormat:     fmtSeconds,
		YFormat:     fmtPercentAxis,
		YRange:      chart.XY{X: 0, Y: 100},
		RefY:        []chart.RefLine{{Y: 50, Label: "p50"}, {Y: 95, Label: "p95"}},
		LegendNotes: []string{"large markers: p50 and p95"},
	}
	lo, hi := math.Inf(1), 0.0
	for i := range res.Strategies {
		d, ok := metricOf(&res.Strategies[i], sim.MFirstReplyMs)
		if !ok || len(d.Quantiles) == 0 {
			continue
		}
		s := chart.Series{Name: res.Strategies[i].Name, Style: chart.SeriesStyle(i)}
		for q, v := range d.Quantiles {
			s.X = append(s.X, v/1000)
			s.Y = append(s.Y, float64(q)*100/float64(len(d.Quantiles)-1))
			if v > 0 {
				lo = math.Min(lo, v/1000)
			}
			hi = math.Max(hi, v/1000)
		}
		s.Marks = []chart.XY{{X: d.P50 / 1000, Y: 50}, {X: d.P95 / 1000, Y: 95}}
		fig.Series = append(fig.Series, s)
	}
	fig.LogX = hi > 0 && lo > 0 && hi/lo > 20
	if fig.LogX {
		fig.Note = "The x axis is logarithmic: latencies span more than a factor of 20."
	}
	return figure{
		Name: PlotFirstReply, Title: "First-reply latency", draw: fig,
		About: "Each curve shows, for one strategy, the share of sessions whose first reply arrived within the time " +
			"on the x axis; the large markers sit at the median (p50) and the 95th percentile (p95). A curve further " +
			"left is faster, and a gap that opens only near the top means the strategy slows the slowest sessions.",
	}
}

func errorsFigure(res *Results) figure {
	classes := []struct {
		name string
		m    int
	}{
		{"missing required", sim.MMalformedMissingRequired},
		{"unknown property", sim.MMalformedUnknownProperty},
		{"wrong type", sim.MMalformedType},
		{"outside enum", sim.MMalformedEnum},
		{"other violation", sim.MMalformedOther},
		{"no schema in view", sim.MMalformedNoSchema},
	}
	total := means(res, sim.MMalformedCalls, 100)
	rest := append([]float64(nil), total...)
	var stacks []chart.Stack
	for i, c := range classes {
		v := means(res, c.m, 100)
		for j := range rest {
			rest[j] -= v[j]
		}
		stacks = append(stacks, chart.Stack{Name: c.name, Color: chart.ClassColors[i], Values: v})
	}
	for j := range rest {
		rest[j] = math.Max(0, rest[j])
		if rest[j] < 1e-9*math.Max(1, total[j]) {
			rest[j] = 0
		}
	}
	stacks = append(stacks, chart.Stack{Name: "unclassified", Color: chart.ClassColors[len(classes)], Values: rest})
	// Only classes that occur are drawn and named in the legend.
	var used []chart.Stack
	for _, st := range stacks {
		if slices.ContainsFunc(st.Values, func(v float64) bool { return v > 0 }) {
			used = append(used, st)
		}
	}
	note := ""
	if len(used) == 0 {
		used = stacks[:1]
		note = "No strategy produced a malformed call."
	}
	fig := chart.BarFigure{
		Header:     chart.Header{Title: "Malformed calls and extra round trips per 100 sessions", Subtitle: subtitle(res)},
		Categories: chart.Categories(names(res), maxLabel),
		Panels: []chart.BarPanel{
			{Title: "Malformed calls, by class", XLabel: "calls per 100 sessions", Format: fmtCount, Stacks: used},
			{
				Title: "Extra round trips", XLabel: "model requests per 100 sessions", Format: fmtCount,
				Stacks:    []chart.Stack{{Name: "extra round trips", Color: chart.ColorNeutral, Values: means(res, sim.MExtraRoundTrips, 100)}},
				BarColors: strategyColors(res),
			},
		},
		LegendTitle: "malformed, by class:",
		Note:        note,
	}
	return figure{
		Name: PlotErrors, Title: "Malformed calls and extra round trips", draw: fig,
		About: "The left panel counts, per 100 sessions, tool calls the server rejects (arguments that fail the served " +
			"schema, or a call with no schema in view), split by kind; the right panel counts model requests that exist " +
			"only because of deferral (searches, retries, nudges). Shorter is better in both: a strategy that saves " +
			"tokens by adding round trips pays for it in latency.",
	}
}

func paretoFigure(res *Results) figure {
	fig := chart.ScatterFigure{
		Header:       chart.Header{Title: "Cost vs p95 first-reply latency (lower left is better)", Subtitle: subtitle(res)},
		XLabel:       "cost per session, mean (USD)",
		YLabel:       "first-reply latency, p95 (s)",
		XFormat:      fmtUSD,
		YFormat:      fmtSeconds,
		FrontierName: "Pareto front",
		Note:         "Whiskers: 95% bootstrap confidence intervals of the mean cost and of the p95 latency.",
	}
	fig.Points = paretoPoints(res)
	return figure{
		Name: PlotPareto, Title: "Cost vs first-reply latency", draw: fig,
		About: "Each numbered point is a strategy (the legend names it) at its mean cost per session and its 95th-percentile " +
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

func cacheByRequestFigure(res *Results) figure {
	minN := minRequestSessions(res.Sessions)
	fig := chart.LineFigure{
		Header:  chart.Header{Title: "Prompt-cache hit ratio by request position within a session", Subtitle: subtitle(res)},
		XLabel:  "model request within the session (1 = first)",
		YLabel:  "prompt tokens read from cache (%)",
		XFormat: fmtCount,
		YFormat: fmtPercentAxis,
		YRange:  chart.XY{X: 0, Y: 100},
		Note: fmt.Sprintf("Cache-read tokens / prompt tokens over all sessions' k-th request; positions reached by fewer "+
			"than %d sessions are not drawn.", minN),
	}
	for i := range res.Strategies {
		s := chart.Series{Name: res.Strategies[i].Name, Style: chart.SeriesStyle(i), Points: true}
		for _, p := range res.Strategies[i].CacheHitByRequest {
			if p.Sessions < minN {
				continue
			}
			s.X = append(s.X, float64(p.Request))
			s.Y = append(s.Y, p.HitRatio*100)
		}
		fig.Series = append(fig.Series, s)
	}
	return figure{
		Name: PlotCacheByRequest, Title: "Cache hit ratio by request", draw: fig,
		About: "Each line follows one strategy through a session: the share of the k-th request's prompt that was read " +
			"from the prompt cache. A dip after the first request marks where loading a schema rebuilt the tools and " +
			"broke the cached prefix; a line that stays high means loads did not disturb the cache.",
	}
}
