package plan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// breakdownPoints are three catalog sizes of eager and lazy: eager's cost
// breaks at tools=200 and its p95 first reply at tools=400, lazy never
// breaks; overAt lists the sizes where eager's requests exceed a
// 60000-token context window.
func breakdownPoints(overAt ...string) []Point {
	type m struct{ cost, p95 float64 }
	sizes := []struct {
		label       string
		eager, lazy m
	}{
		{"tools=100", m{0.30, 20000}, m{0.10, 22000}},
		{"tools=200", m{0.60, 24000}, m{0.11, 22000}},
		{"tools=400", m{1.20, 40000}, m{0.12, 23000}},
	}
	var pts []Point
	for _, sz := range sizes {
		res := &report.Results{}
		for _, s := range []struct {
			name string
			v    m
		}{{"eager", sz.eager}, {"lazy", sz.lazy}} {
			sr := report.StrategyResult{Name: s.name, Metrics: map[string]report.Distribution{
				"cost_usd":       {Count: 10, Mean: s.v.cost},
				"first_reply_ms": {Count: 10, Mean: s.v.p95 / 2, P95: s.v.p95},
			}}
			for _, at := range overAt {
				if s.name == "eager" && at == sz.label {
					sr.ContextOverflow = &sim.ContextOverflow{Window: 60000, Requests: 12, Sessions: 3, MaxInput: 84322, MaxSession: "g-1"}
				}
			}
			res.Strategies = append(res.Strategies, sr)
		}
		pts = append(pts, Point{Label: sz.label, Results: res})
	}
	return pts
}

// TestBreakdownMarksBreaksOverTheWindow pins that plan --growth's
// breakdown table marks a "breaks at" cell (report.OverflowMark, the
// summary table's mark) when the strategy's requests at that size exceed
// the context window, with a legend line under the table, in text and
// Markdown; a cell whose size fits is not marked, and a table where no
// break size overflows prints as before (no mark, no legend). Before, the
// warning above said a size overflowed while the table showed the break
// measured on refused requests like any other.
func TestBreakdownMarksBreaksOverTheWindow(t *testing.T) {
	const legend = "⚠ at that size the strategy sends requests over the 60000-token context window: its break is measured on figures that include requests a provider would refuse (the warning above says how many)"
	for _, tc := range []struct {
		name      string
		overAt    []string
		eagerText string
		eagerMD   string
		legend    bool
	}{
		{name: "none", eagerText: "eager     tools=200       tools=400                  4.00    2.00                2.00",
			eagerMD: "| eager | tools=200 | tools=400 |"},
		{name: "over at a size where nothing breaks", overAt: []string{"tools=100"},
			eagerText: "eager     tools=200       tools=400                  4.00    2.00                2.00",
			eagerMD:   "| eager | tools=200 | tools=400 |"},
		{name: "over where the p95 breaks, not where cost does", overAt: []string{"tools=400"},
			eagerText: "eager     tools=200       tools=400 ⚠                4.00    2.00                2.00",
			eagerMD:   "| eager | tools=200 | tools=400 ⚠ |", legend: true},
		{name: "over at both breaks", overAt: []string{"tools=200", "tools=400"},
			eagerText: "eager     tools=200 ⚠     tools=400 ⚠                4.00    2.00                2.00",
			eagerMD:   "| eager | tools=200 ⚠ | tools=400 ⚠ |", legend: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := Breakdowns(breakdownPoints(tc.overAt...), 0.25)
			var text, md bytes.Buffer
			if err := WriteBreakdowns(&text, bs, 0.25, "tools=100", "tools=400"); err != nil {
				t.Fatal(err)
			}
			if err := WriteBreakdownsMarkdown(&md, bs, 0.25, "tools=100", "tools=400"); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), tc.eagerText+"\n") {
				t.Errorf("text table lacks %q:\n%s", tc.eagerText, text.String())
			}
			if !strings.Contains(md.String(), tc.eagerMD) {
				t.Errorf("markdown table lacks %q:\n%s", tc.eagerMD, md.String())
			}
			if !strings.Contains(text.String(), "lazy      never           never ") || !strings.Contains(md.String(), "| lazy | never | never |") {
				t.Errorf("lazy is not 'never' in both tables:\n%s\n%s", text.String(), md.String())
			}
			for what, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
				if got := strings.HasSuffix(out, "\n"+legend+"\n"); got != tc.legend {
					t.Errorf("%s ends with the legend: %v, want %v:\n%s", what, got, tc.legend, out)
				}
				if !tc.legend && strings.Contains(out, report.OverflowMark) {
					t.Errorf("%s marks a cell though no break size overflows:\n%s", what, out)
				}
			}
		})
	}
}
