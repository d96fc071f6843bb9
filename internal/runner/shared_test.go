package runner

import (
	"bytes"
	"context"
	"io/fs"
	"reflect"
	"sync"
	"testing"
)

// openCounter counts the opens of each file of an fs.FS (a Stat is not
// one).
type openCounter struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *openCounter) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func (c *openCounter) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// TestRunSharedEqualsRun pins that runs sharing one replay (RunShared)
// give what each run alone gives, byte for byte, with statistics streamed
// past --exact-sessions (the baseline comparisons then come from the
// streamed pairs: each run's baseline is its own, here one whose values
// vary), runs that repeat another's strategies, and passes bounded by
// sharedStrategies (the traces are read once per pass).
func TestRunSharedEqualsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	defer func(n int) { sharedStrategies = n }(sharedStrategies)
	sharedStrategies = 9 // two runs of 4 strategies a pass
	base := defaultConfig(t, []string{"eager", "anchor-e1-budget8k", "anchor-e9-warm-capped", "claude-code-default"}, 0)
	base.Baseline = "claude-code-default"
	base.ExactSessions = 40
	counter := &openCounter{FS: base.Traces[0].FS, opens: map[string]int{}}
	base.Traces[0].FS = counter
	var cfgs []Config
	for _, v := range []int{1, 3, 3, 7, 9} {
		c := base
		c.Strategies = append(c.Strategies[:0:0], base.Strategies...)
		for i := range c.Strategies {
			s := &c.Strategies[i]
			switch s.Name {
			case "claude-code-default", "anchor-e9-warm-capped":
				s.Warm.MaxTools = v
			case "anchor-e1-budget8k":
				s.Trigger.Budget = int64(1000 * v)
			}
		}
		cfgs = append(cfgs, c)
	}
	var got [][]byte
	err := RunShared(context.Background(), cfgs, func(i int, out *Output) error {
		if i != len(got) {
			t.Fatalf("output %d after %d", i, len(got))
		}
		if !out.Run.Outcomes.Sampled() {
			t.Fatalf("run %d kept every session: the streamed statistics are not compared", i)
		}
		got = append(got, resultsBytes(t, out))
		want, err := Run(context.Background(), cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.InputNotes(), want.InputNotes()) {
			t.Errorf("run %d: input notes %+v, alone %+v", i, out.InputNotes(), want.InputNotes())
		}
		if !bytes.Equal(got[i], resultsBytes(t, want)) {
			t.Errorf("run %d: results.json differs from the run's alone", i)
		}
		// The versions each session replayed, from which results.json
		// names the catalog versions no session replayed: a shared
		// replay's collector dropped them, so a sweep never warned.
		if g, w := out.Run.Resolution.VersionsReplayed, want.Run.Resolution.VersionsReplayed; len(w) == 0 || !reflect.DeepEqual(g, w) {
			t.Errorf("run %d: versions replayed %v, alone %v", i, g, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cfgs) {
		t.Fatalf("%d outputs for %d runs", len(got), len(cfgs))
	}
	if !bytes.Equal(got[1], got[2]) || bytes.Equal(got[0], got[1]) {
		t.Error("runs of equal strategies should give equal results, runs of other values other results")
	}
	// 3 passes of shared replay, 5 runs alone.
	if n := counter.opens["trace.jsonl.gz"]; n != 3+5 {
		t.Errorf("the trace was opened %d times, want 3 (one per pass) + 5 (the runs alone)", n)
	}
}

// TestRunSharedRefusesOtherInputs pins that runs whose inputs differ (not
// only their strategies) are not replayed together.
func TestRunSharedRefusesOtherInputs(t *testing.T) {
	a := defaultConfig(t, []string{"eager"}, 0)
	for name, change := range map[string]func(c *Config){
		"seed":           func(c *Config) { c.Seed++ },
		"model":          func(c *Config) { c.Model.Latency.OverheadMs++ },
		"exact sessions": func(c *Config) { c.ExactSessions = 5 },
		"shard":          func(c *Config) { c.Shard = Shard{Index: 1, Count: 2} },
	} {
		b := a
		change(&b)
		err := RunShared(context.Background(), []Config{a, b}, func(int, *Output) error { return nil })
		if err == nil {
			t.Errorf("%s: runs replayed together", name)
		}
	}
}
