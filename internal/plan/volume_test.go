package plan

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestAmountFormats pins how plan prints dollars and counts at every
// magnitude: a K/M/B/T suffix up to a thousand trillion, then powers of
// ten, and below a millionth too; never Go's exponent form. A billion
// dollars used to print as "$1000.00M", 1e26 as
// "$350942272714285548306432.00M", $0.0000117 as "$1.17e-05", and a
// count of 0.001 as "0".
func TestAmountFormats(t *testing.T) {
	tests := []struct {
		v           float64
		usd, counts string
	}{
		{0, "$0", "0"},
		{1.17e-5, "$0.0000117", "0.0000117"},
		{0.000351, "$0.000351", "0.000351"},
		{0.001, "$0.001", "0.001"},
		{0.0075, "$0.0075", "0.0075"},
		{0.5, "$0.5", "0.5"},
		{7.5, "$7.50", "7.5"},
		{3442.5, "$3442", "3442"},
		{262500, "$262.5K", "262.5K"},
		{12.5e9, "$12.50B", "12.5B"},
		{1e9, "$1.00B", "1B"},
		{3.75e12, "$3.75T", "3.75T"},
		{999e12, "$999.00T", "999T"},
		{1e15, "$1×10^15", "1×10^15"},
		{3.50942272714e29, "$3.51×10^29", "3.51×10^29"},
		{1.7e308, "$1.7×10^308", "1.7×10^308"},
		{1e-7, "$1×10^-7", "1×10^-7"},
		{3.51e-301, "$3.51×10^-301", "3.51×10^-301"},
		{-2.5e20, "$-2.5×10^20", "-2.5×10^20"},
	}
	for _, tt := range tests {
		if got := usdShort(tt.v); got != tt.usd {
			t.Errorf("usdShort(%v) = %q, want %q", tt.v, got, tt.usd)
		}
		if got := count(tt.v); got != tt.counts {
			t.Errorf("count(%v) = %q, want %q", tt.v, got, tt.counts)
		}
	}
}

// TestProjectVolumeBounds pins what plan does with volumes far from any
// fleet's: one whose projection overflows float64 (or infinite days per
// month) is refused naming what overflows — it used to fail writing
// plan.json with "json: unsupported value: +Inf" — while any finite one is
// projected, written to JSON and printed without Go's exponent form
// ("1e+26") or a nonzero volume shown as "0".
func TestProjectVolumeBounds(t *testing.T) {
	ms := map[string]report.Distribution{}
	for _, m := range projected {
		ms[m] = report.Distribution{Count: 100, Mean: 1.5e5, MeanCI: &report.Interval{Low: 1.4e5, High: 1.6e5}}
	}
	ms["cost_usd"] = report.Distribution{Count: 100, Mean: 0.35, MeanCI: &report.Interval{Low: 0.3, High: 0.4}}
	res := &report.Results{Sessions: 100, Run: sim.RunInfo{Scenario: "s", Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100}},
		Prices:     &report.Prices{Model: "m", Input: 3, CacheWrite: 3.75, CacheRead: 0.3, Output: 15},
		Strategies: []report.StrategyResult{{Name: "a", Metrics: ms}}}
	refused := []struct {
		perDay, days float64
		want         string
	}{
		{1e305, 0, "sessions per day 1e+305, 30 days per month: strategy a's input tokens per day overflows"},
		{1e308, 30, "strategy a's cost per month overflows"},
		// No month has more than 31 days: --days-per-month 365 was
		// printed as "365 days/month" (and 1e300 overflowed).
		{1e300, 1e300, "days per month 1e+300: a month has at most 31 days"},
		{10, 365, "days per month 365: a month has at most 31 days (30.44 on average, 365.25/12; fewer to count only the days with traffic, e.g. 22 working days): type 30, and multiply the month by 12 for a year"},
		{10, 31.5, "days per month 31.5: a month has at most 31 days"},
		{1, math.Inf(1), "days per month +Inf: want a positive number"},
		{math.NaN(), 30, "sessions per day NaN: want a positive number"},
	}
	for _, tt := range refused {
		if _, err := Project(res, Options{SessionsPerDay: tt.perDay, DaysPerMonth: tt.days}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v sessions/day, %v days: err %v, want %q", tt.perDay, tt.days, err, tt.want)
		}
	}
	goExp := regexp.MustCompile(`[0-9]e[-+]?[0-9]`)
	for _, perDay := range []float64{1e-300, 0.001, 0.5, 25000, 1e12, 1e30, 1e299} {
		p, err := Project(res, Options{SessionsPerDay: perDay})
		if err != nil {
			t.Errorf("%v sessions/day: %v", perDay, err)
			continue
		}
		if _, err := json.Marshal(p); err != nil {
			t.Errorf("%v sessions/day: plan.json: %v", perDay, err)
		}
		var text, md bytes.Buffer
		if err := WriteProjection(&text, p); err != nil {
			t.Fatal(err)
		}
		if err := WriteProjectionMarkdown(&md, p); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
			if m := goExp.FindString(out); m != "" {
				t.Errorf("%v sessions/day: %s plan prints %q:\n%s", perDay, name, m, out)
			}
			if strings.Contains(out, " 0 sessions") {
				t.Errorf("%v sessions/day: %s plan says 0 sessions:\n%s", perDay, name, out)
			}
		}
	}
}
