package runner

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestRunCountsIncompleteSessions pins that sessions without a session_end
// (a log cut short, a session split across files) are counted in the run's
// counts (results.json run.counts.sessions_incomplete) instead of being
// replayed as if complete without a word; a trace whose sessions all end
// gives no such key, so complete traces' results are unchanged.
func TestRunCountsIncompleteSessions(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop int // session_end lines dropped, from the first session on
	}{
		{"every session ends", 0},
		{"one session never ends", 1},
		{"three sessions never end", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, []string{"eager"}, 8)
			cfg.Bootstrap = -1
			path := cfg.Traces[0].Path
			sessions, _, err := traces.ReadAll(path)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			w := traces.NewWriter(&buf, false)
			for i, s := range sessions {
				for _, ev := range s.Events {
					if ev.Type == traces.SessionEnd && i < tc.drop {
						continue
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
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := out.Info.Counts
			if c.SessionsIncomplete != int64(tc.drop) || c.SessionsRead != int64(len(sessions)) || c.SessionsReplayed != int64(len(sessions)) {
				t.Errorf("counts: %d incomplete, %d read, %d replayed; want %d, %d, %d",
					c.SessionsIncomplete, c.SessionsRead, c.SessionsReplayed, tc.drop, len(sessions), len(sessions))
			}
			if got := bytes.Contains(resultsBytes(t, out), []byte(`"sessions_incomplete"`)); got != (tc.drop > 0) {
				t.Errorf("results.json has sessions_incomplete: %v, want %v", got, tc.drop > 0)
			}
		})
	}
}
