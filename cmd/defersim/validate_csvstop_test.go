package main

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestValidateCSVSaysRunWouldStop pins that `trace validate --format csv`
// says when run would stop on well-formed traces: the CSV listed problems
// only, so over a trace naming no catalog (exit 2, "run would stop" in
// text, run.stops in JSON) it was its header alone, as a valid trace's. A
// final row of kind run_would_stop now carries run's reason; a trace run
// replays has no such row.
func TestValidateCSVSaysRunWouldStop(t *testing.T) {
	_, trace := writeNoCatalogTrace(t)
	reason := runner.NoCatalogError{Sample: []string{"embedded:catalog"}}.Error()
	tests := []struct {
		name string
		args []string
		code int
		stop bool // a run_would_stop row, with reason
	}{
		{"no catalog", nil, 2, true},
		{"format alone", []string{"--no-catalogs"}, 0, false},
		{"catalogs given", []string{"--catalogs", "embedded:catalog"}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := cliRun(t, append([]string{"trace", "validate", "--format", "csv", trace}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s%s", code, tc.code, out, errs)
			}
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) == 0 || strings.Join(recs[0], ",") != "file,line,kind,reason" {
				t.Fatalf("not the CSV (%v):\n%s", err, out)
			}
			var stops []string
			for _, r := range recs[1:] {
				if r[2] == verdictRunWouldStop {
					stops = append(stops, r[3])
				}
			}
			switch {
			case tc.stop && (len(stops) != 1 || stops[0] != reason || recs[len(recs)-1][2] != verdictRunWouldStop):
				t.Errorf("want a last row run_would_stop with %q:\n%s", reason, out)
			case !tc.stop && len(stops) != 0:
				t.Errorf("want no run_would_stop row:\n%s", out)
			}
		})
	}
}
