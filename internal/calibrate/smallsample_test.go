package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestSmallSampleNote pins that a fit on a handful of requests says so,
// from the fit's own figures: a coefficient at its bound, a negative
// held-out R², held-out errors from one session. The tau2 telecom run cut
// to 3 sessions (2 fitted, 1 judged) wrote a header quoting a 3.9% median
// held-out error with no warning, though prefill_tps was at its bound and
// the held-out R² was -3.589.
func TestSmallSampleNote(t *testing.T) {
	lat := func(bound bool) *LatencyFit {
		return &LatencyFit{FitRequests: 28, FitSessions: 2, Coefficients: 7,
			Params: []Param{{Name: "overhead_ms", Fitted: true}, {Name: "prefill_tps", Value: MaxRateTPS, Fitted: true, AtBound: bound}}}
	}
	ev := func(r2 float64) *Evaluation {
		e := &Evaluation{RSquared: r2}
		e.Requests.Requests = 14
		return e
	}
	for _, tc := range []struct {
		name string
		mf   ModelFit
		want []string // "" alone: no warning
	}{
		{"enough data", ModelFit{HeldSessions: 10, Latency: lat(false), HeldOut: ev(0.6)}, []string{""}},
		{"tel3: bound, R² and one session", ModelFit{HeldSessions: 1, Latency: lat(true), HeldOut: ev(-3.589)},
			[]string{"the latency's 7 coefficients were fitted on 28 requests of 2 sessions", "prefill_tps is at its bound 1e+06",
				"the held-out R² is -3.589", "1 session: no spread"}},
		{"a bound alone", ModelFit{HeldSessions: 10, Latency: lat(true), HeldOut: ev(0.6)}, []string{"prefill_tps is at its bound"}},
		{"negative R² alone", ModelFit{HeldSessions: 10, Latency: lat(false), HeldOut: ev(-0.2)}, []string{"the held-out R² is -0.200"}},
		{"one session, overhead only", ModelFit{HeldSessions: 1, Overhead: &OverheadFit{FitRequests: 9, FitSessions: 2}},
			[]string{"the prompt overhead was fitted on 9 requests of 2 sessions", "1 session: no spread"}},
		// The held-out figures of one side can come from one session of
		// ten when the others record no usage or no duration: the
		// warning keyed on the held-out session count did not fire.
		{"usage in one held-out session of ten", ModelFit{HeldSessions: 10, Latency: lat(false), HeldOut: ev(0.6),
			Overhead: &OverheadFit{FitRequests: 28, FitSessions: 2, After: &sim.Fidelity{Requests: 14}, HeldOutSessions: 1}},
			[]string{"the prompt overhead was fitted on 28 requests of 2 sessions, the latency's 7 coefficients on 28 requests of 2 sessions",
				"the held-out prompt-token errors come from 1 of the 10 held-out sessions (the others record no usage): no spread"}},
		{"durations in one held-out session of ten", ModelFit{HeldSessions: 10, Latency: lat(false), HeldOut: &Evaluation{Sessions: 1, RSquared: 0.6, Requests: ErrorSummary{Requests: 14}}},
			[]string{"the held-out latency errors come from 1 of the 10 held-out sessions (the others record no duration)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := smallSampleNote(&tc.mf)
			if len(tc.want) == 1 && tc.want[0] == "" {
				if got != "" {
					t.Errorf("warning %q, want none", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("warning lacks %q: %q", w, got)
				}
			}
		})
	}
}

// TestCalibrateFewSessionsWarns pins that a calibration judged on one
// held-out session says so in the text, the JSON warnings and the written
// scenario's header (the 3-session telecom walk: no warning at all).
func TestCalibrateFewSessionsWarns(t *testing.T) {
	_, cat := recorded(t)
	trace, _ := recorded(t)
	cfg := config(t, firstSessions(t, trace, 3), cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	if mf.FitSessions != 2 || mf.HeldSessions != 1 {
		t.Fatalf("test setup: %d fitted, %d held out", mf.FitSessions, mf.HeldSessions)
	}
	const want = "the held-out errors come from 1 session: no spread"
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "warning: a fit on little data") || !strings.Contains(b.String(), want) {
		t.Errorf("text lacks the warning:\n%s", b.String())
	}
	if !strings.Contains(strings.Join(mf.Warnings, "\n"), want) {
		t.Errorf("warnings (--json) lack it: %q", mf.Warnings)
	}
	if h := header(res, mf); !strings.Contains(h, "Warning: a fit on little data") {
		t.Errorf("header lacks the warning:\n%s", h)
	}
}

// firstSessions writes the first n sessions of trace to a new file.
func firstSessions(t *testing.T, trace string, n int) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "first.jsonl.gz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := traces.NewWriter(f, true)
	i := 0
	for s, err := range readFile(trace) {
		if err != nil {
			t.Fatal(err)
		}
		if i == n {
			break
		}
		i++
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHeaderSaysWhichSessionsAFigureComesFrom pins that a scenario header
// whose held-out prompt-token or request-time figure comes from fewer
// held-out sessions than it names says from how many: the tau2 telecom run
// with usage on 3 of its 20 sessions wrote "judged on 10 held-out
// sessions. Held-out prompt tokens: median |error| 0.1%, p90 0.1%", a p90
// over 3 requests.
func TestHeaderSaysWhichSessionsAFigureComesFrom(t *testing.T) {
	fid := &sim.Fidelity{Requests: 3}
	for _, tc := range []struct {
		name          string
		usageSessions int
		latSessions   int
		want, notWant string
	}{
		{"every held-out session", 10, 10, "", "held-out sessions;"},
		{"usage in 3", 3, 10, "Held-out prompt tokens (3 requests of 3 of the 10 held-out sessions; the others record no usage): median", "request time ("},
		{"durations in 2", 10, 2, "Held-out request time (14 requests of 2 of the 10 held-out sessions; the others record no duration): median", "prompt tokens ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mf := &ModelFit{Model: "gpt-4o", FitSessions: 10, HeldSessions: 10,
				Overhead: &OverheadFit{Before: fid, After: fid, HeldOutSessions: tc.usageSessions},
				HeldOut:  &Evaluation{Sessions: tc.latSessions, Requests: ErrorSummary{Requests: 14}}}
			h := header(&Result{Traces: []string{"t.jsonl.gz"}, FitOn: "even", Seed: 1}, mf)
			if tc.want != "" && !strings.Contains(h, tc.want) || strings.Contains(h, tc.notWant) {
				t.Errorf("header:\n%s\nwant %q, not %q", h, tc.want, tc.notWant)
			}
		})
	}
}
