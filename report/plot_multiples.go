package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/defersim/defersim/internal/chart"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

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
		"fewer than %s are not drawn.", nouns.Count(minN, "session")) + panelsNote(res, len(drawn))
	return figure{
		Name: PlotCacheByRequest, Title: "Cache hit ratio by model step", draw: fig,
		About: "Each panel follows one strategy through a session: the share of the prompt read from the prompt cache at " +
			"each model step of the recorded session, against the baseline (dashed) and the other strategies (grey). A dip " +
			"marks where loading a schema rebuilt the tools and broke the cached prefix; a line that stays high means loads " +
			"did not disturb the cache.",
	}
}
