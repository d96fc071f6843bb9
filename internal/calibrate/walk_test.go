package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// rewrite copies the generated recorded trace to a new file, letting edit
// change each session (its position in input order given).
func rewrite(t *testing.T, name string, edit func(i int, s *traces.Session)) string {
	t.Helper()
	trace, _ := recorded(t)
	out := filepath.Join(t.TempDir(), name)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	w := traces.NewWriter(f, true)
	i := 0
	for s, err := range readFile(trace) {
		if err != nil {
			t.Fatal(err)
		}
		edit(i, s)
		i++
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return out
}

// TestCalibrateCountsDeferredSessionsApart pins that sessions recorded
// under a deferral rule, which calibrate skips, are not counted as fitted
// on or held out (the text, the scenario header and the held-out file
// used to count them: "6 sessions: 3 fitted on, 3 held out" for a fit on
// 2), and that when every session is such a one calibrate says so instead
// of "no recorded model request to calibrate on".
func TestCalibrateCountsDeferredSessionsApart(t *testing.T) {
	_, cat := recorded(t)
	tests := []struct {
		name      string
		deferred  func(i int) bool
		fit, held int
		wantErr   string
	}{
		{"every fourth", func(i int) bool { return i%4 < 2 }, 15, 15, ""},
		{"all", func(int) bool { return true }, 0, 0,
			"60 sessions recorded under another strategy (defer_loading) are skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trace := rewrite(t, "d.jsonl.gz", func(i int, s *traces.Session) {
				if tt.deferred(i) {
					s.Start().EnsureStart().RecordedStrategy = "defer_loading"
				}
			})
			res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "no recorded model request") {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			mf := res.Models[0]
			if mf.Sessions != 60 || mf.FitSessions != tt.fit || mf.HeldSessions != tt.held {
				t.Errorf("sessions %d, fitted %d, held out %d; want 60, %d, %d", mf.Sessions, mf.FitSessions, mf.HeldSessions, tt.fit, tt.held)
			}
			if h := header(res, mf); !strings.Contains(h, "fitted on 15 sessions") || !strings.Contains(h, "judged on 15 held-out sessions") {
				t.Errorf("header %q", h)
			}
			var b strings.Builder
			if err := WriteText(&b, res); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "60 sessions: 15 fitted on, 15 held out, 30 skipped;") {
				t.Errorf("text:\n%s", b.String())
			}
			n := 0
			for s, err := range heldOut(res.data.source(mf.group, false)) {
				if err != nil {
					t.Fatal(err)
				}
				if traces.RecordedDeferred(s.Start().RecordedStrategy()) {
					t.Errorf("held-out file holds %s, recorded with deferral", s.ID)
				}
				n++
			}
			if n != tt.held {
				t.Errorf("held-out file: %d sessions, want %d", n, tt.held)
			}
		})
	}
}

// TestFitLatencyTooFewRequestsSaysWhat pins the message of a latency fit
// with more coefficients than fit requests: it used to be "latency:
// regression: 7 columns for 6 rows"; it names the counts, what is kept
// and what to do.
func TestFitLatencyTooFewRequestsSaysWhat(t *testing.T) {
	lat := sim.Latency{OverheadMs: 400, PrefillTPS: 2000, CachedPrefillTPS: 20000, DecodeTPS: 80}
	// Six fit requests of four kinds: four intercepts and three rates.
	var reqs []Request
	seen := map[sim.RequestKind]int{}
	for _, q := range kindRequests(lat, 0.05, map[sim.RequestKind]bool{sim.KindRepeat: true}) {
		if q.Role == FitRole && len(reqs) < 6 && seen[q.Kind] < 2 {
			seen[q.Kind]++
			reqs = append(reqs, q)
		}
	}
	if len(seen) != 4 || len(reqs) != 6 {
		t.Fatalf("test setup: %d requests of kinds %v", len(reqs), seen)
	}
	for _, kinds := range []bool{true, false} {
		_, err := fitLatency(reqs, SplitReplay, Log, lat, Huber, kinds, "")
		if !kinds {
			if err != nil {
				t.Errorf("--kinds=false: %v", err)
			}
			continue
		}
		if err == nil {
			t.Fatal("fit with 7 coefficients on 6 requests succeeded")
		}
		for _, want := range []string{"latency not fitted: 6 fit requests with a recorded duration for 7 coefficients",
			"the starting latency is kept", "--kinds=false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		if strings.Contains(err.Error(), "columns for") {
			t.Errorf("error %q still in the solver's words", err)
		}
	}
}

// TestCalibrateWarnsWhenTheFitDoesWorse pins that a prompt-overhead fit
// that does worse on the held-out sessions than the starting params (fit
// sessions that differ from the held-out ones) is flagged in the text and
// the written scenario's header; it used to be written like any other.
// It also pins the held-out errors docs/calibrate.md quotes for it.
func TestCalibrateWarnsWhenTheFitDoesWorse(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "w.jsonl.gz", func(i int, s *traces.Session) {
		if i%2 == 1 {
			return
		}
		for _, e := range s.Events {
			if e.Type == traces.ModelRequest && e.Usage != nil {
				e.Usage.Input += 3000
			}
		}
	})
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	if mf.Overhead == nil || mf.Overhead.After.InputMedianAbsRelErr <= mf.Overhead.Before.InputMedianAbsRelErr {
		t.Fatalf("test setup: overhead %+v", mf.Overhead)
	}
	// docs/calibrate.md quotes this setup's figures; they used to come
	// from four hand-written conversations no test or command reproduced.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "calibrate.md"))
	if err != nil {
		t.Fatal(err)
	}
	quote := fmt.Sprintf("a held-out median error of %.1f%% against %.1f%% before",
		100*mf.Overhead.After.InputMedianAbsRelErr, 100*mf.Overhead.Before.InputMedianAbsRelErr)
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), quote) {
		t.Errorf("docs/calibrate.md does not say %q", quote)
	}
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	want := "the fitted prompt overhead does worse on the held-out sessions than the scenario's"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
	if h := header(res, mf); !strings.Contains(h, "Warning: "+want) {
		t.Errorf("header lacks the warning:\n%s", h)
	}
}

// TestScenarioHeaderSaysLatencyNotFitted pins that a written scenario whose
// latency could not be fitted says so in its header: its latency block is
// the starting model's, which used to read like a calibrated one.
func TestScenarioHeaderSaysLatencyNotFitted(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "u.jsonl.gz", func(_ int, s *traces.Session) {
		for i := range s.Events {
			if s.Events[i].Type == traces.ModelRequest {
				s.Events[i].DurationMs, s.Events[i].TTFTMs = 0, 0
			}
		}
	})
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven}))
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	if mf.Latency != nil || mf.Overhead == nil {
		t.Fatalf("test setup: latency %v, overhead %v", mf.Latency, mf.Overhead)
	}
	want := "Warning: latency not fitted: no model request has a recorded duration: " + durationHint + "; the latency below is the starting model's."
	if h := header(res, mf); !strings.Contains(h, want) {
		t.Errorf("header lacks %q:\n%s", want, h)
	}
}
