package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestScenarioContextWindowIsTheOneCounted pins that a scenario's own
// model.context_window (a long-context option of the model) is the window
// the requests are counted against and the one results.json states: the
// same trace flags eager's requests over claude-sonnet-4.5's 200,000
// tokens and none over a 1,000,000-token window, and run.assumptions
// states each window with what reads it. The assumption said "not read …
// nothing else reads it" (no percent trigger), so a user could not see
// which window the overflow warnings were judged against.
func TestScenarioContextWindowIsTheOneCounted(t *testing.T) {
	dir := t.TempDir()
	cats, trace := writeOverflowFixture(t, dir, 120000)
	for _, tc := range []struct {
		window   int64
		requests int64 // eager's requests over it
	}{
		{200000, 4},
		{1000000, 0},
	} {
		t.Run(fmt.Sprint(tc.window), func(t *testing.T) {
			yaml := fmt.Sprintf("name: w\ntraces: [%s]\ncatalogs: [%s]\nmodel: {preset: claude-sonnet-4.5, context_window: %d}\n"+
				"strategies: [eager]\nbaseline: eager\n", filepath.Base(trace), filepath.Base(cats), tc.window)
			path := filepath.Join(dir, fmt.Sprintf("w%d.yaml", tc.window))
			if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, fmt.Sprint("out", tc.window))
			stdout, stderr, code := cliRun(t, "run", path, "--bootstrap", "-1", "-o", out)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			res, err := report.ReadResults(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got int64
			if c := res.Strategies[0].ContextOverflow; c != nil {
				got = c.Requests
				if c.Window != tc.window {
					t.Errorf("context_overflow.context_window = %d, want %d", c.Window, tc.window)
				}
			}
			if got != tc.requests {
				t.Errorf("eager: %d requests over a window of %d, want %d", got, tc.window, tc.requests)
			}
			if warned := strings.Contains(stderr, "requests over the context window"); warned != (tc.requests > 0) {
				t.Errorf("run warned of an overflow: %v, want %v\n%s", warned, tc.requests > 0, stderr)
			}
			stated := false
			for _, a := range res.Run.Assumptions {
				if a.Name == "context_window" {
					stated = a.Value == fmt.Sprint(tc.window) && strings.Contains(a.Source, "context_overflow")
					if !stated {
						t.Errorf("assumption context_window = %q (%s), want %d, read by the overflow count", a.Value, a.Source, tc.window)
					}
				}
			}
			if !stated {
				t.Errorf("no context_window assumption states %d", tc.window)
			}
		})
	}
}
