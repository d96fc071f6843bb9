package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
)

// TestShippedScenariosRun pins that every scenario shipped in scenarios/
// runs as shipped (issue 15: example-custom.yaml failed with "stat
// scenarios/catalogs"): it loads, its inputs exist, every call resolves,
// and the run completes. A scenario over ../shared/data skips without it
// (fails under CI=true).
func TestShippedScenariosRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every shipped scenario")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.yaml"))
	if err != nil || len(files) < 4 {
		t.Fatalf("shipped scenarios: %v %v", files, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			sc, err := scenarios.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(file) == "default.yaml" {
				if sc, err = scenarios.Default(); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range sc.Catalogs {
				if strings.Contains(filepath.ToSlash(c), "shared/data") {
					shareddata.Dir(t) // skips (fails in CI) without the shared data
				}
			}
			if err := sc.CheckPaths(); err != nil {
				t.Fatalf("not runnable as shipped: %v", err)
			}
			out := runScenario(t, sc, Overrides{})
			if r := out.Info.Resolution; r == nil || r.Calls == 0 || r.Unresolved != 0 {
				t.Errorf("resolution = %+v, want every call resolved", r)
			}
		})
	}
}
