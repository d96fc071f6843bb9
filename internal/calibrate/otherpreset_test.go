package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestOtherPresetThanRecordedIsSaid pins that sessions recorded with one
// preset's model (gpt-4o) calibrated from another preset (--model
// claude-sonnet-4.5, or a scenario's model) get a warning and a header
// note saying so: the scenario keeps claude-sonnet-4.5's prices and
// anthropic cache with gpt-4o's fitted latency and framing, and only the
// text's group heading ("recorded gpt-4o") hinted at it. Sessions of the
// same preset under a vendor spelling (gpt-4o-2024-08-06) get none.
func TestOtherPresetThanRecordedIsSaid(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "o.jsonl.gz", func(_ int, s *traces.Session) { s.Start().EnsureStart().Model = "gpt-4o-2024-08-06" })
	for _, tc := range []struct {
		name, model, from string
		want              string // "" for no note
	}{
		{"--model another preset", "claude-sonnet-4.5", "--model",
			`the sessions record model "gpt-4o-2024-08-06" (the gpt-4o preset), but the claude-sonnet-4.5 preset (--model) is calibrated: it keeps its prices, prompt-cache model (anthropic) and context window`},
		{"scenario of another preset", "gpt-4.1", "scenario",
			`but the gpt-4.1 preset (the scenario's model) is calibrated`},
		{"the recorded preset", "gpt-4o", "--model", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, trace, cat, tc.model, FitOn{Kind: FitEven})
			cfg.ModelFrom = tc.from
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			mf := res.Models[0]
			warnings, h := strings.Join(res.Warnings, "\n"), header(res, mf)
			if tc.want == "" {
				if strings.Contains(warnings, "preset), but") || strings.Contains(h, "preset), but") {
					t.Errorf("a note for the recorded preset:\n%s\n%s", warnings, h)
				}
				return
			}
			if !strings.Contains(warnings, tc.want) {
				t.Errorf("warnings lack %q: %q", tc.want, res.Warnings)
			}
			if !strings.Contains(h, tc.want) {
				t.Errorf("header lacks %q:\n%s", tc.want, h)
			}
		})
	}
}
