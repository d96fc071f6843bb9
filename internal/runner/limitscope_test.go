package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// TestScenarioLimitNotCarriedToOtherTraces pins that a scenario's
// max_unresolved above the default (calibrate writes one for the held-out
// sessions it replays) applies to the scenario's own traces only: with
// --traces and no --max-unresolved the run holds the other traces to the
// default and says so in its notes. A calibrated telecom scenario
// (max_unresolved 0.89) replayed the airline traces with 16.6% of their
// calls unresolved and exit 0, where a plain run stops above 1%.
func TestScenarioLimitNotCarriedToOtherTraces(t *testing.T) {
	flag := 0.2
	for _, tc := range []struct {
		name      string
		limit     string // the scenario's max_unresolved line ("" for none)
		traces    []string
		flag      *float64
		wantLimit float64 // the limit the run applies (nil: the default)
		wantNote  bool
	}{
		{"own traces keep the scenario's limit", "max_unresolved: 0.89", nil, nil, 0.89, false},
		{"other traces: the default", "max_unresolved: 0.89", []string{"embedded:trace.jsonl.gz"}, nil, DefaultMaxUnresolved, true},
		{"other traces with --max-unresolved", "max_unresolved: 0.89", []string{"embedded:trace.jsonl.gz"}, &flag, flag, false},
		{"a limit below the default is kept", "max_unresolved: 0.005", []string{"embedded:trace.jsonl.gz"}, nil, 0.005, false},
		{"no limit", "", []string{"embedded:trace.jsonl.gz"}, nil, DefaultMaxUnresolved, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenarios.Parse([]byte("name: s\nseed: 1\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\n"+
				tc.limit+"\nstrategies: [eager]\n"), "s.yaml", t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := FromScenario(sc, Overrides{Traces: tc.traces, MaxUnresolved: tc.flag}, defaultdata.FS())
			if err != nil {
				t.Fatal(err)
			}
			got := DefaultMaxUnresolved
			if cfg.MaxUnresolved != nil {
				got = *cfg.MaxUnresolved
			}
			if got != tc.wantLimit {
				t.Errorf("limit %v, want %v", got, tc.wantLimit)
			}
			note := ""
			for _, n := range cfg.Notes {
				if n.Name == "max_unresolved" {
					note = n.Source
				}
			}
			if (note != "") != tc.wantNote {
				t.Errorf("note %q, want one: %v", note, tc.wantNote)
			}
			if tc.wantNote && !strings.Contains(note, "--max-unresolved 0.89") {
				t.Errorf("note does not say how to keep the scenario's limit: %q", note)
			}
		})
	}
}
