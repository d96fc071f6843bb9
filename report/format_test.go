package report

import "testing"

func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		f    func(float64) string
		in   float64
		want string
	}{
		{"sig small", fmtSig, 0.012345, "0.0123"},
		{"sig int", fmtSig, 12345, "12345"},
		{"sig trims", fmtSig, 2.5, "2.5"},
		{"sig zero", fmtSig, 0, "0"},
		{"sig tiny", fmtSig, 1e-9, "1e-09"},
		{"int", fmtInt, 1234567.4, "1,234,567"},
		{"int negative", fmtInt, -1234, "−1,234"},
		{"compact", fmtCompact, 65432, "65.4k"},
		{"compact M", fmtCompact, 2500000, "2.5M"},
		{"usd", fmtUSD, 0.0943, "$0.0943"},
		{"usd negative", fmtUSD, -0.5, "−$0.5"},
		{"ms", fmtMs, 850, "850 ms"},
		{"ms as s", fmtMs, 2391, "2.39 s"},
		{"percent", fmtPercent, 0.737, "73.7%"},
	}
	for _, tc := range tests {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%s: f(%v) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
	if got := signed(-3, fmtSig); got != "−3" {
		t.Errorf("signed(-3) = %q", got)
	}
	if got := signed(3, fmtSig); got != "+3" {
		t.Errorf("signed(3) = %q", got)
	}
}

func TestDescribeDelta(t *testing.T) {
	ratio := 1.1
	costCol := summaryColumns()[0]
	latCol := summaryColumns()[3]
	hitCol := summaryColumns()[6]
	tests := []struct {
		name     string
		cmp      Comparison
		col      column
		text, ci string
		sig, has bool
	}{
		{"relative significant", Comparison{Ratio: &ratio, RatioCI: &Interval{1.05, 1.15}}, costCol, "+10%", "[+5, +15]", true, true},
		{"relative n.s.", Comparison{Ratio: &ratio, RatioCI: &Interval{0.95, 1.25}}, costCol, "+10%", "[−5, +25]", false, true},
		{"relative without baseline mean", Comparison{MeanDiff: 0.02, MeanDiffCI: &Interval{0.01, 0.03}}, costCol, "+$0.02", "[+$0.01, +$0.03]", true, true},
		{"latency in s", Comparison{P95Diff: 1500, P95DiffCI: &Interval{900, 2100}}, latCol, "+1.5 s", "[+0.9, +2.1]", true, true},
		{"latency in ms", Comparison{P95Diff: -120, P95DiffCI: &Interval{-200, 30}}, latCol, "−120 ms", "[−200, +30]", false, true},
		{"points", Comparison{MeanDiff: -0.05, MeanDiffCI: &Interval{-0.06, -0.04}}, hitCol, "−5 pp", "[−6, −4]", true, true},
		{"no interval", Comparison{P95Diff: 10}, latCol, "+10 ms", "", false, false},
	}
	for _, tc := range tests {
		text, ci, sig, has := describeDelta(tc.cmp, tc.col)
		if text != tc.text || ci != tc.ci || sig != tc.sig || has != tc.has {
			t.Errorf("%s: got %q %q %v %v, want %q %q %v %v", tc.name, text, ci, sig, has, tc.text, tc.ci, tc.sig, tc.has)
		}
	}
}
