package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func smallStats(t *testing.T) Stats {
	t.Helper()
	r, err := Open(filepath.Join("testdata", "small.jsonl"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := ComputeStats(r.Sessions())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSmallFixtureIsValid(t *testing.T) {
	probs, counts, err := Validate(filepath.Join("testdata", "small.jsonl"), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
	if counts.Events != 32 || counts.Sessions != 3 {
		t.Errorf("counts = %+v", counts)
	}
}

func TestStatsGolden(t *testing.T) {
	st := smallStats(t)
	var text bytes.Buffer
	if err := WriteStatsText(&text, st, 10); err != nil {
		t.Fatal(err)
	}
	golden(t, "stats.golden.txt", text.Bytes())
	js, err := json.MarshalIndent(st.Truncate(10), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "stats.golden.json", append(js, '\n'))
}

func TestStatsFigures(t *testing.T) {
	st := smallStats(t)
	checks := []struct {
		name      string
		got, want any
	}{
		{"sessions", st.Sessions, 3},
		{"events", st.Events, 32},
		{"tool calls", st.ToolCalls, 5},
		{"model requests", st.ModelRequests, 10},
		{"user turns", st.UserTurns, 4},
		{"tool searches", st.ToolSearches, 1},
		{"distinct tools", st.DistinctTools, 4},
		{"with usage", st.SessionsWithUsage, 3},
		{"with timings", st.SessionsWithTimings, 2},
		{"openers", st.Openers, []ToolCount{{"browser", "browser_navigate", 1}, {"files", "read_file", 1}, {"issues", "list_issues", 1}}},
		{"top tool", st.TopTools[0], ToolCount{"files", "read_file", 2}},
		{"calls per session", st.ToolCallsPerSession, Summary{Mean: 5.0 / 3, Median: 2, Max: 2}},
		{"turns per session", st.UserTurnsPerSession, Summary{Mean: 4.0 / 3, Median: 1, Max: 2}},
		{"statuses", st.ToolCallsByStatus, map[string]int{"ok": 4, "error": 1}},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestComputeStatsStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	seq := func(yield func(*Session, error) bool) {
		if !yield(&Session{ID: "a", Events: []Event{{Type: SessionStart}, {Type: SessionEnd}}}, nil) {
			return
		}
		yield(nil, boom)
	}
	st, err := ComputeStats(seq)
	if !errors.Is(err, boom) || st.Sessions != 1 {
		t.Errorf("ComputeStats = %d sessions, %v; want 1 and boom", st.Sessions, err)
	}
}

func TestStatsEmpty(t *testing.T) {
	var a StatsAccumulator
	st := a.Stats()
	if st.Sessions != 0 || st.ToolCallsPerSession != (Summary{}) || len(st.EventsByType) != len(KnownEventTypes) {
		t.Errorf("empty stats = %+v", st)
	}
	var b bytes.Buffer
	if err := WriteStatsText(&b, st, 5); err != nil || !bytes.Contains(b.Bytes(), []byte("(none)")) {
		t.Errorf("empty table: %v\n%s", err, b.String())
	}
}
