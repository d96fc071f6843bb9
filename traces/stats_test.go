package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/bounded"
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

// TestStatsOfAHugeSessionInBoundedMemory pins issue 18.8's trace stats
// half: one session of a million events took 1.43 GB, because the reader
// held the whole session before the statistics saw it. With
// ReadOptions.OnEvent the accumulator counts events as they are read: the
// statistics are those of reading whole sessions, and the heap stays
// within 64 MiB + 2 × the file (a whole session of 200,000 events holds
// several times the file).
func TestStatsOfAHugeSessionInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a session of 200,000 events")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.jsonl")
	var b strings.Builder
	b.WriteString(`{"v":1,"type":"session_start","session":"big","t":"2026-01-01T00:00:00Z"}` + "\n")
	b.WriteString(`{"v":1,"type":"session_start","session":"small","t":"2026-01-01T00:00:00Z"}` + "\n")
	for i := range 100000 {
		fmt.Fprintf(&b, `{"type":"model_request","session":"big","t":"2026-01-01T00:00:01Z","id":"r%d","usage":{"input":10,"output":1}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"tool_call","session":"big","t":"2026-01-01T00:00:02Z","call_id":"c%d","tool":"t%d","server":"s","status":"ok","args":{"path":"some/file/name.txt"}}`+"\n", i, i%50)
	}
	b.WriteString(`{"type":"tool_call","session":"small","t":"2026-01-01T00:00:02Z","call_id":"c","tool":"x","server":"s"}` + "\n")
	b.WriteString(`{"type":"session_end","session":"big","t":"2026-01-01T00:00:09Z"}` + "\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	size := int64(b.Len())
	want, err := ComputeStats(func(yield func(*Session, error) bool) {
		sessions, _, err := ReadAll(path)
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var got Stats
	_, err = bounded.Run(t, bounded.Scaled(size, 2), func() error {
		var acc StatsAccumulator
		r, err := Open(path, ReadOptions{OnEvent: func(s *Session, ev *Event, _ int) { acc.Event(s, ev) }})
		if err != nil {
			return err
		}
		defer r.Close()
		for s, err := range r.Sessions() {
			if err != nil {
				return err
			}
			if len(s.Events) != 0 {
				t.Errorf("session %s kept %d events", s.ID, len(s.Events))
			}
			acc.Add(s)
		}
		got = acc.Stats()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats read event by event differ (-whole +streamed):\n%s", diff)
	}
	if got.Events != 200004 || got.Incomplete != 1 || got.ToolCalls != 100001 {
		t.Errorf("stats %+v", got)
	}
}

// TestStatsCountsSessionsWithoutUser pins that trace stats counts the
// sessions holding no user event and says so beside the user turns: it
// printed "user turns 0" alone, and a run measured their first reply from
// no user message.
func TestStatsCountsSessionsWithoutUser(t *testing.T) {
	withUser := &Session{ID: "a", Events: []Event{{Type: SessionStart}, {Type: UserMessage}, {Type: SessionEnd}}}
	noUser := &Session{ID: "b", Events: []Event{{Type: SessionStart}, {Type: ModelRequest}, {Type: SessionEnd}}}
	for _, tc := range []struct {
		name     string
		sessions []*Session
		want     int
		wantText string // "" : the user turns row has no note
	}{
		{"all have one", []*Session{withUser}, 0, ""},
		{"one of two has none", []*Session{withUser, noUser}, 1, "(1 of 2 sessions without one: a run's first reply is measured from the first user message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := ComputeStats(func(yield func(*Session, error) bool) {
				for _, s := range tc.sessions {
					if !yield(s, nil) {
						return
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if st.NoUser != tc.want {
				t.Errorf("NoUser = %d, want %d", st.NoUser, tc.want)
			}
			var b bytes.Buffer
			if err := WriteStatsText(&b, st, 5); err != nil {
				t.Fatal(err)
			}
			var row string
			for l := range strings.SplitSeq(b.String(), "\n") {
				if strings.HasPrefix(l, "user turns") {
					row = l // the totals' row, not the per-session one below
					break
				}
			}
			if got := strings.Contains(row, "("); got != (tc.wantText != "") || !strings.Contains(row, tc.wantText) {
				t.Errorf("user turns row %q, want note %q", row, tc.wantText)
			}
		})
	}
}
