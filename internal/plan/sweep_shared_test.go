package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/traces/gen"
)

// countingFS counts the opens of each file of an fs.FS (a Stat is not
// one).
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// TestSweepDecodesTracesOnce pins that a sweep over a strategy key reads
// and decodes the traces once, not once per value (other keys change the
// model or the parameters of the replay: one replay per value).
func TestSweepDecodesTracesOnce(t *testing.T) {
	for _, tc := range []struct {
		param string
		want  int
	}{
		{"strategy.warm.max_tools", 1},
		{"model.latency.overhead_ms", 3},
	} {
		t.Run(tc.param, func(t *testing.T) {
			sc, err := scenarios.Default()
			if err != nil {
				t.Fatal(err)
			}
			emb := &countingFS{FS: defaultdata.FS(), opens: map[string]int{}}
			sw, err := Sweep(context.Background(), SweepConfig{Scenario: sc, Embedded: emb,
				Spec:      SweepSpec{Param: tc.param, From: 2, To: 6, Step: 2},
				Overrides: runner.Overrides{Strategies: []string{"eager", "claude-code-default", "copilot-cli-30"}},
				Dir:       t.TempDir(), Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			if len(sw.Points) != 3 {
				t.Fatalf("%d points, want 3", len(sw.Points))
			}
			if got := emb.opens["trace.jsonl.gz"]; got != tc.want {
				t.Errorf("the trace was opened %d times for 3 values, want %d", got, tc.want)
			}
		})
	}
}

// recorded writes a generated data set (no drift) with recorded usage
// and timings (the fidelity of the eager replay is measured) and returns
// its directory.
func recorded(t *testing.T, sessions int) string {
	t.Helper()
	p := gen.Defaults()
	p.Sessions, p.Servers, p.Drift.Servers, p.Recorded = sessions, 6, 0, true
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sharedScenario is recorded's data with a baseline that reads the swept
// keys and a matrix.
const sharedScenario = `name: shared
seed: 7
traces: [trace.jsonl.gz]
catalogs: [catalog]
model: claude-sonnet-4.5
baseline: %s
strategies: [eager, anchor-e1-budget8k, anchor-e9-warm-capped, copilot-cli-30]
matrix:
  base: claude-code-default
  vary:
    injection: [tools-array, inline]
`

// TestSharedSweepEqualsPerPoint pins that a strategy.* sweep replayed
// once for every value writes what one replay per value writes, byte for
// byte: every point's results.json (intervals, baseline comparisons,
// fidelity, digests, counts, input notes), the sweep's table and notes,
// and the plots. The baselines read the swept keys (their outcomes, and
// so every paired comparison, change with the value).
func TestSharedSweepEqualsPerPoint(t *testing.T) {
	dflt, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := recorded(t, 60)
	load := func(baseline string) *scenarios.Scenario {
		path := filepath.Join(dir, baseline+".yaml")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(sharedScenario, "%s", baseline)), 0o644); err != nil {
			t.Fatal(err)
		}
		sc, err := scenarios.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	for _, tc := range []struct {
		name string
		sc   *scenarios.Scenario
		spec SweepSpec
	}{
		{"default", dflt, SweepSpec{Param: "strategy.warm.max_tools", From: 2, To: 6, Step: 2}},
		{"budget", load("anchor-e1-budget8k"), SweepSpec{Param: "strategy.trigger.budget", From: 2000, To: 14000, Step: 6000}},
		{"matrix", load("claude-code-default-inline"), SweepSpec{Param: "strategy.warm.max_tools", From: 1, To: 9, Step: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(perPoint bool) (string, []byte, []Point) {
				out := t.TempDir()
				sw, err := Sweep(context.Background(), SweepConfig{Scenario: tc.sc, Spec: tc.spec, Embedded: defaultdata.FS(),
					Dir: out, Metrics: []string{"cost_usd", "first_reply_ms"}, Bootstrap: 200, perPoint: perPoint})
				if err != nil {
					t.Fatal(err)
				}
				doc, err := json.MarshalIndent(sweepDoc(tc.spec, sw), "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				return out, bytes.ReplaceAll(doc, []byte(out), []byte("OUT")), sw.Points
			}
			oneDir, one, pts := run(false)
			if fid := tc.sc != dflt; fid {
				for _, pt := range pts {
					if pt.Results.Run.Fidelity == nil {
						t.Errorf("%s: no fidelity: the comparison does not cover it", pt.Label)
					}
				}
			}
			eachDir, each, _ := run(true)
			if !bytes.Equal(one, each) {
				t.Errorf("sweep.json differs:\nshared:\n%s\nper value:\n%s", one, each)
			}
			files := 0
			err := filepath.WalkDir(eachDir, func(p string, e fs.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(eachDir, p)
				want, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				got, err := os.ReadFile(filepath.Join(oneDir, rel))
				if err != nil {
					return err
				}
				files++
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs between the shared replay and one replay per value", rel)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if files < 3+4 {
				t.Errorf("%d files compared, want every point's results.json and the plots", files)
			}
		})
	}
}

// sweepDoc is what defersim sweep writes as sweep.json.
func sweepDoc(spec SweepSpec, sw *SweepResult) any {
	return struct {
		Spec      SweepSpec   `json:"sweep"`
		Notes     []string    `json:"notes,omitempty"`
		Points    []Point     `json:"points"`
		Rows      []SeriesRow `json:"rows"`
		Unchanged []Unchanged `json:"unchanged,omitempty"`
		Plots     []string    `json:"plots"`
		Inputs    any         `json:"input_notes,omitempty"`
	}{spec, sw.Notes, sw.Points, sw.Rows, sw.Unchanged, sw.Plots, sw.Inputs.OrNil()}
}
