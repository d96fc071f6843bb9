package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/plan"
	"github.com/google/go-cmp/cmp"
)

// TestTokenScaleSweep pins params.token_scale as a sweepable stand-in gap:
// the documented sweep (docs/presets.md) runs on the embedded default
// data, every strategy's cost rises strictly with the factor, and the
// point at 1 has exactly the strategies' numbers of a plain run (the
// factor 1 changes no count).
func TestTokenScaleSweep(t *testing.T) {
	strategies := "eager,claude-code-default"
	dir := t.TempDir()
	sweepDir, runDir := filepath.Join(dir, "sweep"), filepath.Join(dir, "run")
	if out, code := runCLI(t, "sweep", "--param", "params.token_scale=1:1.3:0.1", "--strategies", strategies, "-o", sweepDir, "--bootstrap", "-1", "-q"); code != 0 {
		t.Fatalf("sweep: exit %d:\n%s", code, out)
	}
	if out, code := runCLI(t, "run", "--strategies", strategies, "-o", runDir, "--bootstrap", "-1", "-q"); code != 0 {
		t.Fatalf("run: exit %d:\n%s", code, out)
	}
	sw := readSweepJSON(t, sweepDir)
	if len(sw.Unchanged) != 0 {
		t.Errorf("unchanged = %+v: every strategy reads the counts", sw.Unchanged)
	}
	costs := map[string][]float64{}
	for _, r := range sw.Rows {
		costs[r.Strategy] = append(costs[r.Strategy], r.CostUSD.Value)
	}
	for _, s := range []string{"eager", "claude-code-default"} {
		c := costs[s]
		t.Logf("%s: cost per session %v", s, c)
		if len(c) != 4 {
			t.Fatalf("%s: %d points, want 4 (1, 1.1, 1.2, 1.3)", s, len(c))
		}
		for i := 1; i < len(c); i++ {
			if c[i] <= c[i-1] {
				t.Errorf("%s: cost %v at point %d is not above %v before it", s, c[i], i, c[i-1])
			}
		}
	}
	strategiesOf := func(path string) any {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Strategies any `json:"strategies"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r.Strategies
	}
	at1 := strategiesOf(filepath.Join(sweepDir, "params.token_scale=1", "results.json"))
	plain := strategiesOf(filepath.Join(runDir, "results.json"))
	if d := cmp.Diff(plain, at1); d != "" {
		t.Errorf("token_scale 1 changes the strategies' numbers of a plain run (-run +sweep point 1):\n%s", d)
	}
}

// sweepJSON is the part of a sweep's sweep.json the tests read.
type sweepJSON struct {
	Rows      []plan.SeriesRow `json:"rows"`
	Unchanged []plan.Unchanged `json:"unchanged"`
}

// readSweepJSON reads the sweep.json a sweep wrote into dir.
func readSweepJSON(t *testing.T, dir string) sweepJSON {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sw sweepJSON
	if err := json.Unmarshal(b, &sw); err != nil {
		t.Fatal(err)
	}
	return sw
}
