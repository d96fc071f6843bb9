package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces/gen"
)

var shardStrategies = []string{"eager", "anchor-e1-budget8k", "claude-code-default"}

// smallConfig is the default scenario over a generated trace of n sessions
// (faster than the embedded 350).
func smallConfig(t *testing.T, strategies []string, n int) Config {
	t.Helper()
	p := gen.Defaults()
	p.Sessions = n
	cfg := genConfig(t, strategies, p)
	cfg.Bootstrap = 200
	return cfg
}

// TestShardMergeEqualsSingleRun pins that merging the shard states of a run
// gives byte-identical results.json to a single run: with every session
// kept exactly, and with the statistics streamed (sketched quantiles,
// sampled bootstrap), since every streamed part merges exactly. Each
// shard's results record the shard (run.shard); the merged results, like
// the single run's, record none.
func TestShardMergeEqualsSingleRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default several times")
	}
	for _, tc := range []struct {
		name   string
		exact  int
		shards int
		// unresolved drops one server's catalog files, so that calls do
		// not resolve (allowed): the resolution, its tool lists
		// included, must merge exactly too.
		unresolved bool
		// models gives the sessions several recorded models (and none):
		// their counts must merge exactly too.
		models bool
	}{
		{"exact", 0, 3, false, false},
		{"streamed", 25, 4, false, false},
		{"one shard", 25, 1, false, false},
		{"unresolved calls", 0, 3, true, false},
		{"several recorded models", 25, 3, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, shardStrategies, 100)
			cfg.ExactSessions = tc.exact
			if tc.unresolved {
				dropOneServer(t, &cfg)
			}
			if tc.models {
				setModels(t, &cfg, mixedModels...)
			}
			single, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(single.Info.RecordedModels); tc.models && got != len(mixedModels) {
				t.Fatalf("recorded models = %+v, want %d", single.Info.RecordedModels, len(mixedModels))
			}
			if got := single.Results.Statistics.Streaming != nil; got != (tc.exact > 0) {
				t.Fatalf("streaming statistics = %v, want %v", got, tc.exact > 0)
			}
			var files []*StateFile
			var replayed int64
			for i := range tc.shards {
				c := cfg
				c.Shard = Shard{Index: i, Count: tc.shards}
				out, err := Run(context.Background(), c)
				if err != nil {
					t.Fatalf("shard %d: %v", i, err)
				}
				replayed += out.Info.Counts.SessionsReplayed
				// Each shard's results say which shard (run.shard); one
				// shard of one is the whole run and says none.
				want := &sim.ShardInfo{Index: i, Count: tc.shards}
				if tc.shards == 1 {
					want = nil
				}
				if got := out.Results.Run.Shard; !reflect.DeepEqual(got, want) {
					t.Fatalf("shard %d: run.shard = %v, want %v", i, got, want)
				}
				// Through the file, as `defersim merge` reads it.
				f := throughFile(t, out.State)
				files = append(files, f)
			}
			if r := single.Info.Resolution; tc.unresolved && (r == nil || r.Unresolved == 0 || len(r.TopUnresolved) == 0) {
				t.Fatalf("resolution = %+v, want unresolved calls", r)
			}
			if replayed != single.Info.Counts.SessionsReplayed {
				t.Fatalf("shards replayed %d sessions, the single run %d", replayed, single.Info.Counts.SessionsReplayed)
			}
			merged, err := Merge(context.Background(), files, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, got := resultsBytes(t, single), resultsBytes(t, merged)
			if !bytes.Equal(want, got) {
				t.Fatalf("merged results differ from the single run:\n%s", cmp.Diff(string(want), string(got)))
			}
		})
	}
}

// dropOneServer replaces cfg's catalog directory by its files less those
// of the first server, and allows the calls that then do not resolve.
func dropOneServer(t *testing.T, cfg *Config) {
	t.Helper()
	if len(cfg.Catalogs) != 1 {
		t.Fatalf("catalogs %+v, want one directory", cfg.Catalogs)
	}
	entries, err := os.ReadDir(cfg.Catalogs[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []Source
	first := ""
	for _, e := range entries {
		server, _, _ := strings.Cut(e.Name(), "@")
		if first == "" {
			first = server
		}
		if server != first {
			kept = append(kept, Source{Path: filepath.Join(cfg.Catalogs[0].Path, e.Name())})
		}
	}
	cfg.Catalogs, cfg.AllowUnresolved = kept, true
}

func TestMergeRefusesIncompleteOrMixedShards(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	base := smallConfig(t, shardStrategies[:2], 30)
	shard := func(i, n int, seed int64) *StateFile {
		cfg := base
		cfg.Shard = Shard{Index: i, Count: n}
		cfg.Seed = seed
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return out.State
	}
	a, b := shard(0, 2, 1), shard(1, 2, 2)
	for _, tc := range []struct {
		name  string
		files []*StateFile
		want  string
	}{
		{"missing", []*StateFile{a}, "merge: missing shards 1/2"},
		{"twice", []*StateFile{a, a}, "merge: shard 0/2 given twice"},
		{"other run", []*StateFile{a, b}, "merge: shard 0/2 and shard 1/2 come from different runs: they differ in seed (1 and 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(context.Background(), tc.files, 1, 0)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestMergeNamesWhatIsWrong pins that merge names the most specific
// problem: shard 0/2 of another run beside this run's 0/2 is of a
// different run (it was "shard 0/2 given twice"), a shard given twice
// names its files; and that a shard that read the same catalogs at
// another path merges — into the single run's results at the lowest
// shard's paths — where it was refused as "(contents changed?)", while
// other contents are still refused, naming the files.
func TestMergeNamesWhatIsWrong(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a generated trace")
	}
	base := smallConfig(t, shardStrategies[:2], 30)
	moved := base
	moved.Catalogs = []Source{{Path: filepath.Join(t.TempDir(), "catalog")}}
	if err := os.CopyFS(moved.Catalogs[0].Path, os.DirFS(base.Catalogs[0].Path)); err != nil {
		t.Fatal(err)
	}
	changed := moved
	changed.Catalogs = []Source{{Path: filepath.Join(t.TempDir(), "catalog")}}
	if err := os.CopyFS(changed.Catalogs[0].Path, os.DirFS(base.Catalogs[0].Path)); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(changed.Catalogs[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(changed.Catalogs[0].Path, entries[0].Name())
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	// One more byte of description: other contents, the same tools.
	data = bytes.Replace(data, []byte(`"description":"`), []byte(`"description":"~`), 1)
	if err := os.WriteFile(first, data, 0o644); err != nil {
		t.Fatal(err)
	}
	shard := func(cfg Config, i int, seed int64) *StateFile {
		t.Helper()
		cfg.Shard, cfg.Seed = Shard{Index: i, Count: 2}, seed
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := throughFile(t, out.State)
		return f
	}
	a0, a1, b0 := shard(base, 0, 1), shard(base, 1, 1), shard(base, 0, 2)
	m1, c1 := shard(moved, 1, 1), shard(changed, 1, 1)
	for _, tc := range []struct {
		name  string
		files []*StateFile
		want  string
	}{
		{"other run, same shard", []*StateFile{a0, b0, a1},
			"merge: shard 0/2 (" + a0.path + ") and shard 0/2 (" + b0.path + ") come from different runs: they differ in seed (1 and 2)"},
		{"twice", []*StateFile{a0, a1, a0}, "merge: shard 0/2 given twice (" + a0.path + " and " + a0.path + ")"},
		{"other catalog contents", []*StateFile{a0, c1},
			"merge: shard 0/2 (" + a0.path + ") and shard 1/2 (" + c1.path + ") come from different runs: they differ in trace and catalog inputs (catalog " +
				filepath.Join(base.Catalogs[0].Path, entries[0].Name()) + " and " + first + " hold other contents)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(context.Background(), tc.files, 1, 0)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("same catalogs at another path", func(t *testing.T) {
		merged, err := Merge(context.Background(), []*StateFile{m1, a0}, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		cfg := base
		cfg.Seed = 1
		single, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, got := resultsBytes(t, single), resultsBytes(t, merged)
		if !bytes.Equal(want, got) {
			t.Fatalf("merged results differ from the single run at shard 0's paths:\n%s", cmp.Diff(string(want), string(got)))
		}
	})
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  bool
	}{
		{"0/4", Shard{0, 4}, false},
		{" 3 / 4", Shard{3, 4}, false},
		{"4/4", Shard{}, true},
		{"-1/4", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
		{"0/0", Shard{}, true},
	} {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
	// Every id belongs to exactly one shard.
	for _, id := range []string{"", "a", "session-0001", "ünïcode"} {
		owners := 0
		for i := range 5 {
			if (Shard{i, 5}).Owns(id) {
				owners++
			}
		}
		if owners != 1 {
			t.Errorf("id %q is owned by %d shards", id, owners)
		}
	}
}

// TestResumeGivesIdenticalResults interrupts a run (context cancelled after
// K sessions), checks that the interruption is reported with a checkpoint,
// resumes it, and compares results.json with an uninterrupted run's.
func TestResumeGivesIdenticalResults(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	for _, tc := range []struct {
		name          string
		exact, every  int
		interruptions []int64
		models        bool // sessions of several recorded models
	}{
		{"exact, periodic checkpoints", 0, 10, []int64{35}, false},
		{"streamed, twice interrupted", 20, 0, []int64{15, 70}, false},
		{"several recorded models", 0, 0, []int64{40}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, shardStrategies, 100)
			cfg.ExactSessions = tc.exact
			if tc.models {
				setModels(t, &cfg, mixedModels...)
			}
			whole, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
			cfg.CheckpointEvery = tc.every
			for i, k := range tc.interruptions {
				ctx, cancel := context.WithCancel(context.Background())
				c := cfg
				c.Resume = i > 0
				c.AfterSession = func(n int64) {
					if n == k {
						cancel()
					}
				}
				_, err := Run(ctx, c)
				cancel()
				var ie *InterruptedError
				if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
					t.Fatalf("interrupted run returned %v, want an InterruptedError", err)
				}
				if ie.Replayed < k || ie.Checkpoint != cfg.Checkpoint || ie.CheckpointErr != nil {
					t.Fatalf("interruption = %+v, want ≥ %d sessions replayed and a checkpoint", ie, k)
				}
				if _, err := os.Stat(cfg.Checkpoint); err != nil {
					t.Fatalf("no checkpoint after the interruption: %v", err)
				}
			}
			cfg.Resume = true
			resumed, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			want, got := resultsBytes(t, whole), resultsBytes(t, resumed)
			if !bytes.Equal(want, got) {
				t.Fatalf("resumed results differ from the uninterrupted run:\n%s", cmp.Diff(string(want), string(got)))
			}
		})
	}
}

func TestResumeRefusesAnotherRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	cfg := smallConfig(t, shardStrategies[:2], 20)
	cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, cfg); err == nil {
		t.Fatal("a run with a cancelled context succeeded")
	}
	cfg.Seed++
	cfg.Resume = true
	_, err := Run(context.Background(), cfg)
	want := "resume " + cfg.Checkpoint + ": the checkpoint was made by another run: it differs in seed (42 and 43); pass the same scenario, traces and flags"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
