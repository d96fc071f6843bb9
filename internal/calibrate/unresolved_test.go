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

// TestCalibrateMaxUnresolvedShare pins that calibrate takes run's
// --max-unresolved (Config.MaxUnresolved): a share above the unresolved
// calls' calibrates without --allow-unresolved (and still says what
// absorbed them, naming the flag), one below them refuses naming the share
// given and both ways on, and a share outside [0, 1] is refused before
// anything is read. Calibrate used to refuse above 1% with
// --allow-unresolved as its only way on.
func TestCalibrateMaxUnresolvedShare(t *testing.T) {
	_, cat := recorded(t)
	// Every call of the fitted (even) sessions names a tool no catalog
	// holds: 100% of the fitted calls, none of the held-out ones.
	trace := rewrite(t, "unresolved-share.jsonl", func(i int, s *traces.Session) {
		for j := range s.Events {
			if e := &s.Events[j]; e.Type == traces.ToolCall && i%2 == 0 {
				e.Tool += "_not_in_catalog"
			}
		}
	})
	share := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name    string
		max     *float64
		allow   bool
		wantErr []string // "" entries none: calibrated
		warn    string   // in the group's warnings when calibrated
	}{
		{"default 1%", nil, false, []string{"more than the 1% at which a run stops", "--max-unresolved SHARE", "--allow-unresolved"}, ""},
		{"share below the calls'", share(0.5), false, []string{"more than the 50% --max-unresolved 0.5 allows", "--max-unresolved SHARE", "--allow-unresolved"}, ""},
		{"share above the calls'", share(1), false, nil, "calibrated with --max-unresolved 1:"},
		{"allow overrides a share", share(0.5), true, nil, "calibrated with --allow-unresolved:"},
		{"a percentage typed for a share", share(5), false, []string{"--max-unresolved: 5 is not a share in [0, 1] (0.01 = 1% of tool calls)"}, ""},
		{"negative", share(-0.1), false, []string{"-0.1 is not a share in [0, 1]"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
			cfg.MaxUnresolved, cfg.AllowUnresolved = tc.max, tc.allow
			res, err := Run(context.Background(), cfg)
			if len(tc.wantErr) > 0 {
				if err == nil {
					t.Fatalf("calibrated; want an error saying %q", tc.wantErr)
				}
				for _, want := range tc.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the error does not say %q: %v", want, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if w := strings.Join(res.Models[0].Warnings, "\n"); !strings.Contains(w, tc.warn) {
				t.Errorf("warnings lack %q:\n%s", tc.warn, w)
			}
		})
	}
}
