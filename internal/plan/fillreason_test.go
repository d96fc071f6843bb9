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

// TestSweepSaysRecordedPausesFillNothing pins the reason a sweep of a
// key that only fills in what a trace does not record gives when it
// changes nothing: params.user_think_ms when every user pause after the
// first is recorded, params.default_tool_ms when every tool call has its
// duration, both counted by the replay. They used to say "no reason
// derived". Over the same sessions marked as recording no times
// (session_start meta timing=synthetic, as importers mark them), or with
// the calls' durations removed, the parameter fills every one: the sweep
// changes the outcomes, and the counts say how many it filled
// (run.counts.user_pauses_from_params in results.json).
func TestSweepSaysRecordedPausesFillNothing(t *testing.T) {
	timed := small(t, 12)
	dir := filepath.Dir(timed.Traces[0])
	pauses, calls := countAfterFirstAndCalls(t, timed.Traces[0])
	if pauses == 0 || calls == 0 {
		t.Fatalf("the generated sessions have %d user messages after their first and %d tool calls: nothing to test", pauses, calls)
	}
	synth := rewritten(t, timed, filepath.Join(dir, "synthetic.jsonl.gz"), func(ev map[string]any) {
		if ev["type"] == "session_start" {
			meta, _ := ev["meta"].(map[string]any)
			if meta == nil {
				meta = map[string]any{}
			}
			meta["timing"] = "synthetic"
			ev["meta"] = meta
		}
	})
	untimedCalls := rewritten(t, timed, filepath.Join(dir, "untimed-calls.jsonl.gz"), func(ev map[string]any) {
		if ev["type"] == "tool_call" {
			delete(ev, "duration_ms")
		}
	})
	for _, tc := range []struct {
		name, param string
		sc          *scenarios.Scenario
		wantReason  string // "" = the sweep changes every strategy
		want        Fills
	}{
		{"think/timed", "params.user_think_ms", timed,
			fmt.Sprintf("user_think_ms changes nothing: all %d user pauses after the first are recorded in the trace", pauses),
			Fills{UserPauses: pauses, ToolCalls: calls}},
		{"think/synthetic", "params.user_think_ms", synth, "",
			Fills{UserPauses: pauses, UserPausesFromParams: pauses, ToolCalls: calls}},
		{"tool/timed", "params.default_tool_ms", timed,
			fmt.Sprintf("default_tool_ms changes nothing: all %d tool calls have their duration recorded in the trace", calls),
			Fills{UserPauses: pauses, ToolCalls: calls}},
		{"tool/untimed", "params.default_tool_ms", untimedCalls, "",
			Fills{UserPauses: pauses, ToolCalls: calls, UntimedToolCalls: calls}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: tc.sc,
				Spec:      SweepSpec{Param: tc.param, From: 0, To: 60000, Step: 60000},
				Overrides: runner.Overrides{Strategies: []string{"eager", "claude-code-default"}},
				Dir:       t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantReason == "" {
				if len(sw.Unchanged) != 0 {
					t.Errorf("unchanged = %+v, want none: the parameter fills every one", sw.Unchanged)
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
				if p.Fills != tc.want {
					t.Errorf("%s: counts %+v, want %+v", p.Label, p.Fills, tc.want)
				}
				if got := p.Results.Run.Counts.UserPausesFromParams; got != tc.want.UserPausesFromParams {
					t.Errorf("%s: run.counts.user_pauses_from_params = %d, want %d", p.Label, got, tc.want.UserPausesFromParams)
				}
			}
		})
	}
}

// countAfterFirstAndCalls counts, in a trace file, the user events after
// the first of each session, and the tool calls.
func countAfterFirstAndCalls(t *testing.T, path string) (pauses, calls int64) {
	t.Helper()
	seen := map[string]bool{}
	eachEvent(t, path, func(ev map[string]any) {
		switch ev["type"] {
		case "tool_call":
			calls++
		case "user":
			s, _ := ev["session"].(string)
			if seen[s] {
				pauses++
			}
			seen[s] = true
		}
	})
	return pauses, calls
}

// rewritten writes sc's trace, each event changed by edit, to path and
// returns sc reading it.
func rewritten(t *testing.T, sc *scenarios.Scenario, path string, edit func(map[string]any)) *scenarios.Scenario {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	eachEvent(t, sc.Traces[0], func(ev map[string]any) {
		edit(ev)
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
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
