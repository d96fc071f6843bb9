package retrieval

import (
	"fmt"

	"github.com/defersim/defersim/internal/chart"
)

// Figure file names written by Plots.
const (
	PlotRecall       = "recall_at_k"
	PlotDomainRecall = "domain_recall_at_k"
)

// PlotFile is one encoded figure.
type PlotFile struct {
	Name     string // base name, without extension
	PNG, SVG []byte
}

// Plots draws the tool and domain recall@k curves of every arm, in the
// report's style, as PNG and SVG (deterministic bytes).
func Plots(r *Result) ([]PlotFile, error) {
	var out []PlotFile
	for _, p := range []struct {
		name, title, ylabel string
		curve               func(ArmResult) []float64
	}{
		{PlotRecall, "Tool recall@k by search arm — " + r.Set, "queries whose tool is in the top k (%)", func(a ArmResult) []float64 { return a.Curve }},
		{PlotDomainRecall, "Domain recall@k by search arm — " + r.Set, "queries whose domain is in the top k (%)", func(a ArmResult) []float64 { return a.DomainCurve }},
	} {
		fig := chart.LineFigure{
			Header:  chart.Header{Title: p.title, Subtitle: r.Subtitle()},
			XLabel:  "k (results)",
			YLabel:  p.ylabel,
			XFormat: func(v float64) string { return fmt.Sprintf("%.0f", v) },
			YFormat: func(v float64) string { return fmt.Sprintf("%.0f%%", v) },
			YRange:  chart.XY{X: 0, Y: 100},
		}
		for i, a := range r.Arms {
			c := p.curve(a)
			s := chart.Series{Name: a.Name, Style: chart.SeriesStyle(i), Points: true}
			for j, v := range c {
				s.X = append(s.X, float64(j+1))
				s.Y = append(s.Y, 100*v)
			}
			fig.Series = append(fig.Series, s)
		}
		png, svg, err := chart.Encode(fig)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", p.name, err)
		}
		out = append(out, PlotFile{Name: p.name, PNG: png, SVG: svg})
	}
	return out, nil
}
