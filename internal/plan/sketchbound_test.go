package plan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// projectionTexts projects res to 1,000 sessions a day and prints the
// projection as text and as Markdown.
func projectionTexts(t *testing.T, res *report.Results) (p *Projection, text, md string) {
	t.Helper()
	p, err := Project(res, Options{SessionsPerDay: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var tb, mb bytes.Buffer
	if err := WriteProjection(&tb, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteProjectionMarkdown(&mb, p); err != nil {
		t.Fatal(err)
	}
	return p, tb.String(), mb.String()
}

// TestPlanStatesTheSketchBound pins that plan over a streamed run (more
// sessions than --exact-sessions) states, next to the latency percentiles,
// that they are sketched and within the relative accuracy results.json
// records (statistics.streaming), in text, Markdown and JSON: it printed
// them as if exact (a p50 of 177.21 s against 177.98 s exact, without a
// word). The bound is the results' own (1% here, not the default 0.5%),
// and a run whose percentiles are exact gets no note.
func TestPlanStatesTheSketchBound(t *testing.T) {
	streamed := &report.StreamingInfo{SampleSessions: 100, QuantileSketch: "DDSketch (test)", RelativeAccuracy: 0.01}
	tests := []struct {
		name string
		res  *report.Results
		want []string // in text, Markdown and JSON; nil: no note anywhere
	}{
		{"exact", sketchResults(nil), nil},
		{"streamed", sketchResults(streamed), []string{"sketched (400 sessions replayed, 100 kept exactly: DDSketch (test))", "within ±1%, relative"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, text, md := projectionTexts(t, tc.res)
			js, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			outs := map[string]string{"text": text, "markdown": md, "json": string(js)}
			for form, out := range outs {
				if tc.want == nil {
					if strings.Contains(out, "sketched") {
						t.Errorf("%s of exact percentiles mentions a sketch:\n%s", form, out)
					}
					continue
				}
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("%s lacks %q:\n%s", form, w, out)
					}
				}
			}
			if tc.want != nil {
				// Next to the figures: right under the latency heading.
				if !strings.Contains(text, "latency per session\nnote: the latency percentiles are sketched") {
					t.Errorf("text: the note is not under the latency heading:\n%s", text)
				}
				if p.Sketched.RelativeAccuracy != 0.01 {
					t.Errorf("JSON relative_accuracy %v, want the results' 0.01", p.Sketched.RelativeAccuracy)
				}
			}
		})
	}
}

// TestSketchBoundInCSVAndSeries pins the sketch bound where plan's CSV and
// the sweep and growth series write percentiles: the CSV had no word of it
// (a spreadsheet read sketched p95s as exact) and a series row none either.
// The CSV says it in two columns on every row, the series in a note under
// the table naming the sketched points, and each row's JSON carries it.
func TestSketchBoundInCSVAndSeries(t *testing.T) {
	streamed := &report.StreamingInfo{SampleSessions: 100, QuantileSketch: "DDSketch (test)", RelativeAccuracy: 0.01}
	for _, tc := range []struct {
		name      string
		res       *report.Results
		csvTail   string // the last two cells of the header and of the row
		rowTail   string
		seriesRel float64
	}{
		{"exact", sketchResults(nil), ",percentiles,percentile_relative_error\n", ",exact,0\n", 0},
		{"streamed", sketchResults(streamed), ",percentiles,percentile_relative_error\n", ",DDSketch (test),0.01\n", 0.01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Project(tc.res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			var csv bytes.Buffer
			if err := WriteProjectionCSV(&csv, p); err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(csv.String(), "\n")
			if !strings.HasSuffix(lines[0], tc.csvTail) || !strings.HasSuffix(lines[1], tc.rowTail) {
				t.Errorf("csv header/row end %q / %q, want …%q / …%q", lines[0], lines[1], tc.csvTail, tc.rowTail)
			}

			rows := Rows([]Point{{Label: "x=1", Results: sketchResults(nil)}, {Label: "x=2", Results: tc.res}})
			if rows[1].P95RelativeError != tc.seriesRel || rows[0].P95RelativeError != 0 {
				t.Errorf("rows' p95 relative errors %v, %v; want 0, %v", rows[0].P95RelativeError, rows[1].P95RelativeError, tc.seriesRel)
			}
			var text, md bytes.Buffer
			if err := WriteSeries(&text, rows); err != nil {
				t.Fatal(err)
			}
			if err := WriteSeriesMarkdown(&md, rows); err != nil {
				t.Fatal(err)
			}
			want := "the first-reply p95 of points x=2 is sketched (the run kept fewer sessions than it replayed): each is within ±1%, relative"
			for form, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
				if got := strings.Contains(out, want); got != (tc.seriesRel != 0) {
					t.Errorf("%s series: note %q present %v, want %v:\n%s", form, want, got, tc.seriesRel != 0, out)
				}
			}
		})
	}
}

// sketchResults is a one-strategy results file of 400 sessions with every
// projected metric, its percentiles sketched when streaming is set.
func sketchResults(streaming *report.StreamingInfo) *report.Results {
	d := report.Distribution{Count: 400, Mean: 1, P50: 1, P95: 2}
	res := &report.Results{Sessions: 400, Run: sim.RunInfo{Scenario: "s"},
		Strategies: []report.StrategyResult{{Name: "a", Metrics: map[string]report.Distribution{}}}}
	for _, m := range projected {
		res.Strategies[0].Metrics[m] = d
	}
	res.Statistics.Streaming = streaming
	return res
}
