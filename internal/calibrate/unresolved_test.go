package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestCalibrateRefusesUnresolvedCalls pins that calibrate stops when more
// than the share at which a run stops of the fitted or held-out sessions'
// tool calls do not resolve against the catalogs: it used to fit anyway,
// the prompt overhead absorbing the definitions the replay could not send
// (a catalog missing the tools gave a scenario that counted them twice
// once given the full catalog), with only a note on the held-out calls.
// With AllowUnresolved it calibrates and a warning says what absorbed them.
func TestCalibrateRefusesUnresolvedCalls(t *testing.T) {
	_, cat := recorded(t)
	for _, tc := range []struct {
		name string
		// rename says which sessions' tool calls name a tool no catalog holds.
		rename func(i int) bool
		// refused: calibrate stops; fitted, held: the message names the
		// fitted or held-out sessions' calls.
		refused, fitted, held bool
	}{
		{"every call", func(int) bool { return true }, true, true, true},
		{"fitted sessions only", func(i int) bool { return i%2 == 0 }, true, true, false},
		{"held-out sessions only", func(i int) bool { return i%2 == 1 }, true, false, true},
		{"none", func(int) bool { return false }, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := rewrite(t, "unresolved.jsonl", func(i int, s *traces.Session) {
				for j := range s.Events {
					if e := &s.Events[j]; e.Type == traces.ToolCall && tc.rename(i) {
						e.Tool += "_not_in_catalog"
					}
				}
			})
			cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
			res, err := Run(context.Background(), cfg)
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused a calibration whose calls resolve: %v", err)
				}
				if w := strings.Join(res.Models[0].Warnings, "\n"); strings.Contains(w, "absorbed") {
					t.Errorf("warns of absorbed tools where every call resolves: %s", w)
				}
				return
			}
			if err == nil {
				t.Fatalf("calibrated with unresolved calls: err %v", err)
			}
			msg := err.Error()
			for _, want := range []string{"_not_in_catalog", "would absorb them", "--catalogs", "--allow-unresolved", "nothing was written"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the refusal does not say %q: %s", want, msg)
				}
			}
			if got := strings.Contains(msg, "of the fitted sessions'"); got != tc.fitted {
				t.Errorf("names the fitted sessions' calls: %v, want %v: %s", got, tc.fitted, msg)
			}
			if got := strings.Contains(msg, "of the held-out sessions'"); got != tc.held {
				t.Errorf("names the held-out sessions' calls: %v, want %v: %s", got, tc.held, msg)
			}

			cfg.AllowUnresolved = true
			res, err = Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("--allow-unresolved: %v", err)
			}
			mf := res.Models[0]
			if mf.FitResolution == nil || mf.Resolution == nil {
				t.Fatalf("resolutions not recorded: fit %v, held-out %v", mf.FitResolution, mf.Resolution)
			}
			w := strings.Join(mf.Warnings, "\n")
			if got := strings.Contains(w, "absorbed them"); got != tc.fitted {
				t.Errorf("warning of absorbed definitions: %v, want %v (the fitted sessions' calls): %q", got, tc.fitted, w)
			}
			if tc.fitted && !strings.Contains(header(res, mf), "Warning: calibrated with --allow-unresolved") {
				t.Errorf("the scenario header does not say what absorbed them:\n%s", header(res, mf))
			}
		})
	}
}
