package defersim_test

// Regression benchmarks of decoding and replay, for benchstat:
//
//	make bench    # go test -run '^$' -bench . -count 10 . > new.txt
//	benchstat old.txt new.txt
//
// All benchmarks share one generated data set (catalog + trace file) so the
// cost of replay over decoding is one ratio.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/defersim/defersim/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/catalog"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

const benchSessions = 2000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchData(b *testing.B) (tracePath, catalogDir string) {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "defersim-bench-")
		if benchErr != nil {
			return
		}
		p := gen.Defaults()
		p.Sessions = benchSessions
		var g *gen.Generator
		if g, benchErr = gen.New(p); benchErr != nil {
			return
		}
		_, benchErr = g.WriteDir(benchDir, gen.WriteOptions{})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return filepath.Join(benchDir, gen.TraceFile), filepath.Join(benchDir, gen.CatalogDir)
}

// BenchmarkDecodeOnly reads and decodes the trace file: the floor every
// replay pays.
func BenchmarkDecodeOnly(b *testing.B) {
	path, _ := benchData(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int64
	for b.Loop() {
		r, err := traces.Open(path, traces.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range r.Sessions() {
			if err != nil {
				b.Fatal(err)
			}
		}
		events = r.Counts().Events
		r.Close()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// benchStrategies returns n distinct strategies built from the presets.
func benchStrategies(b *testing.B, n int) []sim.Strategy {
	b.Helper()
	var out []sim.Strategy
	names := presets.StrategyNames()
	for variant := 0; len(out) < n; variant++ {
		for _, name := range names {
			if len(out) == n {
				break
			}
			s, err := presets.Strategy(name)
			if err != nil {
				b.Fatal(err)
			}
			if variant > 0 {
				s.Name = fmt.Sprintf("%s-v%d", name, variant)
				if variant%2 == 1 {
					s.Warm.Key = "fingerprint"
				} else {
					s.Warm.MaxTools = 4 + variant
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// BenchmarkReplay decodes the trace and replays it under 1, 8 and 32 strategies.
func BenchmarkReplay(b *testing.B) {
	path, cdir := benchData(b)
	cat, err := catalog.LoadDir(cdir)
	if err != nil {
		b.Fatal(err)
	}
	model, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		b.Fatal(err)
	}
	reg, err := runner.DefaultRegistry()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("strategies=%d", n), func(b *testing.B) {
			eng, err := sim.NewEngine(sim.Config{Strategies: benchStrategies(b, n), Model: model,
				Params: presets.DefaultParams(), Catalog: cat, Seed: 1, Registry: reg})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var events int64
			for b.Loop() {
				r, err := traces.Open(path, traces.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Run(context.Background(), r.Sessions(), sim.RunOptions{}); err != nil {
					b.Fatal(err)
				}
				events = r.Counts().Events
				r.Close()
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
