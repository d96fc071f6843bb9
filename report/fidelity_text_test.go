package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestFidelityInEveryRendering pins that the terminal summary and report.md
// show run.fidelity as report.html does — figures, the same "not compared"
// wording for a side no request recorded, and a large-error flag by
// FidelityLargeError in all three — and show nothing when nothing was
// compared: the summary and report.md used to say nothing of a latency
// error of 146% (the tau2 gpt-oss airline run). All three also say how many
// sessions were left out as recorded under another strategy (a deferral
// rule), even when no other request was compared: a run over Claude Code
// imports used to show only the error of its eager replay against what a
// deferring runtime sent. report.html shows its section exactly when the
// other two do, and no table of zero requests compared: it used to show
// one ("Requests compared (input tokens) 0", both sides "not compared")
// for a run.fidelity that compared nothing, where the summary and
// report.md showed nothing.
func TestFidelityInEveryRendering(t *testing.T) {
	const latencyFlag = "median above 25%, the replay does not reproduce the recorded request times"
	const inputFlag = "median above 25%, the replay does not reproduce the recorded prompt tokens"
	for _, tc := range []struct {
		name      string
		fid       *sim.Fidelity
		shown     bool // a Fidelity line / section in the summary and report.md
		flags     int  // large-error flags in each rendering
		want, not []string
	}{
		{"latency only, large", &sim.Fidelity{Strategy: "eager", LatencyRequests: 887, LatencyMedianAbsRelErr: 1.46, LatencyP90AbsRelErr: 4.62},
			true, 1,
			[]string{"not compared: no request of the traces records its usage", "146%", "462%", latencyFlag},
			[]string{"records its duration", inputFlag}},
		{"tokens only, small", &sim.Fidelity{Strategy: "eager", Requests: 217, InputMedianAbsRelErr: 0.0088, InputP90AbsRelErr: 0.0119, InputMeanRelErr: 0.0084},
			true, 0,
			[]string{"0.88%", "1.19%", "+0.84%", "not compared: no request of the traces records its duration"},
			[]string{"records its usage", "median above"}},
		{"both, tokens just above the threshold", &sim.Fidelity{Strategy: "eager", Requests: 10, InputMedianAbsRelErr: FidelityLargeError * 1.02, InputP90AbsRelErr: 0.5,
			LatencyRequests: 10, LatencyMedianAbsRelErr: 0.1, LatencyP90AbsRelErr: 0.2},
			true, 1,
			[]string{inputFlag, "25.5%", "10%"},
			[]string{"not compared", latencyFlag}},
		{"both at the threshold", &sim.Fidelity{Strategy: "eager", Requests: 10, InputMedianAbsRelErr: FidelityLargeError,
			LatencyRequests: 10, LatencyMedianAbsRelErr: FidelityLargeError},
			true, 0, nil, []string{"median above", "not compared"}},
		{"nothing compared", &sim.Fidelity{Strategy: "eager"}, false, 0, nil, []string{"median above", "recorded under another strategy", "Requests compared", "not compared"}},
		{"sessions left out, nothing compared", &sim.Fidelity{Strategy: "eager", OtherStrategy: 3}, true, 0,
			[]string{"3 sessions recorded under another strategy were not compared"}, []string{"median above", "Requests compared", "records its usage"}},
		{"sessions left out, the rest compared", &sim.Fidelity{Strategy: "eager", Requests: 217, InputMedianAbsRelErr: 0.0088, InputP90AbsRelErr: 0.0119, InputMeanRelErr: 0.0084, OtherStrategy: 2},
			true, 0,
			[]string{"0.88%", "2 sessions recorded under another strategy were not compared"},
			[]string{"median above"}},
		{"no fidelity", nil, false, 0, nil, []string{"median above", "not compared"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := sampleResults(t, 2, 10)
			res.Run.Fidelity = tc.fid
			var sum bytes.Buffer
			if err := Summary(&sum, res); err != nil {
				t.Fatal(err)
			}
			md := string(markdownReport(res, nil))
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(page), " "))
			for _, r := range []struct {
				name, text, marked, marker, flag string
			}{
				{"summary", sum.String(), sum.String(), "\nFidelity:  ", "LARGE ERROR: "},
				{"report.md", md, md, "\n## Fidelity\n", "**Large error:** "},
				{"report.html", text, string(page), `<h2 id="fidelity">`, ": large error"},
			} {
				if strings.Contains(r.marked, r.marker) != tc.shown {
					t.Errorf("%s: has %q: %v, want %v:\n%s", r.name, r.marker, !tc.shown, tc.shown, r.text)
				}
				if n := strings.Count(r.text, r.flag); n != tc.flags {
					t.Errorf("%s: %d large-error flags (%q), want %d", r.name, n, r.flag, tc.flags)
				}
				for _, w := range tc.want {
					if !strings.Contains(r.text, w) {
						t.Errorf("%s lacks %q:\n%s", r.name, w, r.text)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(r.text, n) {
						t.Errorf("%s has %q", r.name, n)
					}
				}
			}
		})
	}
}
