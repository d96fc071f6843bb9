package check

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestCatalogsAssumptionMoved pins that check says "moved" of the catalogs
// assumption when only its paths differ and the catalog files match by
// content: it printed "run.assumptions[catalogs].value: --catalogs: cat →
// --catalogs: b/cat" as a change while run.inputs called every file
// moved, and the path difference counted as a scenario difference (so
// --allow policy refused a policy change over moved catalogs). A catalog
// whose content changed keeps the plain change line.
func TestCatalogsAssumptionMoved(t *testing.T) {
	results := func(from string, ins ...sim.Input) *report.Results {
		r := &report.Results{}
		r.Run.Assumptions = []sim.Assumption{{Name: "catalogs", Value: "--catalogs: " + from, Source: "run"}}
		r.Run.Inputs = ins
		return r
	}
	cat := func(p, sha string) sim.Input {
		return sim.Input{Kind: "catalog", Path: p, SHA256: sha, Bytes: 20, Server: "gh", Version: "1.0"}
	}
	for _, tc := range []struct {
		name      string
		base, cur *report.Results
		want      []string
		scenario  []string
	}{
		{"moved", results("cat", cat("cat/gh@1.0.json", "cc")), results("b/cat", cat("b/cat/gh@1.0.json", "cc")),
			[]string{"run.assumptions[catalogs].value: moved (same content): --catalogs: cat → --catalogs: b/cat",
				"run.inputs[cat/gh@1.0.json]: moved → b/cat/gh@1.0.json (same content)"},
			nil},
		{"moved and changed", results("cat", cat("cat/gh@1.0.json", "cc")), results("b/cat", cat("b/cat/gh@1.0.json", "dd")),
			[]string{"run.assumptions[catalogs].value: --catalogs: cat → --catalogs: b/cat",
				"run.inputs[cat/gh@1.0.json → b/cat/gh@1.0.json].sha256: cc → dd"},
			[]string{"catalogs --catalogs: cat vs --catalogs: b/cat"}},
		{"a file more", results("cat", cat("cat/gh@1.0.json", "cc")),
			results("b/cat", cat("b/cat/gh@1.0.json", "cc"), cat("b/cat/gh@2.0.json", "ee")),
			[]string{"run.assumptions[catalogs].value: --catalogs: cat → --catalogs: b/cat",
				"run.inputs[cat/gh@1.0.json]: moved → b/cat/gh@1.0.json (same content)",
				"run.inputs[b/cat/gh@2.0.json]: only in current"},
			[]string{"catalogs --catalogs: cat vs --catalogs: b/cat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := structuralDiff(tc.base, tc.cur); !slices.Equal(got, tc.want) {
				t.Errorf("structuralDiff:\n got %q\nwant %q", got, tc.want)
			}
			if got := ScenarioDifferences(tc.base, tc.cur); !slices.Equal(got, tc.scenario) {
				t.Errorf("ScenarioDifferences:\n got %q\nwant %q", got, tc.scenario)
			}
		})
	}
}
