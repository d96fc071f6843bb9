package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestServersDifferenceNotBlamedOnCatalogs pins the refusal of two runs of
// a catalog upgrade whose scenarios differ in a servers.NAME.upgrades entry
// and whose catalogs differ too: it named the catalogs as the difference
// and said "replay both runs with the same catalogs", although the
// fingerprint leaves the catalogs out (two runs of one scenario over other
// catalogs compare). Files of this build record the servers block
// (run.servers, run.scenario_fingerprint_except_servers): a difference in
// it alone is refused with --allow servers as the remedy, and compared
// with it. Files that do not record it (an earlier build's) say that no
// recorded part differs and keep the catalogs as a detail. A catalogs
// difference beside a recorded one (the seed) keeps the remedy that names
// both.
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
	// upgraded is run g over catAB with its servers block recorded: an
	// upgrade of cdt to y, its fingerprint without the block except.
	upgraded := func(except string) *report.Results {
		r := run("g", "catAB", "bb", 1)
		r.Run.FingerprintExceptServers = except
		r.Run.Servers = []sim.ScenarioServer{{Server: "cdt", Upgrades: []sim.ScenarioUpgrade{{To: "y", AfterSession: 3}}}}
		return r
	}
	for _, tc := range []struct {
		name       string
		base, cur  *report.Results
		allow      Allow
		comparable bool
		want, not  []string
	}{
		{"servers recorded: refused without --allow servers", run("f", "catA", "aa", 1), upgraded("f"), Allow{Policy: true}, false,
			[]string{"differ in their scenarios' servers blocks", "cdt upgrades x → y after session 3 (not in the baseline's scenario)", "pass --allow servers"},
			[]string{"same catalogs", "permissions"}},
		{"servers recorded: compared with --allow servers", run("f", "catA", "aa", 1), upgraded("f"), Allow{Servers: true}, true, nil, nil},
		{"servers and more differ: --allow servers is not enough", run("f", "catA", "aa", 1), upgraded("h"), Allow{Servers: true}, false,
			[]string{"(no part the results files record differs", "cdt upgrades x → y"},
			[]string{"pass --allow servers"}},
		{"servers not recorded, catalogs differ", run("f", "catA", "aa", 1), run("g", "catAB", "bb", 1), Allow{Policy: true, Servers: true}, false,
			[]string{"(no part the results files record differs: the difference is in a part they do not record, such as the servers block of a file written before",
				"\n    catalogs: the scenario's catalogs: catA vs the scenario's catalogs: catAB (the catalogs are not part of the fingerprint)\n",
				"replay both runs with this build and the same scenario"},
			[]string{"replay both runs with the same catalogs"}},
		// A seed difference beside a recorded servers change: the remedy
		// named the seed alone, leaving the servers change to a second
		// refusal.
		{"seed and servers differ", run("f", "catA", "aa", 1), func() *report.Results { r := upgraded("h"); r.Run.Seed = 7; return r }(), Allow{Servers: true}, false,
			[]string{"seed: 1 vs 7", "cdt upgrades x → y", "replay both runs with the same seed", "; the servers blocks differ too, which --allow servers accepts once nothing else does"},
			nil},
		{"seed and catalogs differ", run("f", "catA", "aa", 1), run("g", "catAB", "bb", 7), Allow{Policy: true}, false,
			[]string{"seed: 1 vs 7", "replay both runs with the same seed and catalogs"},
			[]string{"permissions or servers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inc := checkComparable(tc.base, tc.cur, nil, tc.allow)
			if tc.comparable {
				if inc != nil {
					t.Fatalf("incomparable, want comparable: %v", inc)
				}
				return
			}
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
