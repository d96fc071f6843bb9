package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestNoDurationSaysHowToHaveOne pins that sessions whose model requests
// record no duration are told where a duration comes from and how to have
// one (the importers derive duration_ms from message times; placeholder
// times have none): calibrate used to say only "no model request has a
// recorded duration", which left a user with timestamped logs without the
// way forward.
func TestNoDurationSaysHowToHaveOne(t *testing.T) {
	_, cat := recorded(t)
	for _, tc := range []struct {
		name     string
		noUsage  bool // usage removed too: nothing to calibrate at all
		wantFail bool
	}{
		{"usage, no durations", false, false},
		{"no usage, no durations", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := rewrite(t, "nodur.jsonl.gz", func(_ int, s *traces.Session) {
				for i := range s.Events {
					if e := &s.Events[i]; e.Type == traces.ModelRequest {
						e.DurationMs, e.TTFTMs = 0, 0
						if tc.noUsage {
							e.Usage = nil
						}
					}
				}
			})
			res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
			if (err != nil) != tc.wantFail {
				t.Fatalf("err %v, want failure %v", err, tc.wantFail)
			}
			var said string
			if err != nil {
				said = err.Error()
			} else {
				var b strings.Builder
				if err := WriteText(&b, res); err != nil {
					t.Fatal(err)
				}
				said = b.String() + header(res, res.Models[0])
			}
			for _, want := range []string{"duration_ms", "docs/importers.md", "message times", `timing "synthetic"`} {
				if !strings.Contains(said, want) {
					t.Errorf("does not say %q:\n%s", want, said)
				}
			}
		})
	}
}
