package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestServersDifferenceNotBlamedOnCatalogs pins the refusal of two runs of
// a catalog upgrade whose scenarios differ in a servers.NAME.upgrades entry
// (what results files do not record) and whose catalogs differ too: it
// named the catalogs as the difference and said "replay both runs with the
// same catalogs", although the fingerprint leaves the catalogs out (two
// runs of one scenario over other catalogs compare). It now says the
// difference is in permissions or servers and keeps the catalogs as a
// detail. A catalogs difference beside a recorded one (the seed) keeps the
// remedy that names both.
func TestServersDifferenceNotBlamedOnCatalogs(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	run := func(fp, catalogs, sha string, seed int64) *report.Results {
		r := results(fp, map[string]map[string]report.Distribution{"a": d, "b": d})
		r.Run.Seed = seed
		r.Run.Assumptions = []sim.Assumption{{Name: "catalogs", Value: "the scenario's catalogs: " + catalogs, Source: "run"}}
		r.Run.Inputs = []sim.Input{{Kind: "trace", Path: "t.jsonl.gz", SHA256: "tt"},
			{Kind: "catalog", Path: catalogs + "/cdt@x.json", SHA256: sha, Server: "cdt", Version: "x"}}
		return r
	}
	for _, tc := range []struct {
		name      string
		base, cur *report.Results
		want, not []string
	}{
		{"servers and catalogs differ", run("f", "catA", "aa", 1), run("g", "catAB", "bb", 1),
			[]string{"(the difference is in permissions or servers, which results files do not record: a servers.NAME.upgrades entry is one",
				"\n    catalogs: the scenario's catalogs: catA vs the scenario's catalogs: catAB\n",
				"replay both runs with the same permissions and servers blocks"},
			[]string{"replay both runs with the same catalogs"}},
		{"seed and catalogs differ", run("f", "catA", "aa", 1), run("g", "catAB", "bb", 7),
			[]string{"seed: 1 vs 7", "replay both runs with the same seed and catalogs"},
			[]string{"permissions or servers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inc := checkComparable(tc.base, tc.cur, nil, Allow{Policy: true})
			if inc == nil {
				t.Fatal("comparable, want incomparable")
			}
			msg := inc.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(msg, w) {
					t.Errorf("message holds %q:\n%s", w, msg)
				}
			}
		})
	}
}
