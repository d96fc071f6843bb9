package runner

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/defersim/defersim/scenarios"
)

// TestCatalogsForRefusesEmbeddedFallback pins which runs over traces
// without a catalog of their own stop (NoCatalogError) rather than
// replay over a scenario's catalogs written for the embedded sample
// sessions: --traces on disk under a scenario whose catalogs are all
// embedded (the default, or a file naming only embedded: ones). A
// scenario naming catalogs on disk, --catalogs, and the embedded traces
// themselves keep their catalogs.
func TestCatalogsForRefusesEmbeddedFallback(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "conv.jsonl")
	if err := os.WriteFile(trace, []byte(`{"v":1,"type":"session_start","session":"s1","t":"2026-01-01T00:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	def, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	parse := func(catalogs string) *scenarios.Scenario {
		sc, err := scenarios.Parse([]byte("name: s\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: "+catalogs+"\nstrategies: [eager]\n"), "s.yaml", dir)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	for _, tc := range []struct {
		name     string
		sc       *scenarios.Scenario
		ov       Overrides
		refused  bool
		wantFrom string
	}{
		{"default scenario, --traces", def, Overrides{Traces: []string{trace}}, true, ""},
		{"embedded-only scenario file, --traces", parse("[embedded:catalog]"), Overrides{Traces: []string{trace}}, true, ""},
		{"embedded and disk traces", def, Overrides{Traces: []string{"embedded:trace.jsonl.gz", trace}}, true, ""},
		{"--catalogs embedded:catalog", def, Overrides{Traces: []string{trace}, Catalogs: []string{"embedded:catalog"}}, false, CatalogsFromFlag},
		{"scenario catalogs on disk", parse("[" + dir + "]"), Overrides{Traces: []string{trace}}, false, CatalogsFromScenario},
		{"embedded traces", def, Overrides{Traces: []string{"embedded:trace.jsonl.gz"}}, false, CatalogsFromScenario},
		{"the scenario's own traces", def, Overrides{}, false, CatalogsFromScenario},
	} {
		t.Run(tc.name, func(t *testing.T) {
			traces := tc.sc.Traces // as RunCatalogs picks them
			if len(tc.ov.Traces) > 0 {
				traces = tc.ov.Traces
			}
			paths, from, err := catalogsFor(tc.sc, tc.ov, traces)
			var nc NoCatalogError
			if got := errors.As(err, &nc); got != tc.refused {
				t.Fatalf("refused %v (err %v), want %v", got, err, tc.refused)
			}
			if tc.refused {
				if !slices.Equal(nc.Sample, tc.sc.Catalogs) {
					t.Errorf("the error names %v, want the scenario's %v", nc.Sample, tc.sc.Catalogs)
				}
				return
			}
			if from != tc.wantFrom || len(paths) == 0 {
				t.Errorf("catalogs %v from %q, want from %q", paths, from, tc.wantFrom)
			}
		})
	}
}
