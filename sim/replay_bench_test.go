package sim_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// BenchmarkEngineRun replays decoded sessions (held in memory) under the
// first 8 strategy presets with the bytes/3.5 estimator: the replay engine
// alone, without decoding or tokenising. It reports the time per session
// and strategy.
func BenchmarkEngineRun(b *testing.B) {
	cat, sessions := genTrace(b, 300)
	reg, err := runner.DefaultRegistry()
	if err != nil {
		b.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		b.Fatal(err)
	}
	var strategies []sim.Strategy
	for _, name := range presets.StrategyNames()[:8] {
		s, err := presets.Strategy(name)
		if err != nil {
			b.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	params := presets.DefaultParams()
	params.Tokenizer = "bytes/3.5"
	eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: params, Catalog: cat, Seed: 1, Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	all := func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := eng.Run(context.Background(), all, sim.RunOptions{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sessions)*len(strategies)), "ns/session-strategy")
}

// genTrace generates a catalog and a trace of n sessions.
func genTrace(t testing.TB, n int) (*catalog.Catalog, []*traces.Session) {
	t.Helper()
	dir := t.TempDir()
	p := gen.Defaults()
	p.Sessions = n
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadDir(filepath.Join(dir, gen.CatalogDir))
	if err != nil {
		t.Fatal(err)
	}
	r, err := traces.Open(filepath.Join(dir, gen.TraceFile), traces.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var sessions []*traces.Session
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	return cat, sessions
}
