package plan

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// overflowRows are two points of two strategies; eager overflows at the
// first point (over when set), the other never.
func overflowRows(over bool) []SeriesRow {
	amt := func(v float64) Amount { return Amount{Value: v, Low: v, High: v, Interval: "none"} }
	rows := []SeriesRow{
		{Label: "model.context_window=20000", X: 20000, Strategy: "eager", CostUSD: amt(0.35), FirstReplyMs: amt(10000), FirstP95Ms: amt(20000)},
		{Label: "model.context_window=20000", X: 20000, Strategy: "lazy", CostUSD: amt(0.13), FirstReplyMs: amt(8000), FirstP95Ms: amt(22000), ExtraTrips: 6.5},
		{Label: "model.context_window=40000", X: 40000, Strategy: "eager", CostUSD: amt(0.35), FirstReplyMs: amt(10000), FirstP95Ms: amt(20000)},
		{Label: "model.context_window=40000", X: 40000, Strategy: "lazy", CostUSD: amt(0.13), FirstReplyMs: amt(8000), FirstP95Ms: amt(22000), ExtraTrips: 6.5, Unchanged: true},
	}
	if over {
		rows[0].ContextOverflow = &sim.ContextOverflow{Window: 20000, Requests: 5149, Sessions: 350, MaxInput: 47293, MaxSession: "g-1"}
	}
	return rows
}

// TestSeriesShowsRequestsOverTheWindow pins that a sweep or growth table
// where some strategy sent requests over the model's context window gains
// a "requests over window" column (text and Markdown), counting them per
// row, and that a table where none did prints exactly as before the
// column existed. Before, a row whose requests a provider refuses looked
// like any other.
func TestSeriesShowsRequestsOverTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name         string
		over         bool
		text, md     string
		wantWarnings []string
	}{
		{name: "none", over: false,
			text: `point                       strategy  cost/session  first reply mean  first reply p95  extra trips  malformed  vs previous point
model.context_window=20000  eager     $0.35         10.00 s           20.00 s          0.00         0.000
                            lazy      $0.13         8.00 s            22.00 s          6.50         0.000
model.context_window=40000  eager     $0.35         10.00 s           20.00 s          0.00         0.000
                            lazy      $0.13         8.00 s            22.00 s          6.50         0.000      unchanged
`,
			md: "| Point | Strategy | cost / session | first reply mean | first reply p95 | extra round trips / session | malformed calls / session | vs previous point |\n"},
		{name: "eager over at the first point", over: true,
			text: `point                       strategy  cost/session  first reply mean  first reply p95  extra trips  malformed  requests over window  vs previous point
model.context_window=20000  eager     $0.35         10.00 s           20.00 s          0.00         0.000      5149 (350 sessions)
                            lazy      $0.13         8.00 s            22.00 s          6.50         0.000      0
model.context_window=40000  eager     $0.35         10.00 s           20.00 s          0.00         0.000      0
                            lazy      $0.13         8.00 s            22.00 s          6.50         0.000      0                     unchanged
`,
			md:           "| Point | Strategy | cost / session | first reply mean | first reply p95 | extra round trips / session | malformed calls / session | requests over window | vs previous point |\n",
			wantWarnings: []string{"requests over the context window in the sweep: eager at model.context_window=20000: 5149 requests over the 20000-token window in 350 sessions, the largest 47293 tokens; a provider refuses"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := overflowRows(tc.over)
			var text, md bytes.Buffer
			if err := WriteSeries(&text, rows); err != nil {
				t.Fatal(err)
			}
			if text.String() != tc.text {
				t.Errorf("text:\n%s\nwant:\n%s", text.String(), tc.text)
			}
			if err := WriteSeriesMarkdown(&md, rows); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(md.String(), tc.md) {
				t.Errorf("markdown:\n%s\nwant the header:\n%s", md.String(), tc.md)
			}
			if tc.over && !strings.Contains(md.String(), "| 0.000 | 5149 (350 sessions) |  |\n") {
				t.Errorf("markdown lacks eager's count:\n%s", md.String())
			}
			warn := SweepOverflowWarning(rows)
			if (warn != "") != (len(tc.wantWarnings) > 0) {
				t.Fatalf("warning %q, want one: %v", warn, tc.wantWarnings)
			}
			for _, w := range tc.wantWarnings {
				if !strings.HasPrefix(warn, w) {
					t.Errorf("warning:\n%s\nwant it to start:\n%s", warn, w)
				}
			}
			if strings.Contains(warn, "lazy") {
				t.Errorf("the warning names lazy, which never overflowed: %s", warn)
			}
		})
	}
}

// TestGrowthOverflowWarning pins that plan's growth warns of the sizes at
// which a strategy's requests exceed the window, naming each by factor
// and tool count ("at ×4 eager's requests exceed the window"), strategy by
// strategy in the order they first overflow, and says nothing when no size
// overflows. Before, a growth series priced refused requests without a
// word. The warning is built from each point's ContextOverflow, as Growth
// sets it (growthOverflow): it rebuilt the whole series table to find them.
func TestGrowthOverflowWarning(t *testing.T) {
	// point is a growth point of eager, lazy and anchor at one size, each
	// over the window where its count is non-nil.
	point := func(factor float64, label string, eager, lazy, anchor *sim.ContextOverflow) GrowthPoint {
		res := &report.Results{Sessions: 50, Strategies: []report.StrategyResult{
			{Name: "eager", ContextOverflow: eager}, {Name: "lazy", ContextOverflow: lazy}, {Name: "anchor", ContextOverflow: anchor}}}
		pt := Point{Label: label, Results: res}
		return GrowthPoint{Point: pt, Factor: factor, ContextOverflow: growthOverflow(pt)}
	}
	over := func(requests, sessions, largest int64) *sim.ContextOverflow {
		return &sim.ContextOverflow{Window: 200000, Requests: requests, Sessions: sessions, MaxInput: largest, MaxSession: "s"}
	}
	const tail = "; a provider refuses such a request (\"prompt is too long\"), so the cost and times of those rows describe requests that could not be made (plan.json growth[].context_overflow)"
	for _, tc := range []struct {
		name   string
		points []GrowthPoint
		want   string // "" for no warning
	}{
		{"none", []GrowthPoint{point(1, "tools=100", nil, nil, nil), point(4, "tools=400", nil, nil, nil)}, ""},
		{"a count of no request is none", []GrowthPoint{point(1, "tools=100", &sim.ContextOverflow{Window: 200000}, nil, nil)}, ""},
		{"at ×4", []GrowthPoint{point(1, "tools=100", nil, nil, nil), point(4, "tools=400", over(12, 3, 231000), nil, nil)},
			"requests over the context window as the catalog grows: eager at ×4 (tools=400): 12 requests over the 200000-token window in 3 sessions, the largest 231000 tokens" + tail},
		// anchor comes after lazy in each point, yet overflows first: it
		// is named first, each strategy with all its sizes.
		{"two strategies from different sizes", []GrowthPoint{
			point(1, "tools=100", nil, nil, nil),
			point(2, "tools=200", nil, nil, over(1, 1, 200100)),
			point(4, "tools=400", nil, over(5, 2, 240000), over(9, 4, 260000)),
			point(8, "tools=800", over(30, 10, 410000), over(7, 3, 250000), over(20, 6, 300000))},
			"requests over the context window as the catalog grows: " +
				"anchor at ×2 (tools=200): 1 request over the 200000-token window in 1 session, the largest 200100 tokens; " +
				"anchor at ×4 (tools=400): 9 requests over the 200000-token window in 4 sessions, the largest 260000 tokens; " +
				"anchor at ×8 (tools=800): 20 requests over the 200000-token window in 6 sessions, the largest 300000 tokens; " +
				"lazy at ×4 (tools=400): 5 requests over the 200000-token window in 2 sessions, the largest 240000 tokens; " +
				"lazy at ×8 (tools=800): 7 requests over the 200000-token window in 3 sessions, the largest 250000 tokens; " +
				"eager at ×8 (tools=800): 30 requests over the 200000-token window in 10 sessions, the largest 410000 tokens" + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := GrowthOverflowWarning(tc.points)
			if ok != (tc.want != "") || got.Text != tc.want || got.Warning != ok {
				t.Errorf("got %+v, %v\nwant the warning %q", got, ok, tc.want)
			}
			// The sweep's warning, from the same points' series rows,
			// names the same strategies at the same points.
			var pts []Point
			for _, p := range tc.points {
				pts = append(pts, p.Point)
			}
			sweep := SweepOverflowWarning(Rows(pts))
			for _, p := range tc.points {
				for _, o := range p.ContextOverflow {
					if want := fmt.Sprintf("%s at %s: %s", o.Strategy, p.Label, nouns.Count(o.Requests, "request")); !strings.Contains(sweep, want) {
						t.Errorf("the sweep's warning lacks %q: %s", want, sweep)
					}
				}
			}
		})
	}
}

// TestProjectionSaysRequestsOverTheWindow pins that plan says, for each
// projected strategy whose replayed requests exceed the model's context
// window, that its projection counts requests a provider refuses (a
// warning, plan.json strategies[].context_overflow, two CSV columns), and
// that a projection where none does has neither the field nor the
// columns. Before, plan projected their cost without a word.
func TestProjectionSaysRequestsOverTheWindow(t *testing.T) {
	metrics := map[string]report.Distribution{}
	for _, m := range projected {
		metrics[m] = report.Distribution{Count: 10, Mean: 1}
	}
	for _, over := range []bool{false, true} {
		res := &report.Results{Sessions: 10, Strategies: []report.StrategyResult{{Name: "eager", Metrics: metrics}, {Name: "lazy", Metrics: metrics}}}
		if over {
			res.Strategies[0].ContextOverflow = &sim.ContextOverflow{Window: 40000, Requests: 9, Sessions: 4, MaxInput: 47293, MaxSession: "s-3"}
		}
		p, err := Project(res, Options{SessionsPerDay: 100})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Join(p.Warnings, "\n")
		want := "eager sent 9 requests over the model's 40000-token context window in 4 of 10 sessions (the largest 47293 tokens, session s-3); a provider refuses"
		if got := strings.Contains(warned, want); got != over {
			t.Errorf("over %v: warnings %q; want %q: %v", over, warned, want, over)
		}
		if strings.Contains(warned, "lazy") || p.Strategies[1].ContextOverflow != nil || (p.Strategies[0].ContextOverflow != nil) != over {
			t.Errorf("over %v: strategies' context_overflow %+v, %+v; warnings %q", over, p.Strategies[0].ContextOverflow, p.Strategies[1].ContextOverflow, warned)
		}
		var csv bytes.Buffer
		if err := WriteProjectionCSV(&csv, p); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
		wantEnds := []string{"percentile_relative_error", ",exact,0", ",exact,0"}
		if over {
			wantEnds = []string{"percentile_relative_error,context_overflow_requests,context_overflow_sessions", ",exact,0,9,4", ",exact,0,0,0"}
		}
		for i, w := range wantEnds {
			if !strings.HasSuffix(lines[i], w) {
				t.Errorf("over %v: CSV line %d %q, want it to end %q", over, i, lines[i], w)
			}
		}
	}
}
