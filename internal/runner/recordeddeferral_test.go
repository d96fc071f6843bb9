package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/traces/gen"
)

// editTrace rewrites cfg's one trace into a new file (rewriteTrace): edit
// gets every event, decoded, with the index of its session (by
// session_start, from 0) and returns the events to write in its place.
func editTrace(t *testing.T, cfg *Config, edit func(ev map[string]any, session int) []map[string]any) {
	t.Helper()
	rewriteTrace(t, cfg, func(line []byte, k int) [][]byte {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, e := range edit(ev, k) {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	})
}

// recordedConfig is smallConfig over generated sessions that record
// usage and timings (gen.Params.Recorded).
func recordedConfig(t *testing.T, strategies []string, n int) Config {
	t.Helper()
	p := gen.Defaults()
	p.Sessions, p.Recorded = n, true
	return genConfig(t, strategies, p)
}

// TestFidelityLeavesOutSessionsRecordedWithDeferral pins that run.fidelity
// compares only the sessions recorded eager (traces.RecordedDeferred, the
// rule calibrate leaves sessions out by): a session whose session_start
// records a deferral rule is counted (run.fidelity
// sessions_recorded_other_strategy, run.resolution
// sessions_recorded_deferred) and said where fidelity is shown, and
// shards merged and a resumed run give results byte-identical to the
// single run's. (Before, run compared its eager replay with what a
// deferring runtime sent, a meaningless error that looked clean.)
func TestFidelityLeavesOutSessionsRecordedWithDeferral(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions several times")
	}
	const n = 40
	base := recordedConfig(t, []string{"eager", "claude-code-default"}, n)
	base.Bootstrap = 50
	editTrace(t, &base, func(ev map[string]any, _ int) []map[string]any { return []map[string]any{ev} })
	all, err := Run(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	f0 := all.Results.Run.Fidelity
	if f0 == nil || f0.Requests == 0 || f0.OtherStrategy != 0 {
		t.Fatalf("eager traces: fidelity %+v, want requests compared and none left out", f0)
	}

	cfg := base
	for _, strategy := range []string{"eager", ""} { // both read as eager
		c := cfg
		editTrace(t, &c, func(ev map[string]any, k int) []map[string]any {
			if ev["type"] == "session_start" {
				ev["recorded_strategy"] = strategy
			}
			return []map[string]any{ev}
		})
		out, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if f := out.Results.Run.Fidelity; !cmp.Equal(f, f0) {
			t.Errorf("recorded_strategy %q: fidelity %+v, want %+v", strategy, f, f0)
		}
	}
	editTrace(t, &cfg, func(ev map[string]any, k int) []map[string]any {
		if ev["type"] == "session_start" && k%2 == 1 {
			ev["recorded_strategy"] = "deferred"
		}
		return []map[string]any{ev}
	})
	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := single.Results.Run.Fidelity
	if f == nil || f.OtherStrategy != n/2 || f.Requests == 0 || f.Requests >= f0.Requests {
		t.Fatalf("fidelity %+v, want %d sessions left out and fewer requests compared than %d", f, n/2, f0.Requests)
	}
	if r := single.Results.Run.Resolution; r == nil || r.RecordedDeferred != n/2 {
		t.Fatalf("resolution %+v, want %d sessions recorded with deferral", r, n/2)
	}
	const note = "20 sessions recorded under another strategy were not compared"
	var sum bytes.Buffer
	if err := report.Summary(&sum, single.Results); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.String(), note) {
		t.Errorf("summary does not say %q:\n%s", note, sum.String())
	}
	want := resultsBytes(t, single)

	checkSplitRuns(t, cfg, want, splitRuns{shards: 3, stopAfter: 15, checkpointEvery: 5})
}

// TestRunSaysDeferralChangesAreNotReplayed pins that deferral_change
// events, which the replay reads but does not use, are counted
// (run.counts events_not_replayed, sessions_with_events_not_replayed), warned
// about and stated as a report finding, and that traces without them say
// nothing. (Before, they were decoded and dropped without a word.)
func TestRunSaysDeferralChangesAreNotReplayed(t *testing.T) {
	const n = 12
	const note = "3 of 12 sessions read hold 4 deferral_change events: the replay does not use them"
	for _, tc := range []struct {
		name             string
		events, sessions int64
	}{
		{"none", 0, 0},
		{"in three sessions", 4, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, n)
			cfg.Bootstrap = 20
			editTrace(t, &cfg, func(ev map[string]any, k int) []map[string]any {
				out := []map[string]any{ev}
				if tc.events == 0 || ev["type"] != "session_start" || k%4 != 0 {
					return out
				}
				dc := map[string]any{"type": "deferral_change", "session": ev["session"], "t": ev["t"], "added": []string{"a"}}
				out = append(out, dc)
				if k == 0 {
					out = append(out, dc)
				}
				return out
			})
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := out.Results.Run.Counts
			if c.EventsNotReplayed != tc.events || c.SessionsWithEventsNotReplayed != tc.sessions {
				t.Fatalf("counts %d events in %d sessions, want %d in %d", c.EventsNotReplayed, c.SessionsWithEventsNotReplayed, tc.events, tc.sessions)
			}
			warned := strings.Contains(strings.Join(out.InputNotes().Warnings(""), "\n"), note)
			found := strings.Contains(strings.Join(report.Findings(out.Results), "\n"), note)
			if want := tc.events > 0; warned != want || found != want {
				t.Fatalf("warned %v, report finding %v, want %v (%q)", warned, found, want, note)
			}
		})
	}
}
