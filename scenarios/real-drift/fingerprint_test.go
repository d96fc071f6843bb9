package realdrift

import (
	"context"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// TestModelFingerprintIgnoresMetadataDrift pins issue 16's finding that
// fingerprint keying searched again for tools whose only change was in
// annotations. It replays the scenario with tool fingerprints covering
// what the model sees (the default) and the whole served tool, and checks:
//
//   - in a session whose every catalog change is a release that changed no
//     tool's model-visible definition, the name- and fingerprint-keyed
//     twins agree on every metric under the model scope, but not in all
//     such sessions under the served scope;
//   - the model scope never needs more searches than the served one, nor
//     sees more stale calls, and needs fewer searches in all.
func TestModelFingerprintIgnoresMetadataDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 400 sessions under 5 strategies, twice")
	}
	cats := shareddata.Path(t, "catalogs")
	cat, err := catalog.LoadDir(cats)
	if err != nil {
		t.Fatal(err)
	}
	metaOnly := metadataOnlyReleases(cat)
	if len(metaOnly) == 0 {
		t.Fatal("no metadata-only release among the scenario's servers")
	}
	onlyMeta := sessionsWithOnly(t, metaOnly)
	if len(onlyMeta) == 0 {
		t.Fatal("no session whose catalog changes are all metadata-only releases")
	}
	model := replayed{replay(t, cats, catalog.FingerprintModel).Run.Outcomes}
	served := replayed{replay(t, cats, catalog.FingerprintServed).Run.Outcomes}
	pairs := [][2]string{{"inline-name", "inline-fingerprint"}, {"tools-array-name", "tools-array-fingerprint"}}
	for _, pair := range pairs {
		nk, fk := model.index(pair[0]), model.index(pair[1])
		differServed := 0
		for i, id := range model.o.SessionIDs {
			if !onlyMeta[id] {
				continue
			}
			for m := range sim.NumMetrics {
				if a, b := model.o.Values[nk][m][i], model.o.Values[fk][m][i]; a != b {
					t.Errorf("%s (metadata-only changes): model scope: %s %s %v vs %s %v", id, sim.Metrics[m].Name, pair[0], a, pair[1], b)
					break
				}
			}
			if served.o.Values[fk][sim.MSearches][i] != served.o.Values[nk][sim.MSearches][i] {
				differServed++
			}
		}
		if differServed == 0 {
			t.Errorf("%s: under the served scope no metadata-only session searched more: the check above proves nothing", pair[1])
		}
		var ms, ss float64
		for i, id := range model.o.SessionIDs {
			m, s := model.o.Values[fk][sim.MSearches][i], served.o.Values[fk][sim.MSearches][i]
			if m > s {
				t.Errorf("%s: %s: %v searches with model fingerprints, %v with served ones", id, pair[1], m, s)
			}
			ms, ss = ms+m, ss+s
			if m, s := model.o.Values[nk][sim.MStaleWarmCalls][i], served.o.Values[nk][sim.MStaleWarmCalls][i]; m > s {
				t.Errorf("%s: %s: %v stale-warm calls with model fingerprints, %v with served ones", id, pair[0], m, s)
			}
		}
		if ms >= ss {
			t.Errorf("%s: %v searches with model fingerprints, %v with served ones: want fewer", pair[1], ms, ss)
		}
		t.Logf("%s: searches %v (model) vs %v (served); %d sessions with metadata-only changes, %d of which searched more under served", pair[1], ms, ss, len(onlyMeta), differServed)
	}
}

type replayed struct{ o *sim.Outcomes }

func (r replayed) index(name string) int {
	for i, s := range r.o.Strategies {
		if s.Name == name {
			return i
		}
	}
	panic("no strategy " + name)
}

// replay runs the scenario over the catalogs in cats with tool
// fingerprints covering scope (2 workers, 50 bootstrap replicates).
func replay(t *testing.T, cats string, scope catalog.FingerprintScope) *runner.Output {
	t.Helper()
	sc, err := scenarios.Load(scenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Params.ColdCallProb != 0 || sc.Params.SelectProb != 1 {
		t.Fatalf("scenario params changed (cold_call_prob %v, select_prob %v): the guarantees the tests check need 0 and 1",
			sc.Params.ColdCallProb, sc.Params.SelectProb)
	}
	sc.CatalogFingerprint = scope
	cfg, err := runner.FromScenario(sc, runner.Overrides{Catalogs: []string{cats}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers, cfg.Bootstrap = 2, 50
	out, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// metadataOnlyReleases returns "server@version" of every release whose
// tools served on both sides keep their model-visible fingerprints.
func metadataOnlyReleases(cat *catalog.Catalog) map[string]bool {
	out := map[string]bool{}
	for _, key := range cat.ServerNames() {
		vs := cat.Versions[key]
		for i := 1; i < len(vs); i++ {
			same := true
			for _, t := range vs[i].Tools {
				if old := vs[i-1].Tool(t.Name); old != nil && old.ModelFingerprint != t.ModelFingerprint {
					same = false
				}
			}
			if same {
				out[key+"@"+vs[i].Version] = true
			}
		}
	}
	return out
}

// sessionsWithOnly returns the ids of the trace's sessions that record at
// least one catalog change, all of them to releases in releases.
func sessionsWithOnly(t *testing.T, releases map[string]bool) map[string]bool {
	t.Helper()
	sessions, _, err := traces.ReadAll(gen.TraceFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range sessions {
		any, all := false, true
		for _, ev := range s.Events {
			if ev.Type == traces.CatalogChange {
				any = true
				all = all && releases[ev.Server+"@"+ev.Version()]
			}
		}
		if any && all {
			out[s.ID] = true
		}
	}
	return out
}
