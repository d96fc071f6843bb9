package plan

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
)

// TestGrowthFromADirectoryThatAddsNothing pins that --growth-from a
// directory whose every server is in the catalog already is refused
// before any replay: each size replayed today's catalog, noted "the pool
// ran out", and the breakdowns called every rule never breaking down,
// growth 1.00 from tools=N to tools=N.
func TestGrowthFromADirectoryThatAddsNothing(t *testing.T) {
	sc := small(t, 3)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	pool := filepath.Join(filepath.Dir(sc.File), "catalog")
	_, _, err = Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 2}, Pool: pool, Seed: 1, Dir: t.TempDir()})
	const want = " adds no server: every server of it is in the catalog already ("
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "leave out --growth-from to grow with generated servers") {
		t.Fatalf("err %v, want %q and what to do", err, want)
	}
}
