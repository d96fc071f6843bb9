package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"image/png"
	"math"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

//go:embed report.html.tmpl
var htmlTemplateText string

// htmlData is what report.html.tmpl renders.
type htmlData struct {
	Title   string
	RunLine string
	// Shard is ShardText: which shard of a run the results are, or "".
	Shard          string
	ModelLine      string
	Res            *Results
	Table          summaryTable
	IntervalPhrase string
	NotSignificant string
	NoChange       string
	Plots          []htmlPlot
	Metrics        []htmlMetric
	Strategies     []htmlStrategy
	SkipReasons    []htmlCount
	Findings       []string
	Resolution     []resolutionRow
	// ResolutionIntro: what the resolution table counts (above it).
	ResolutionIntro string
	// ResolutionText: threshold, other inputs, tools (lines under the table).
	ResolutionText []string
	// Unreplayed: the catalog versions no session replayed
	// (UnreplayedText), a warning under the table; "" when none.
	Unreplayed string
}

type htmlPlot struct {
	Name, Title, About string
	Src                template.URL
	// Width and Height are the PNG's size in pixels.
	Width, Height int
}

type htmlMetric struct {
	sim.Metric
	Rows []htmlMetricRow
}

type htmlMetricRow struct {
	Strategy                    string
	Baseline                    bool
	Mean, P50, P95, P99, Max    string
	Delta, Better, Worse, Equal string
	Significant, NotSignificant bool
}

type htmlStrategy struct {
	Name, Description, Source string
	// Params are the strategy's parameters as "path=value".
	Params   []string
	Baseline bool
}

type htmlCount struct {
	Reason string
	Count  int
}

// htmlFuncs format the numbers the template writes itself, with the same
// formatters as the tables: no raw float ever reaches the page.
var htmlFuncs = template.FuncMap{
	"int":  func(v any) string { return fmtInt(toFloat(v)) },
	"num":  func(v float64) string { return fmtExact(v) },
	"pct":  func(v float64) string { return fmtPercent(v) },
	"spct": func(v float64) string { return signed(v*100, fmtSig) + "%" },
	// count writes a count with its noun, one for 1 and many otherwise
	// ("1 session", "2 sessions").
	"count": func(v any, one, many string) string {
		f := toFloat(v)
		return fmtInt(f) + " " + nouns.Form(int64(f), one, many)
	},
	// fidelitySides: the sides of run.fidelity, none when it compared
	// nothing: then, as in report.md and the summary, no table is shown
	// (and no section unless sessions were left out, fidelityOther).
	"fidelitySides": fidelitySides,
	// fidelityLarge: the sides of run.fidelity flagged as a large error.
	"fidelityLarge": fidelityLargeSides,
	// fidelityOther: the sessions left out as recorded under another strategy.
	"fidelityOther": otherStrategyNote,
	// overflowMark: the mark after a strategy over the context window.
	"overflowMark": func() string { return OverflowMark },
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// htmlReport renders report.html: one self-contained file with the plots
// inline as PNG data URIs, no scripts and no network references.
func htmlReport(res *Results, plots []renderedPlot) ([]byte, error) {
	tmpl, err := template.New("report").Funcs(htmlFuncs).Parse(htmlTemplateText)
	if err != nil {
		return nil, fmt.Errorf("parse report template: %w", err)
	}
	data := htmlData{
		Title:          reportTitle(res),
		RunLine:        runLine(res),
		Shard:          ShardText(res),
		ModelLine:      modelLine(res, "listed below"),
		Res:            res,
		Table:          buildTable(res),
		IntervalPhrase: intervalPhrase(res),
		NotSignificant: notSignificant,
		NoChange:       noChange,
		Metrics:        htmlMetrics(res),
		Findings:       Findings(res),
	}
	if r := res.Run.Resolution; r != nil {
		data.Resolution = resolutionRows(r)
		data.ResolutionIntro = resolutionIntro(r) + "."
		data.ResolutionText = []string{thresholdText(r) + ".", otherInputsText(r) + "."}
		data.Unreplayed = UnreplayedText(r)
		if len(r.TopUnresolved) > 0 || r.UnresolvedOtherCalls > 0 {
			data.ResolutionText = append(data.ResolutionText, "Most called unresolved: "+toolList(r.TopUnresolved, r.UnresolvedTools, 10, r.UnresolvedOtherCalls)+".")
		}
		if v := MissingVersionsText(r, 10); v != "" {
			data.ResolutionText = append(data.ResolutionText, "Versions asked for that the catalogs lack: "+v+".")
		}
		if v := missingServersSentence(r, 10); v != "" {
			data.ResolutionText = append(data.ResolutionText, v+".")
		}
		if len(r.NotExact) > 0 || r.NotExactOtherCalls > 0 {
			data.ResolutionText = append(data.ResolutionText, "Schema not exact: "+toolList(r.NotExact, r.NotExactTools, 10, r.NotExactOtherCalls)+".")
		}
		if a := ambiguousText(r, 10); a != "" {
			data.ResolutionText = append(data.ResolutionText, "Ambiguous: "+a+".")
		}
	}
	for _, p := range plots {
		cfg, err := png.DecodeConfig(bytes.NewReader(p.PNG))
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", p.Name, err)
		}
		data.Plots = append(data.Plots, htmlPlot{
			Name: p.Name, Title: p.Title, About: p.About, Width: cfg.Width, Height: cfg.Height,
			// The URI is built here from PNG bytes: safe to mark as a URL.
			Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(p.PNG)),
		})
	}
	for _, s := range res.Strategies {
		raw, err := json.Marshal(s.Parameters)
		if err != nil {
			return nil, fmt.Errorf("strategy %s parameters: %w", s.Name, err)
		}
		params, err := flattenJSON(raw, "name", "description", "source")
		if err != nil {
			return nil, fmt.Errorf("strategy %s parameters: %w", s.Name, err)
		}
		data.Strategies = append(data.Strategies, htmlStrategy{
			Name: s.Name, Description: s.Parameters.Description, Source: s.Parameters.Source,
			Params: params, Baseline: s.Baseline,
		})
	}
	for reason, n := range res.Run.Counts.SkipReasons {
		data.SkipReasons = append(data.SkipReasons, htmlCount{reason, n})
	}
	slices.SortFunc(data.SkipReasons, func(a, b htmlCount) int { return strings.Compare(a.Reason, b.Reason) })
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("render report.html: %w", err)
	}
	return buf.Bytes(), nil
}

// htmlMetrics lays out every metric's distribution per strategy.
func htmlMetrics(res *Results) []htmlMetric {
	var out []htmlMetric
	for _, m := range res.Metrics {
		hm := htmlMetric{Metric: m}
		f := metricFormat(m.Unit)
		withCI := func(v float64, iv *Interval) string {
			if iv == nil {
				return f(v)
			}
			return f(v) + " " + fmtRange(iv.Low, iv.High, f)
		}
		for _, s := range res.Strategies {
			d, ok := s.Metrics[m.Name]
			if !ok {
				continue
			}
			r := htmlMetricRow{Strategy: s.Name, Baseline: s.Baseline}
			if d.Count > 0 {
				r.Mean, r.P50, r.P95 = withCI(d.Mean, d.MeanCI), withCI(d.P50, d.P50CI), withCI(d.P95, d.P95CI)
				r.P99, r.Max = f(d.P99), f(d.Max)
			}
			if c, ok := s.VsBaseline[m.Name]; ok && !s.Baseline {
				sf := func(v float64) string { return signed(v, f) }
				r.Delta = sf(c.MeanDiff)
				if c.MeanDiffCI != nil {
					r.Delta += " " + fmtRange(c.MeanDiffCI.Low, c.MeanDiffCI.High, sf)
					r.Significant = c.Significant
					r.NotSignificant = !c.Significant
				}
				r.Better, r.Worse, r.Equal = fmtPercent(c.Better), fmtPercent(c.Worse), fmtPercent(c.Equal)
			}
			hm.Rows = append(hm.Rows, r)
		}
		out = append(out, hm)
	}
	return out
}

// metricFormat returns the value format for a metric unit.
func metricFormat(unit string) func(float64) string {
	switch unit {
	case "USD":
		return fmtUSD
	case "ms":
		return fmtMs
	case "ratio":
		return fmtPercent
	case "tokens":
		return func(v float64) string {
			if v == float64(int64(v)) || v > 100 {
				return fmtInt(v)
			}
			return fmtSig(v)
		}
	}
	return fmtSig
}
