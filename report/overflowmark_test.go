package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSummaryTableMarksRequestsOverTheWindow pins that report.md's and
// report.html's summary tables mark the row of a strategy whose requests
// exceed the model's context window (OverflowMark after its name) and
// say under the table how many, and that a report where no strategy
// overflows has neither mark nor legend (its goldens are unchanged).
// Before, such a strategy's cost, tokens and latency were shown as if
// its requests had been made, the finding far below the table. The
// mark's colour comes from the stylesheet's .overflow rule; it was an
// inline style on the span, beside the page's stylesheet.
func TestSummaryTableMarksRequestsOverTheWindow(t *testing.T) {
	const legend = "⚠ %s: 24 requests over the 200000-token context window, in 1 of 40 sessions: its figures include requests a provider would refuse (first finding below)"
	for _, tc := range []struct {
		name string
		// over is the strategy given requests over the window (-1: none);
		// zero gives it a count of no requests.
		over int
		zero bool
	}{
		{name: "none", over: -1},
		{name: "a zero count is no overflow", over: 1, zero: true},
		{name: "a strategy over the window", over: 1},
		{name: "the baseline over the window", over: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := goldenResults(t)
			marked := ""
			if tc.over >= 0 {
				c := &sim.ContextOverflow{Window: 200000, Requests: 24, Sessions: 1, MaxInput: 272329, MaxSession: "s-1"}
				if tc.zero {
					c = &sim.ContextOverflow{Window: 200000}
				} else {
					marked = res.Strategies[tc.over].Name
				}
				res.Strategies[tc.over].ContextOverflow = c
			}
			md := string(markdownReport(res, nil))
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			html := string(page)
			if marked == "" {
				for what, text := range map[string]string{"report.md": md, "report.html": html} {
					if strings.Contains(text, OverflowMark) || strings.Contains(text, `class="overflow`) || strings.Contains(text, "overflow-legend") {
						t.Errorf("%s marks a strategy though none overflows", what)
					}
				}
				return
			}
			name := marked
			if tc.over == 0 {
				name += " (baseline)"
			}
			want := strings.Replace(legend, "%s", marked, 1)
			if !strings.Contains(md, "| "+name+" "+OverflowMark+" |") || !strings.Contains(md, "\n"+want+"\n") {
				t.Errorf("report.md lacks the mark after %s or the legend %q:\n%s", name, want, md)
			}
			if strings.Count(md, OverflowMark) != 2 {
				t.Errorf("report.md has %d marks, want the row's and the legend's", strings.Count(md, OverflowMark))
			}
			if !strings.Contains(html, ` <span class="overflow" title="requests over the context window: see the line under the table">⚠</span></td>`) ||
				!strings.Contains(html, `<p class="warn overflow-legend">`+want+"</p>") {
				t.Errorf("report.html lacks the mark or the legend %q", want)
			}
			// The mark's colour is the stylesheet's .overflow rule, not an
			// inline style on the span (it was), so that the page's look
			// is set in one place.
			if !strings.Contains(html, "\n.overflow { color: #b35c00; font-weight: 700; }\n") || strings.Contains(html, `style="`) {
				t.Errorf("report.html: the mark is not styled by the stylesheet's .overflow rule alone")
			}
			if i, j := strings.Index(md, want), strings.Index(md, "## What these numbers rest on"); i < 0 || j < i {
				t.Errorf("report.md: the legend is not above the findings")
			}
		})
	}
}
