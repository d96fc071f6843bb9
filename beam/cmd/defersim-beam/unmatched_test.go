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

// TestSummaryWarnsUnreplayedEntries pins that defersim-beam warns, as run
// and merge do, of list entries no replayed catalog version serves
// (run.scenario_entries_unreplayed): its results carry them (the run's
// state records the versions serving each entry), and stderr says them.
func TestSummaryWarnsUnreplayedEntries(t *testing.T) {
	entry := sim.UnreplayedEntry{Strategy: "mine", Key: "never_defer", Entry: "query-docs",
		Serving: []string{"upstash__context7-mcp@2.1.0"}, Replayed: []string{"upstash__context7-mcp@1.0.14"}}
	for _, tc := range []struct {
		name    string
		entries []sim.UnreplayedEntry
	}{
		{"unreplayed", []sim.UnreplayedEntry{entry}},
		{"none", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &report.Results{Sessions: 3, Run: sim.RunInfo{Model: "m", UnreplayedEntries: tc.entries},
				Strategies: []report.StrategyResult{{Name: "eager"}}}
			var stdout, stderr bytes.Buffer
			if err := summarize(&stdout, &stderr, res, nil, nil, t.TempDir(), false, summaryStyle{quiet: true}); err != nil {
				t.Fatal(err)
			}
			want := `defersim-beam: warning: list entries that no catalog version the sessions replayed serves`
			line := `strategy mine: never_defer[0]: "query-docs": served by upstash__context7-mcp@2.1.0 only (the sessions replayed upstash__context7-mcp@1.0.14)`
			if got := strings.Contains(stderr.String(), want) && strings.Contains(stderr.String(), line); got != (len(tc.entries) > 0) {
				t.Errorf("stderr:\n%s\nwant the warning naming the entry: %v", stderr.String(), len(tc.entries) > 0)
			}
		})
	}
}
