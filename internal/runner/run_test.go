package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

func defaultConfig(t *testing.T, strategies []string, workers int) Config {
	t.Helper()
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, Overrides{Strategies: strategies}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = workers
	cfg.Bootstrap = 200
	return cfg
}

func resultsBytes(t *testing.T, out *Output) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "results.json")
	if err := report.WriteResults(p, out.Results); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunDeterministicAcrossWorkers pins that the same scenario and seed
// give byte-identical results.json whatever the number of workers.
func TestRunDeterministicAcrossWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	strategies := []string{"eager", "anchor-e1-budget8k", "anchor-e9-warm-capped", "claude-code-default"}
	var prev []byte
	for _, w := range []int{1, 2, 3} {
		out, err := Run(context.Background(), defaultConfig(t, strategies, w))
		if err != nil {
			t.Fatalf("workers=%d: %v", w, err)
		}
		b := resultsBytes(t, out)
		if prev != nil && !bytes.Equal(prev, b) {
			t.Fatalf("results differ between worker counts (%d vs previous)", w)
		}
		prev = b
		c := out.Info.Counts
		if c.SessionsRead == 0 || c.SessionsReplayed != c.SessionsRead || c.SessionsSkipped != 0 {
			t.Errorf("counts = %+v, want every session read and replayed", c)
		}
	}
}
