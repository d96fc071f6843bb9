package sim_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// BenchmarkEngineRun replays decoded sessions (held in memory) under the
// first 8 strategy presets with the bytes/3.5 estimator: the replay engine
// alone, without decoding or tokenising, with the run options defersim run
// uses (benchRunOptions). It reports the time per session and strategy.
func BenchmarkEngineRun(b *testing.B) {
	cat, sessions := genTrace(b, 300)
	eng := benchEngine(b, cat)
	all := func(yield func(*traces.Session, error) bool) {
		for _, s := range sessions {
			if !yield(s, nil) {
				return
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := eng.Run(context.Background(), all, benchRunOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sessions)*benchStrategies), "ns/session-strategy")
}

// benchRunOptions are the options defersim run (internal/runner) replays
// with, on one worker: the default summary, built only if read
// (SummaryOnDemand), so that the collector costs what it costs in a run.
// Without them a benchmark measures the per-session filing of every
// series value, which a run of at most DefaultExactSessions sessions
// never does.
func benchRunOptions() sim.RunOptions {
	return sim.RunOptions{Workers: 1, SummaryOnDemand: true,
		Summary: sim.SummaryOptions{ExactSessions: sim.DefaultExactSessions, FidelityPairs: sim.DefaultFidelityPairs,
			EqualTolerance: report.EqualTolerance, Seed: 1}}
}

// BenchmarkManyServers replays 100 generated sessions over catalogs of 10
// and 120 servers under the first 8 strategy presets, each operation with
// a new engine (as a run: its rankers built, its memos empty). With many
// servers, the corpora of tool search are large and many (one per
// registry and set of deferred tools); each tool's search terms are
// derived once per run and shared (sim.DocMemo), and directories are
// memoised past 64 servers.
func BenchmarkManyServers(b *testing.B) {
	for _, servers := range []int{10, 120} {
		p := gen.Defaults()
		p.Sessions, p.Servers = 100, servers
		cat, sessions := genTraceWith(b, p)
		all := func(yield func(*traces.Session, error) bool) {
			for _, s := range sessions {
				if !yield(s, nil) {
					return
				}
			}
		}
		b.Run(fmt.Sprintf("servers=%d", servers), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				eng := benchEngine(b, cat)
				if _, err := eng.Run(context.Background(), all, sim.RunOptions{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sessions)*benchStrategies), "ns/session-strategy")
		})
	}
}

// genTrace generates a catalog and a trace of n sessions.
func genTrace(t testing.TB, n int) (*catalog.Catalog, []*traces.Session) {
	t.Helper()
	p := gen.Defaults()
	p.Sessions = n
	return genTraceWith(t, p)
}

// genTraceWith generates the catalog and sessions of p.
func genTraceWith(t testing.TB, p gen.Params) (*catalog.Catalog, []*traces.Session) {
	t.Helper()
	dir := t.TempDir()
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

// BenchmarkLongSession replays one long session (a generated session's
// turns repeated, with fresh request and call ids) under the first 8
// strategy presets, at two lengths. It reports the CPU per event: a
// request's cost must not grow with the session, so the two figures
// should be about equal (before the conversation was hashed apart from
// the static part, every tools[] change rehashed the whole conversation,
// and 4x the events cost about 16x the time). The events=N cases use
// Sonnet 4.5 (the anthropic cache); cache=openai/events=N use GPT-4o, whose
// openai cache wrote every prefix of the prompt on every request before
// it kept one expiry per prompt lineage.
func BenchmarkLongSession(b *testing.B) {
	cat, sessions := genTrace(b, 3)
	for _, m := range []struct{ prefix, model string }{{"", "claude-sonnet-4.5"}, {"cache=openai/", "gpt-4o"}} {
		eng := benchEngineModel(b, cat, m.model)
		for _, events := range []int{5000, 20000} {
			long := repeatSession(sessions[0], events)
			b.Run(fmt.Sprintf("%sevents=%d", m.prefix, events), func(b *testing.B) {
				one := func(yield func(*traces.Session, error) bool) { yield(long, nil) }
				for b.Loop() {
					if _, err := eng.Run(context.Background(), one, sim.RunOptions{Workers: 1}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(long.Events)), "ns/event")
			})
		}
	}
}

// repeatSession returns s with its events between the start and the end
// repeated until it has about n events; ids are made unique per copy.
func repeatSession(s *traces.Session, n int) *traces.Session {
	body := s.Events[1:]
	var end []traces.Event
	if k := len(body); k > 0 && body[k-1].Type == traces.SessionEnd {
		body, end = body[:k-1], body[k-1:]
	}
	out := &traces.Session{ID: s.ID, Events: []traces.Event{s.Events[0]}}
	for k := 0; len(out.Events) < n; k++ {
		for _, ev := range body {
			for _, id := range []*string{&ev.ID, &ev.Request, &ev.CallID} {
				if *id != "" {
					*id = fmt.Sprintf("%s-%d", *id, k)
				}
			}
			out.Events = append(out.Events, ev)
		}
	}
	out.Events = append(out.Events, end...)
	return out
}

// benchStrategies is how many strategy presets the engine benchmarks replay.
const benchStrategies = 8

// benchEngine builds the benchmarks' engine: the first 8 strategy presets,
// Sonnet 4.5, the bytes/3.5 estimator (no tokenising), seed 1.
func benchEngine(b *testing.B, cat *catalog.Catalog) *sim.Engine {
	b.Helper()
	return benchEngineModel(b, cat, "claude-sonnet-4.5")
}

// benchEngineModel is benchEngine with the model preset named.
func benchEngineModel(b *testing.B, cat *catalog.Catalog, modelName string) *sim.Engine {
	b.Helper()
	params := presets.DefaultParams()
	params.Tokenizer = "bytes/3.5"
	return presetEngine(b, cat, modelName, params)
}

// presetEngine builds an engine over cat replaying the first 8 strategy
// presets (benchStrategies) with the model preset named, params and seed 1.
func presetEngine(tb testing.TB, cat *catalog.Catalog, modelName string, params sim.Params) *sim.Engine {
	tb.Helper()
	reg, err := runner.DefaultRegistry()
	if err != nil {
		tb.Fatal(err)
	}
	model, err := presets.Model(modelName)
	if err != nil {
		tb.Fatal(err)
	}
	var strategies []sim.Strategy
	for _, name := range presets.StrategyNames()[:benchStrategies] {
		s, err := presets.Strategy(name)
		if err != nil {
			tb.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: params, Catalog: cat, Seed: 1, Registry: reg})
	if err != nil {
		tb.Fatal(err)
	}
	return eng
}
