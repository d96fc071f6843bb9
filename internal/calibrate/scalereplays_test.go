package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestScaleReplaysPerLoss pins the cost docs/calibrate.md gives for the
// token_scale fit, in replays of the fit sessions at grid scales, a count
// any machine reproduces: the page gave seconds for the tau2 telecom
// example (0.5 s, 0.8 s under lad), which no command reproduced. The
// counts are those of the tau2 telecom example as claude-sonnet-4.5 and of
// the generated sessions recorded at 1.3 with ±5 tokens of jitter, under
// each --loss; the page must say them.
func TestScaleReplaysPerLoss(t *testing.T) {
	tau2, tau2Cat := importTau2(t, tau2Telecom...)
	p := presets.DefaultParams()
	p.TokenScale, p.RequestOverheadTokens, p.MessageOverheadTokens, p.ToolOverheadTokens = 1.3, 500, 6, 8
	gen, genCat := usageRecordedWith(t, "claude-sonnet-4.5", p, 5)
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "calibrate.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(raw)), " ")
	for _, tc := range []struct {
		name, trace, cat string
		// says is what the page says of the counts under huber, lad
		// and ols, and of the fit requests.
		says string
	}{
		{"tau2 telecom", tau2, tau2Cat, "the tau2 telecom example below as claude-sonnet-4.5 (%d fit requests) replays %d grid scales under `huber`, %d under `lad` and %d under `ols`"},
		{"generated at 1.3, ±5", gen, genCat, "the generated sessions recorded at 1.3 with ±5 tokens of jitter (%d fit requests) %d, %d and %d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var counts []any
			requests := 0
			for _, loss := range []Loss{Huber, LAD, OLS} {
				cfg := config(t, tc.trace, tc.cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
				cfg.AllowUnresolved, cfg.Loss = true, loss
				res, err := Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				o := res.Models[0].Overhead
				if o == nil || !o.TokenScaleFitted {
					t.Fatalf("--loss %s: token_scale not fitted: %+v", loss, o)
				}
				if o.scaleReplays < 2*ScaleProfileMinPoints+1 {
					t.Errorf("--loss %s: %d grid scales replayed, fewer than the first grid's %d", loss, o.scaleReplays, 2*ScaleProfileMinPoints+1)
				}
				counts, requests = append(counts, o.scaleReplays), o.FitRequests
				t.Logf("--loss %s: %d fit requests, token_scale %g (95%%: %g to %g), %d grid scales replayed",
					loss, o.FitRequests, o.TokenScale, o.TokenScaleLow, o.TokenScaleHigh, o.scaleReplays)
			}
			if want := fmt.Sprintf(tc.says, append([]any{requests}, counts...)...); !strings.Contains(page, want) {
				t.Errorf("docs/calibrate.md does not say %q", want)
			}
		})
	}
}
