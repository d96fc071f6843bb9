package defersim_test

// Regression benchmarks of decoding and replay, for benchstat
// (docs/performance.md):
//
//	make bench                 # writes bench.txt (-count 6, -benchmem)
//	benchstat old.txt bench.txt
//
// All benchmarks share one generated data set (catalog + trace file of
// benchSessions sessions) so the cost of replay over decoding is a ratio of
// two lines of the same run.

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	segjson "github.com/segmentio/encoding/json"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

const benchSessions = 2000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// TestMain removes the generated benchmark data when the run ends.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchData(b testing.TB) (tracePath, catalogDir string) {
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
	want, err := ceilingLoop(path) // every line is an event
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int64
	cpu := startCPU()
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
		if events = r.Counts().Events; events != want {
			b.Fatalf("read %d events, the file has %d", events, want)
		}
		r.Close()
	}
	reportRates(b, events, cpu)
}

// BenchmarkDecodeCeiling is the reference DecodeOnly is measured against:
// the plainest loop that reads the same file — the standard library's gzip,
// bufio line splitting and github.com/segmentio/encoding/json into
// traces.Event, reused — on one core (GOMAXPROCS 1), checking nothing and
// keeping nothing. scripts/bench-ratios.sh prints DecodeOnly / ceiling.
func BenchmarkDecodeCeiling(b *testing.B) {
	path, _ := benchData(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var events int64
	cpu := startCPU()
	for b.Loop() {
		n, err := ceilingLoop(path)
		if err != nil {
			b.Fatal(err)
		}
		events = n
	}
	reportRates(b, events, cpu)
}

// ceilingLoop decodes every line of the gzip'd trace at path into one
// reused event and returns the number of lines decoded.
func ceilingLoop(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), traces.DefaultMaxLineBytes)
	var ev traces.Event
	var n int64
	for sc.Scan() {
		ev = traces.Event{}
		if err := segjson.Unmarshal(sc.Bytes(), &ev); err != nil {
			return n, err
		}
		n++
	}
	return n, sc.Err()
}

// startCPU collects the garbage the benchmark's setup left (generating the
// trace, building the engine, counting the file's lines) and returns the
// process's CPU time: the operations measured then pay the collection of
// their own garbage only. Without it a benchmark of few operations (make
// bench runs 3) was charged a share of its setup's collection, which
// varied with what ran before it.
func startCPU() float64 {
	runtime.GC()
	return processCPU()
}

// reportRates reports events per second of wall time and the CPU seconds
// (every core) per operation since cpu0 — the latter is less sensitive to
// other jobs on a shared machine.
func reportRates(b *testing.B, events int64, cpu0 float64) {
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if cpu := processCPU(); cpu > 0 {
		b.ReportMetric((cpu-cpu0)/float64(b.N), "cpu-sec/op")
	}
}

// benchStrategies returns n distinct strategies built from the presets.
func benchStrategies(b testing.TB, n int) []sim.Strategy {
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

// benchEngine builds an engine over the benchmark catalog.
func benchEngine(b testing.TB, strategies int, tokenizer string) *sim.Engine {
	b.Helper()
	_, cdir := benchData(b)
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
	params := presets.DefaultParams()
	if tokenizer != "" {
		params.Tokenizer = tokenizer
	}
	eng, err := sim.NewEngine(sim.Config{Strategies: benchStrategies(b, strategies), Model: model,
		Params: params, Catalog: cat, Seed: 1, Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	return eng
}

// firstN yields at most n sessions of seq (n ≤ 0: all).
func firstN(seq iter.Seq2[*traces.Session, error], n int) iter.Seq2[*traces.Session, error] {
	return func(yield func(*traces.Session, error) bool) {
		i := 0
		for s, err := range seq {
			if (n > 0 && i == n) || !yield(s, err) {
				return
			}
			i++
		}
	}
}

// replayBench reads the trace as run does, each session's need built as
// its events are decoded (sim.BuildNeeds, Engine.RunNeeds; its first
// sessions when sessions > 0), and replays it under eng with the
// bounded-memory summary the CLI uses. One replay before the measured ones
// fills the engine's memos (rankers, rankings, server sets), so that every
// operation measured is the steady state, whatever their number: the first
// replay of an engine costs more (BenchmarkReplayCold measures it).
func replayBench(b *testing.B, eng *sim.Engine, workers, sessions int) {
	path, _ := benchData(b)
	replayOnce(b, eng, path, workers, sessions)
	b.ReportAllocs()
	var events int64
	cpu := startCPU()
	for b.Loop() {
		events = replayOnce(b, eng, path, workers, sessions)
	}
	reportRates(b, events, cpu)
}

// replayOnce is one replay of replayBench; it returns the events read.
func replayOnce(b *testing.B, eng *sim.Engine, path string, workers, sessions int) int64 {
	var r *traces.Reader
	needs := eng.BuildNeeds(func(onEvent func(*traces.Session, *traces.Event, int)) iter.Seq2[*traces.Session, error] {
		var err error
		if r, err = traces.Open(path, traces.ReadOptions{OnEvent: onEvent}); err != nil {
			b.Fatal(err)
		}
		return firstN(r.Sessions(), sessions)
	})
	// As defersim run (internal/runner): the streaming summary is built
	// only if read.
	if _, err := eng.RunNeeds(context.Background(), needs, sim.RunOptions{Workers: workers, SummaryOnDemand: true,
		Summary: sim.SummaryOptions{ExactSessions: sim.DefaultExactSessions, FidelityPairs: sim.DefaultFidelityPairs,
			EqualTolerance: report.EqualTolerance, Seed: 1}}); err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	return r.Counts().Events
}

// BenchmarkReplay decodes the trace and replays it under 1, 8 and 32
// strategies (both cores), in the steady state (see replayBench).
func BenchmarkReplay(b *testing.B) {
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("strategies=%d", n), func(b *testing.B) {
			replayBench(b, benchEngine(b, n, ""), 0, 0)
		})
	}
}

// BenchmarkReplayCold is a run from scratch, as defersim run does one
// (results not written): every operation builds the engine (catalog
// loaded, schemas counted) and replays the trace under 8 strategies with
// its memos empty.
func BenchmarkReplayCold(b *testing.B) {
	b.Run("strategies=8", func(b *testing.B) {
		path, _ := benchData(b)
		b.ReportAllocs()
		var events int64
		cpu := startCPU()
		for b.Loop() {
			events = replayOnce(b, benchEngine(b, 8, ""), path, 0, 0)
		}
		reportRates(b, events, cpu)
	})
}

// BenchmarkReplayScaling replays 8 strategies on one and on two cores
// (GOMAXPROCS 1 and 2: decoding, replay workers and collection share them),
// and over a tenth of the sessions (time should scale with the sessions).
func BenchmarkReplayScaling(b *testing.B) {
	eng := benchEngine(b, 8, "")
	for _, tc := range []struct {
		name            string
		procs, sessions int
	}{
		{"procs=1", 1, 0},
		{"procs=2", 2, 0},
		{"sessions=200", 0, benchSessions / 10},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
			}
			replayBench(b, eng, 0, tc.sessions)
		})
	}
}

// BenchmarkReplayTokenizer replays 8 strategies with the real tokenizer and
// with the bytes/3.5 estimator: the share of the replay spent tokenising
// message text.
func BenchmarkReplayTokenizer(b *testing.B) {
	for _, tok := range []string{"o200k_base", "bytes/3.5"} {
		b.Run("tokenizer="+tok, func(b *testing.B) {
			replayBench(b, benchEngine(b, 8, tok), 0, 0)
		})
	}
}

// BenchmarkNewEngine builds the engine, which counts every distinct tool
// schema once (keyed by content): "schemas" is the number of distinct
// contents counted, "tokenizations" the number of times the tokenizer ran —
// equal, whatever the number of strategies.
func BenchmarkNewEngine(b *testing.B) {
	for _, n := range []int{1, 32} {
		b.Run(fmt.Sprintf("strategies=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var st tokens.MemoStats
			for b.Loop() {
				eng := benchEngine(b, n, "")
				if m, ok := eng.ContentCounter().(*tokens.Memo); ok {
					st = m.Stats()
				}
			}
			b.ReportMetric(float64(st.Entries), "schemas")
			b.ReportMetric(float64(st.Misses), "tokenizations")
		})
	}
}

// TestEachContentTokenisedOnce pins the tokenizer memo: replaying sessions
// under several strategies runs the tokenizer once per distinct schema,
// name or system prompt (one worker, so no two misses race).
func TestEachContentTokenisedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and replays a trace")
	}
	path, _ := benchData(t)
	eng := benchEngine(t, 4, "")
	m, ok := eng.ContentCounter().(*tokens.Memo)
	if !ok {
		t.Fatalf("content counter is %T, want a memo", eng.ContentCounter())
	}
	before := m.Stats()
	if before.Misses != int64(before.Entries) {
		t.Fatalf("engine build: %d tokenizer runs for %d distinct contents", before.Misses, before.Entries)
	}
	for range 2 {
		r, err := traces.Open(path, traces.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Run(context.Background(), firstN(r.Sessions(), 100), sim.RunOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	after := m.Stats()
	if after.Misses != int64(after.Entries) || after.Hits <= before.Hits {
		t.Fatalf("after two replays: %d tokenizer runs for %d distinct contents (%d hits)", after.Misses, after.Entries, after.Hits)
	}
}
