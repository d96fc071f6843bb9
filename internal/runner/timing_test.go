package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/traces"
)

// TestRunCountsSessionsByTiming pins that a run counts the sessions it
// reads by their session_start meta timing (results.json
// run.counts.sessions_by_timing), that the count is the same from a whole
// run, merged shards and a resumed run (byte-identical results.json), and
// that synthetic sessions, whose pauses are params.user_think_ms, get a
// finding naming the parameter: a trace mixing recorded and synthetic
// sessions gave session_ms figures with no word of it.
func TestRunCountsSessionsByTiming(t *testing.T) {
	cfg := smallConfig(t, []string{"eager"}, 30)
	cfg.Bootstrap = 50
	path := cfg.Traces[0].Path
	sessions, _, err := traces.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	marks := []string{"recorded", "synthetic", "partial", "", "synthetic", "hand-set"}
	var want traces.Timing
	var buf bytes.Buffer
	w := traces.NewWriter(&buf, false)
	for i, s := range sessions {
		mark := marks[i%len(marks)]
		switch mark {
		case "recorded":
			want.Recorded++
		case "synthetic":
			want.Synthetic++
		case "partial":
			want.Partial++
		case "":
			want.Unmarked++
		default:
			want.Other++
		}
		for _, ev := range s.Events {
			if ev.Type == traces.SessionStart && mark != "" {
				fields := *ev.EnsureStart() // ev's own: the session's event keeps its meta
				fields.Meta = map[string]string{"timing": mark}
				ev.StartFields = &fields
			}
			if err := w.Write(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := whole.Info.Counts.SessionsByTiming; got != want {
		t.Fatalf("sessions_by_timing = %+v, want %+v", got, want)
	}
	wantJSON := []byte(`"sessions_by_timing": {`)
	if b := resultsBytes(t, whole); !bytes.Contains(b, wantJSON) {
		t.Fatalf("results.json has no sessions_by_timing")
	}
	var note string
	for _, f := range report.Findings(whole.Results) {
		if bytes.Contains([]byte(f), []byte("timing=synthetic")) {
			note = f
		}
	}
	if note == "" || !bytes.Contains([]byte(note), []byte("params.user_think_ms (10000 ms)")) || !bytes.Contains([]byte(note), []byte("session_ms")) {
		t.Errorf("findings have no synthetic-timing note naming user_think_ms and session_ms: %q", note)
	}

	// Shards, through their files, merge to the same results.
	_, files := runShards(t, cfg, 2)
	merged, err := Merge(context.Background(), files, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultsBytes(t, whole), resultsBytes(t, merged)) {
		t.Errorf("merged shards' results differ from the whole run's")
	}

	// An interrupted run resumed gives the same results.
	c := cfg
	c.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	c.CheckpointEvery = 5
	interruptAt(t, c, 12)
	c.Resume = true
	resumed, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resultsBytes(t, whole), resultsBytes(t, resumed)) {
		t.Errorf("resumed results differ from the whole run's")
	}
}
