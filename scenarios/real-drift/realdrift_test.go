package realdrift

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

const scenarioFile = "../real-drift.yaml"

// upgrade is one servers.<name>.upgrades[] entry.
type upgrade struct {
	Server       string
	To           string
	AfterSession int64
}

// TestScenarioMatchesSchedule checks that the scenario's servers block is
// the schedule the generator wrote beside the trace (upgrades.yaml), so the
// versions the replay starts sessions on are the ones the trace names.
func TestScenarioMatchesSchedule(t *testing.T) {
	sc, err := scenarios.Load(scenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	var got []upgrade
	for _, name := range sortedKeys(sc.Servers) {
		for _, u := range sc.Servers[name].Upgrades {
			if u.AfterSession == nil {
				t.Fatalf("%s: upgrade to %s is not after_session", name, u.To)
			}
			got = append(got, upgrade{name, u.To, *u.AfterSession})
		}
	}
	data, err := os.ReadFile(gen.UpgradesFile)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Servers map[string]struct {
			Upgrades []struct {
				To           string `yaml:"to"`
				AfterSession int64  `yaml:"after_session"`
			} `yaml:"upgrades"`
		} `yaml:"servers"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	var want []upgrade
	for _, name := range sortedKeys(file.Servers) {
		for _, u := range file.Servers[name].Upgrades {
			want = append(want, upgrade{name, u.To, u.AfterSession})
		}
	}
	if len(want) == 0 {
		t.Fatal("upgrades.yaml lists no upgrade")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("scenario servers block differs from %s (-want +got):\n%s", gen.UpgradesFile, d)
	}
}

// keptCatalogRef is the catalog the kept trace names: ../shared/data/catalogs
// of the repository root (the --catalogs of docs/real-drift.md's command),
// relative to this directory, as trace gen --catalogs writes it.
const keptCatalogRef = "../../../shared/data/catalogs"

// TestRegenerationIsExact regenerates the trace from params.yaml over the
// shared catalogs and checks every file is byte-identical to the one kept
// here (the command in docs/real-drift.md).
func TestRegenerationIsExact(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(gen.ParamsFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := gen.ParseParams(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gen.NewOver(cat, p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, gen.WriteOptions{CatalogRef: keptCatalogRef}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{gen.ParamsFile, gen.TraceFile, gen.UpgradesFile} {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("%s: regenerated file differs from the one kept (%d vs %d bytes); regenerate with the command in docs/real-drift.md", name, len(got), len(want))
		}
	}
}

// TestRealDriftTradeOff replays the scenario and checks what the model
// guarantees on real drift: name keying serves stale schemas, some of them
// malformed; fingerprint keying never does, and pays for it with at least
// as many searches in every session, more in all; the two keyings differ
// only in sessions a server changed under.
func TestRealDriftTradeOff(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 400 sessions under 5 strategies")
	}
	out := replay(t, shareddata.Path(t, "catalogs"), catalog.FingerprintModel)
	o := out.Run.Outcomes
	if c := out.Info.Counts; c.SessionsSkipped != 0 || c.SessionsReplayed == 0 {
		t.Fatalf("counts %+v: want every session replayed", c)
	}
	changed := sessionsWithChanges(t)
	idx := map[string]int{}
	for i, s := range o.Strategies {
		idx[s.Name] = i
	}
	sum := func(s, m int) float64 {
		x := 0.0
		for _, v := range o.Values[s][m] {
			x += v
		}
		return x
	}
	eager := idx["eager"]
	for _, m := range []int{sim.MSearches, sim.MMalformedCalls, sim.MStaleWarmCalls} {
		if v := sum(eager, m); v != 0 {
			t.Errorf("eager: %s = %v, want 0", sim.Metrics[m].Name, v)
		}
	}
	for _, pair := range [][2]string{{"inline-name", "inline-fingerprint"}, {"tools-array-name", "tools-array-fingerprint"}} {
		nk, fk := idx[pair[0]], idx[pair[1]]
		stale, valid, malformed := sum(nk, sim.MStaleWarmCalls), sum(nk, sim.MStaleValidCalls), sum(nk, sim.MMalformedCalls)
		ignored := sum(nk, sim.MIgnoredArguments)
		if stale == 0 || malformed == 0 {
			t.Errorf("%s: stale-warm calls %v, malformed %v; want both > 0 on real drift", pair[0], stale, malformed)
		}
		// With no blind cold calls every malformed call is a stale one, and
		// a stale call is valid, malformed or has an ignored argument.
		if malformed+ignored != stale-valid {
			t.Errorf("%s: malformed %v + ignored %v != stale-warm %v - stale-valid %v", pair[0], malformed, ignored, stale, valid)
		}
		for _, m := range []int{sim.MStaleWarmCalls, sim.MMalformedCalls, sim.MIgnoredArguments} {
			if v := sum(fk, m); v != 0 {
				t.Errorf("%s: %s = %v, want 0", pair[1], sim.Metrics[m].Name, v)
			}
		}
		if fs, ns := sum(fk, sim.MSearches), sum(nk, sim.MSearches); fs <= ns {
			t.Errorf("%s searches %v, %s %v: want more under fingerprint keying", pair[1], fs, pair[0], ns)
		}
		for i, id := range o.SessionIDs {
			fs, ns := o.Values[fk][sim.MSearches][i], o.Values[nk][sim.MSearches][i]
			if fs < ns {
				t.Errorf("%s: %s searches %v < %s %v", id, pair[1], fs, pair[0], ns)
			}
			if changed[id] {
				continue
			}
			for m := range sim.NumMetrics {
				if a, b := o.Values[nk][m][i], o.Values[fk][m][i]; a != b {
					t.Errorf("%s (no catalog change): %s %s %v vs %s %v", id, sim.Metrics[m].Name, pair[0], a, pair[1], b)
					break
				}
			}
		}
		t.Logf("%s: %v stale-warm calls (%v valid, %v malformed), %v searches; %s: %v searches; %d sessions",
			pair[0], stale, valid, malformed, sum(nk, sim.MSearches), pair[1], sum(fk, sim.MSearches), len(o.SessionIDs))
	}
}

// sessionsWithChanges returns the ids of the trace's sessions that record
// a catalog change.
func sessionsWithChanges(t *testing.T) map[string]bool {
	t.Helper()
	sessions, _, err := traces.ReadAll(gen.TraceFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range sessions {
		for _, ev := range s.Events {
			if ev.Type == traces.CatalogChange {
				out[s.ID] = true
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
