package plan

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// TestSweepSaysRecordedPausesFillNothing pins the reason a sweep of
// params.user_think_ms gives when it changes nothing: every user pause
// after the first is recorded in the trace, counted by the replay
// (run.counts.user_pauses_from_params stays 0). It used to say "no reason
// derived". Over the same sessions marked as recording no times
// (session_start meta timing=synthetic, as importers mark them), every
// such pause is filled from the parameter: the sweep changes the
// outcomes, and the results count the pauses filled.
func TestSweepSaysRecordedPausesFillNothing(t *testing.T) {
	timed := small(t, 12)
	dir := filepath.Dir(timed.Traces[0])
	after := userMessagesAfterFirst(t, timed.Traces[0])
	if after == 0 {
		t.Fatal("the generated sessions have no user message after their first: nothing to test")
	}
	synth := synthetic(t, timed, filepath.Join(dir, "synthetic.jsonl.gz"))
	for _, tc := range []struct {
		name       string
		sc         *scenarios.Scenario
		wantReason string // "" = the sweep changes every strategy
		wantFilled int64
	}{
		{"timed", timed, fmt.Sprintf("user_think_ms changes nothing: all %d user pauses after the first are recorded in the trace", after), 0},
		{"synthetic", synth, "", after},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: tc.sc,
				Spec:      SweepSpec{Param: "params.user_think_ms", From: 0, To: 60000, Step: 60000},
				Overrides: runner.Overrides{Strategies: []string{"eager", "claude-code-default"}},
				Dir:       t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantReason == "" {
				if len(sw.Unchanged) != 0 {
					t.Errorf("unchanged = %+v, want none: every pause is the parameter", sw.Unchanged)
				}
			} else {
				if len(sw.Unchanged) != 2 {
					t.Fatalf("unchanged = %+v, want both strategies", sw.Unchanged)
				}
				for _, u := range sw.Unchanged {
					if !strings.HasPrefix(u.Reason, tc.wantReason) {
						t.Errorf("%s: reason %q, want %q", u.Strategy, u.Reason, tc.wantReason)
					}
				}
			}
			for _, p := range sw.Points {
				if got := p.Results.Run.Counts.UserPausesFromParams; got != tc.wantFilled {
					t.Errorf("%s: run.counts.user_pauses_from_params = %d, want %d", p.Label, got, tc.wantFilled)
				}
				if p.Pauses.All != after {
					t.Errorf("%s: %d user pauses counted, want %d", p.Label, p.Pauses.All, after)
				}
			}
		})
	}
}

// userMessagesAfterFirst counts, in a trace file, the user events after
// the first of each session.
func userMessagesAfterFirst(t *testing.T, path string) int64 {
	t.Helper()
	var n int64
	seen := map[string]bool{}
	eachEvent(t, path, func(ev map[string]any) {
		if ev["type"] != "user" {
			return
		}
		s, _ := ev["session"].(string)
		if seen[s] {
			n++
		}
		seen[s] = true
	})
	return n
}

// synthetic writes sc's trace with every session marked as recording no
// times to path and returns sc reading it.
func synthetic(t *testing.T, sc *scenarios.Scenario, path string) *scenarios.Scenario {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	eachEvent(t, sc.Traces[0], func(ev map[string]any) {
		if ev["type"] == "session_start" {
			meta, _ := ev["meta"].(map[string]any)
			if meta == nil {
				meta = map[string]any{}
			}
			meta["timing"] = "synthetic"
			ev["meta"] = meta
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		zw.Write(append(b, '\n'))
	})
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	c := *sc
	c.Traces = []string{path}
	return &c
}

// eachEvent calls fn with every line of a gzip'd JSONL trace.
func eachEvent(t *testing.T, path string, fn func(map[string]any)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		fn(ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
