package calibrate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/defersim/defersim/traces"
)

// TestScanGroupsStopsAtARepeatedSession pins that a session id read twice
// across all of a calibration's inputs (a trace given twice, one whose
// session repeats inside it, a trace both calibrated on and --test, two
// files sharing an id) stops the calibration with a duplicate_session line
// error naming both places, as run stops; before, each copy was fitted, or
// one fitted on and the other judged on (the first and last cases were
// calibrated without a word).
func TestScanGroupsStopsAtARepeatedSession(t *testing.T) {
	dir := t.TempDir()
	a, b, rep := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "rep.jsonl")
	writeSessions(t, a, "s0", "s1", "s2")
	writeSessions(t, b, "s3", "s1")
	writeEndedSessions(t, rep, "s0", "s1", "s0")
	tests := []struct {
		name string
		d    Data
		want string
	}{
		{"a trace given twice", Data{Traces: []string{a, a}, FitOn: FitOn{Kind: FitShare, Share: 0.7}},
			a + `:1: session "s0" starts again: already read at ` + a + `:1 (duplicate session id: is the file given twice?)`},
		{"a session repeated inside a trace", Data{Traces: []string{rep}, FitOn: FitOn{Kind: FitEven}},
			rep + `:5: session "s0" starts again: already read at ` + rep + `:1 (duplicate session id)`},
		{"a trace fitted on and --test", Data{Traces: []string{a}, Test: []string{a}, FitOn: FitOn{Kind: FitAll}},
			a + `:1: session "s0" starts again: already read at ` + a + `:1 (duplicate session id: is the file given twice?)`},
		{"two traces sharing an id", Data{Traces: []string{a, b}, FitOn: FitOn{Kind: FitOdd}},
			b + `:2: session "s1" starts again: already read at ` + a + `:2 (duplicate session id)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := scanGroups(&tt.d)
			var le *traces.LineError
			if !errors.As(err, &le) || le.Kind != traces.KindDuplicateSession {
				t.Fatalf("err = %v, want a %s line error", err, traces.KindDuplicateSession)
			}
			if !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), "judge the fit on a session it fitted on") {
				t.Errorf("err =\n%v\nwant it to start\n%s\nand say why it stops", err, tt.want)
			}
		})
	}
	// Distinct ids across the same inputs pass, and every pass reads the
	// sessions afresh: the check is per calibration, not per read.
	d := Data{Traces: []string{a}, Test: []string{filepath.Join(dir, "t.jsonl")}, FitOn: FitOn{Kind: FitAll}}
	writeSessions(t, d.Test[0], "t0")
	for pass := range 2 {
		if groups, nTest, err := scanGroups(&d); err != nil || nTest != 1 || groups[0].fit != 3 {
			t.Errorf("pass %d over distinct sessions: %+v, %d test sessions, %v", pass, groups, nTest, err)
		}
	}
}

// writeEndedSessions writes a trace of sessions with ids, each a
// session_start and a session_end (two lines).
func writeEndedSessions(t *testing.T, path string, ids ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := traces.NewWriter(f, false)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, id := range ids {
		for _, ev := range []traces.Event{{Type: traces.SessionStart, Session: id, T: at, StartFields: &traces.StartFields{Model: "claude-sonnet-4-5-20250929"}},
			{Type: traces.SessionEnd, Session: id, T: at}} {
			if err := w.Write(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
