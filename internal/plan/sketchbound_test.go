package plan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestPlanStatesTheSketchBound pins that plan over a streamed run (more
// sessions than --exact-sessions) states, next to the latency percentiles,
// that they are sketched and within the relative accuracy results.json
// records (statistics.streaming), in text, Markdown and JSON: it printed
// them as if exact (a p50 of 177.21 s against 177.98 s exact, without a
// word). The bound is the results' own (1% here, not the default 0.5%),
// and a run whose percentiles are exact gets no note.
func TestPlanStatesTheSketchBound(t *testing.T) {
	results := func(streaming *report.StreamingInfo) *report.Results {
		d := report.Distribution{Count: 400, Mean: 1, P50: 1, P95: 2}
		res := &report.Results{Sessions: 400, Run: sim.RunInfo{Scenario: "s"},
			Strategies: []report.StrategyResult{{Name: "a", Metrics: map[string]report.Distribution{}}}}
		for _, m := range projected {
			res.Strategies[0].Metrics[m] = d
		}
		res.Statistics.Streaming = streaming
		return res
	}
	streamed := &report.StreamingInfo{SampleSessions: 100, QuantileSketch: "DDSketch (test)", RelativeAccuracy: 0.01}
	tests := []struct {
		name string
		res  *report.Results
		want []string // in text, Markdown and JSON; nil: no note anywhere
	}{
		{"exact", results(nil), nil},
		{"streamed", results(streamed), []string{"sketched (400 sessions replayed, 100 kept exactly: DDSketch (test))", "within ±1%, relative"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Project(tc.res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			var text, md bytes.Buffer
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if err := WriteProjectionMarkdown(&md, p); err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			outs := map[string]string{"text": text.String(), "markdown": md.String(), "json": string(js)}
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
				if !strings.Contains(text.String(), "latency per session\nnote: the latency percentiles are sketched") {
					t.Errorf("text: the note is not under the latency heading:\n%s", text.String())
				}
				if p.Sketched.RelativeAccuracy != 0.01 {
					t.Errorf("JSON relative_accuracy %v, want the results' 0.01", p.Sketched.RelativeAccuracy)
				}
			}
		})
	}
}
