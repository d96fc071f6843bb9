package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestFidelitySectionSaysWhatWasNotCompared pins that report.html's
// Fidelity section shows no 0% error for a side no request recorded: a
// trace with timestamps but no usage (the tau2 gpt-oss airline run) used to
// read "Input tokens: median absolute relative error 0%" over 0 requests.
func TestFidelitySectionSaysWhatWasNotCompared(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fid       sim.Fidelity
		want, not []string
	}{
		{"latency only", sim.Fidelity{Strategy: "eager", LatencyRequests: 887, LatencyMedianAbsRelErr: 1.32, LatencyP90AbsRelErr: 4.35},
			[]string{"not compared: no request of the traces records its usage", "Latency: median absolute relative error", "132%"},
			[]string{"Input tokens: median absolute relative error", "records its duration"}},
		{"tokens only", sim.Fidelity{Strategy: "eager", Requests: 217, InputMedianAbsRelErr: 0.0088, InputP90AbsRelErr: 0.0119, InputMeanRelErr: 0.0084},
			[]string{"Input tokens: median absolute relative error", "0.88%", "not compared: no request of the traces records its duration"},
			[]string{"Latency: median absolute relative error", "records its usage"}},
		{"both", sim.Fidelity{Strategy: "eager", Requests: 10, InputMedianAbsRelErr: 0.02, LatencyRequests: 10, LatencyMedianAbsRelErr: 0.3},
			[]string{"Input tokens: median absolute relative error", "Latency: median absolute relative error"},
			[]string{"not compared"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := sampleResults(t, 2, 10)
			res.Run.Fidelity = &tc.fid
			dir := t.TempDir()
			if err := Render(res, dir, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(filepath.Join(dir, HTMLFile))
			if err != nil {
				t.Fatal(err)
			}
			h := string(html)
			i := strings.Index(h, `id="fidelity"`)
			if i < 0 {
				t.Fatal("report.html has no Fidelity section")
			}
			sec := h[i:]
			if j := strings.Index(sec, "</table>"); j >= 0 {
				sec = sec[:j]
			}
			text := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(sec, " ")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("Fidelity section lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("Fidelity section has %q:\n%s", n, text)
				}
			}
		})
	}
}
