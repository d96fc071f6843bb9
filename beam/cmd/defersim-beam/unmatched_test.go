package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestSummaryWarnsUnmatchedEntries pins that defersim-beam warns, as run
// and merge do, of scenario entries that match nothing in the run's
// catalogs (run.scenario_entries_unmatched): its results carried them but
// only run and merge said so on stderr.
func TestSummaryWarnsUnmatchedEntries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []string
		warned  bool
	}{
		{"unmatched", []string{`never_defer: "book_reservaton" (did you mean "book_reservation"?)`}, true},
		{"none", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &report.Results{Sessions: 3, Run: sim.RunInfo{Model: "m", UnmatchedEntries: tc.entries},
				Strategies: []report.StrategyResult{{Name: "eager"}}}
			var stdout, stderr bytes.Buffer
			if err := summarize(&stdout, &stderr, res, nil, nil, t.TempDir(), false, summaryStyle{quiet: true}); err != nil {
				t.Fatal(err)
			}
			got := strings.Contains(stderr.String(), "defersim-beam: warning: the scenario names tools or servers the run's catalogs do not have")
			if got != tc.warned || (tc.warned && !strings.Contains(stderr.String(), tc.entries[0])) {
				t.Errorf("stderr:\n%s\nwant the warning naming the entries: %v", stderr.String(), tc.warned)
			}
		})
	}
}
