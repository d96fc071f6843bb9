package report

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/chart"
)

// renderedPlot is a figure written to disk, with its PNG for embedding.
type renderedPlot struct {
	figure
	PNG []byte
}

// writeFigures renders every figure to dir/NAME.png and dir/NAME.svg.
func writeFigures(figs []figure, dir string) ([]renderedPlot, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create plot directory: %w", err)
	}
	out := make([]renderedPlot, 0, len(figs))
	for _, f := range figs {
		png, svg, err := chart.Encode(f.draw)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", f.Name, err)
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name+".png"), png, 0o644); err != nil {
			return nil, fmt.Errorf("plot %s: %w", f.Name, err)
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name+".svg"), svg, 0o644); err != nil {
			return nil, fmt.Errorf("plot %s: %w", f.Name, err)
		}
		out = append(out, renderedPlot{figure: f, PNG: png})
	}
	return out, nil
}

// SweepPlot draws metric (mean per session, with its confidence interval)
// against the values of a swept parameter, one line per strategy, from the
// results of one run per value. It writes dir/sweep-PARAM-METRIC.png and
// .svg. Strategies keep the colour of their first appearance.
func SweepPlot(param string, values []float64, results []*Results, metric string, dir string) error {
	fig, err := sweepFigure(param, values, results, metric)
	if err != nil {
		return err
	}
	_, err = writeFigures([]figure{fig}, dir)
	return err
}

// SweepPlotName returns the base file name SweepPlot writes.
func SweepPlotName(param, metric string) string {
	return "sweep-" + fileSafe(param) + "-" + fileSafe(metric)
}

func sweepFigure(param string, values []float64, results []*Results, metric string) (figure, error) {
	if len(results) == 0 || len(values) != len(results) {
		return figure{}, fmt.Errorf("sweep plot: %d values for %d results", len(values), len(results))
	}
	if param == "" {
		return figure{}, errors.New("sweep plot: empty parameter name")
	}
	var order []string
	seen := map[string]bool{}
	for i, r := range results {
		if r == nil {
			return figure{}, fmt.Errorf("sweep plot: results %d are nil", i)
		}
		if !finite(values[i]) {
			return figure{}, fmt.Errorf("sweep plot: value %d is not finite", i)
		}
		for _, s := range r.Strategies {
			if !seen[s.Name] {
				seen[s.Name] = true
				order = append(order, s.Name)
			}
		}
	}
	m, ok := results[0].Metric(metric)
	if !ok {
		return figure{}, fmt.Errorf("sweep plot: unknown metric %q", metric)
	}
	scale, yfmt, unit := axisUnit(m.Unit)
	what := metricTitle(metric)
	fig := chart.LineFigure{
		Header: chart.Header{
			Title:    fmt.Sprintf("%s (mean per session, %s) vs %s", capitalize(what), unit, param),
			Subtitle: subtitle(results[0]),
		},
		XLabel:  withUnit(param, paramUnit(param)),
		YLabel:  fmt.Sprintf("%s, mean per session (%s)", what, unit),
		XFormat: fmtSig,
		YFormat: yfmt,
		Note:    "Whiskers: 95% bootstrap confidence intervals of the mean.",
	}
	unchanged := UnchangedStrategies(results)
	for si, name := range order {
		label := name
		if unchanged[name] {
			label += " (unchanged)"
		}
		s := chart.Series{Name: label, Style: chart.SeriesStyle(si), Points: true}
		for i, r := range results {
			sr := r.Strategy(name)
			if sr == nil {
				continue
			}
			d, ok := sr.Metrics[metric]
			if !ok || d.Count == 0 {
				continue
			}
			s.X = append(s.X, values[i])
			s.Y = append(s.Y, d.Mean*scale)
			lo, hi := math.NaN(), math.NaN()
			if d.MeanCI != nil {
				lo, hi = d.MeanCI.Low*scale, d.MeanCI.High*scale
			}
			s.YLow = append(s.YLow, lo)
			s.YHigh = append(s.YHigh, hi)
		}
		fig.Series = append(fig.Series, s)
	}
	// Means far apart (one strategy many times another) are read on a log
	// axis, where each line keeps labelled ticks near it.
	lo, hi := math.Inf(1), 0.0
	for _, s := range fig.Series {
		for i, y := range s.Y {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
			if i < len(s.YLow) && finite(s.YLow[i]) {
				lo = math.Min(lo, s.YLow[i])
			}
		}
	}
	if lo > 0 && hi/lo > 5 {
		fig.LogY = true
		fig.Note += " The y axis is logarithmic: the means span more than a factor of 5."
	}
	if len(unchanged) > 0 {
		fig.Note += " (unchanged): every outcome of every session is identical at every value — the parameter changes nothing for that strategy on this data."
	}
	return figure{
		Name:  SweepPlotName(param, metric),
		Title: fmt.Sprintf("%s vs %s", capitalize(what), param),
		About: fmt.Sprintf("Each line follows one strategy as %s changes: the mean %s per session at each value, "+
			"with its confidence interval. Lines that cross mark the value where the better strategy changes.", param, what),
		draw: fig,
	}, nil
}

// UnchangedStrategies names the strategies whose outcomes were identical
// on every session in every one of results (SameOutcomes: equal outcome
// digests and requests over the context window; runs over the same
// sessions, as the points of a sweep). Fewer than two results flag
// nothing.
func UnchangedStrategies(results []*Results) map[string]bool {
	out := map[string]bool{}
	if len(results) < 2 {
		return out
	}
	for _, s := range results[0].Strategies {
		same := true
		for _, r := range results[1:] {
			o := r.Strategy(s.Name)
			same = same && o != nil && SameOutcomes(&s, o)
		}
		if same {
			out[s.Name] = true
		}
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// axisUnit returns the scale, tick format and unit label for a metric unit.
func axisUnit(unit string) (float64, chart.Format, string) {
	switch unit {
	case "USD":
		return 1, fmtUSD, "USD"
	case "ms":
		return 1.0 / 1000, fmtSeconds, "s"
	case "tokens":
		return 1, fmtCompact, "tokens"
	case "ratio":
		return 100, fmtPercentAxis, "%"
	}
	return 1, fmtSig, unit
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, s)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
