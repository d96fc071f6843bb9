package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runsummary"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestSummaryWarnsContextOverflow pins that defersim-beam warns, in
// defersim run's words, of the strategies whose requests exceed the
// model's context window (results.json strategies[].context_overflow):
// before, results.json and the report carried the count and the launcher
// printed nothing. A run without overflow prints no such warning.
func TestSummaryWarnsContextOverflow(t *testing.T) {
	over := &sim.ContextOverflow{Window: 20000, Requests: 7, Sessions: 2, MaxInput: 31000, MaxSession: "s-2"}
	for _, tc := range []struct {
		name     string
		overflow *sim.ContextOverflow
		warned   bool
	}{
		{"overflow", over, true},
		{"none", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &report.Results{Sessions: 3, Run: sim.RunInfo{Model: "m"},
				Strategies: []report.StrategyResult{{Name: "eager", ContextOverflow: tc.overflow}, {Name: "lazy"}}}
			var stdout, stderr bytes.Buffer
			if err := summarize(&stdout, &stderr, res, nil, nil, t.TempDir(), false, summaryStyle{quiet: true}); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			runsummary.WarnContextOverflow(&want, "defersim-beam", res)
			got := strings.Contains(stderr.String(), "defersim-beam: warning: requests over the context window")
			if got != tc.warned || (tc.warned && !strings.Contains(stderr.String(), want.String())) {
				t.Errorf("stderr:\n%s\nwant the warning %v:\n%s", stderr.String(), tc.warned, want.String())
			}
			if tc.warned && !strings.Contains(want.String(), "eager sends 7 model requests over it in 2 of 3 sessions") {
				t.Errorf("the warning does not name eager's count: %s", want.String())
			}
		})
	}
}
