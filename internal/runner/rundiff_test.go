package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
)

// describedRun is the description (StateFile, no replay) and summary
// options of the default scenario with ov, after change edits its Config.
func describedRun(t *testing.T, ov Overrides, change func(*Config)) (*StateFile, sim.SummaryOptions) {
	t.Helper()
	sc, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, ov, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(&cfg)
	}
	p, err := prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p.file, p.summary
}

// TestRunDifferenceIsNamed pins that merge and --resume name the flag a
// user changed, with both values, when a shard or checkpoint is of
// another run. Before, over a scenario (every CLI run), a --seed or
// --strategies given to one shard was "they differ in scenario" (the
// scenario's fingerprint covers both, and was compared first); --bootstrap
// or --skip-bad was "options (--bootstrap, --skip-bad, --max-unresolved,
// --allow-unresolved)"; --exact-sessions or --per-request printed Go's
// dump of the summary options; and a checkpoint of a whole run resumed
// with --shard was `of shard "", this run of shard "0/2"`. It also pins
// that --bootstrap 1000 (the default, spelt out) resumes a run without the
// flag: they were refused as different options.
func TestRunDifferenceIsNamed(t *testing.T) {
	seed := int64(7)
	half := 0.5
	base, baseOpts := describedRun(t, Overrides{}, nil)
	names := strategyNames(base.Strategies)
	some := strings.Split(names, ",")[:2]
	for _, tc := range []struct {
		name   string
		ov     Overrides
		change func(*Config)
		want   string
	}{
		{"seed", Overrides{Seed: &seed}, nil, "seed (42 and 7)"},
		{"strategies", Overrides{Strategies: some}, nil, "strategies (" + names + " and " + strings.Join(some, ",") + ")"},
		{"baseline", Overrides{Baseline: some[1]}, nil, "baseline (" + some[0] + " and " + some[1] + ")"},
		{"bootstrap", Overrides{}, func(c *Config) { c.Bootstrap = 50 }, "--bootstrap (1000 and 50)"},
		{"no bootstrap", Overrides{}, func(c *Config) { c.Bootstrap = -1 }, "--bootstrap (1000 and none)"},
		{"skip-bad", Overrides{}, func(c *Config) { c.SkipBad = true }, "--skip-bad (off and on)"},
		{"max-unresolved", Overrides{MaxUnresolved: &half}, nil, fmt.Sprintf("--max-unresolved (%v and 0.5)", DefaultMaxUnresolved)},
		{"allow-unresolved", Overrides{AllowUnresolved: true}, nil, "--allow-unresolved (off and on)"},
		{"exact-sessions", Overrides{}, func(c *Config) { c.ExactSessions = 100 }, "--exact-sessions (10000 and 100; --sessions-csv keeps every session)"},
		{"sessions-csv", Overrides{}, func(c *Config) { c.ExactSessions = -1 }, "--exact-sessions (10000 and every session; --sessions-csv keeps every session)"},
		{"per-request", Overrides{}, func(c *Config) { c.KeepFidelityPairs = true }, "--per-request (off and on)"},
		{"think time", Overrides{}, func(c *Config) {
			c.Params.UserThinkMs++
			c.ScenarioFingerprint += "x"
		}, `assumption user_think_ms ("10000" and "10001")`},
		{"scenario", Overrides{}, func(c *Config) { c.ScenarioFingerprint = "0123456789abcdef" }, "scenario contents (fingerprints " + base.Info.ScenarioFingerprint[:12] + "… and 0123456789ab…)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other, otherOpts := describedRun(t, tc.ov, tc.change)
			// --resume: a checkpoint of the base run, this run other.
			cp := *base
			cp.Kind, cp.State = KindCheckpoint, mustState(t, base.Strategies, baseOpts)
			err := cp.matches(other, otherOpts)
			want := "the checkpoint was made by another run: it differs in " + tc.want
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("resume: error %v, want prefix %q", err, want)
			}
			// merge: shard 0/2 of the base run, 1/2 of the other.
			a, b := *base, *other
			a.Kind, a.Shard, a.State = KindShard, Shard{Index: 0, Count: 2}, mustState(t, base.Strategies, baseOpts)
			b.Kind, b.Shard, b.State = KindShard, Shard{Index: 1, Count: 2}, mustState(t, other.Strategies, otherOpts)
			_, err = Merge(context.Background(), []*StateFile{&a, &b}, 1, 0)
			want = "merge: shard 0/2 and shard 1/2 come from different runs: they differ in " + tc.want
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("merge: error %v, want prefix %q", err, want)
			}
		})
	}
	t.Run("shard", func(t *testing.T) {
		other, otherOpts := describedRun(t, Overrides{}, func(c *Config) { c.Shard = Shard{Index: 0, Count: 2} })
		cp := *base
		cp.Kind, cp.State = KindCheckpoint, mustState(t, base.Strategies, baseOpts)
		err := cp.matches(other, otherOpts)
		if want := "the checkpoint is of the whole run, this run of shard 0/2"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	// The same run: --bootstrap 1000 is the default, and draws the same
	// resamples (it was refused as another run's options).
	for _, change := range []func(*Config){nil, func(c *Config) { c.Bootstrap = report.DefaultBootstrap }} {
		other, otherOpts := describedRun(t, Overrides{}, change)
		cp := *base
		cp.Kind, cp.State = KindCheckpoint, mustState(t, base.Strategies, baseOpts)
		if err := cp.matches(other, otherOpts); err != nil {
			t.Errorf("the same run: %v", err)
		}
	}
}

func mustState(t *testing.T, strategies []sim.Strategy, opts sim.SummaryOptions) *sim.RunState {
	t.Helper()
	st, err := sim.NewRunState(strategies, opts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestOtherBuildRefused pins that shards or a checkpoint written by
// another defersim build of the same state file version are refused,
// naming both builds. Before, the state files recorded no build: shards
// replayed by two releases whose engines differ merged into numbers no one
// build gives, and results.json named the merging build as the one that
// replayed them all; a checkpoint resumed after an upgrade alike.
func TestOtherBuildRefused(t *testing.T) {
	base, opts := describedRun(t, Overrides{}, nil)
	const old = "v1.4.0 go1.26.1"
	if base.Build != thisBuild() || base.Build == old {
		t.Fatalf("a run's state names build %q, want %q", base.Build, thisBuild())
	}
	shard := func(i int, build string) *StateFile {
		f := *base
		f.Kind, f.Shard, f.Build, f.State = KindShard, Shard{Index: i, Count: 2}, build, mustState(t, base.Strategies, opts)
		f.path = fmt.Sprintf("shard-%d/%s", i, ShardFile)
		return &f
	}
	for _, tc := range []struct {
		name  string
		files []*StateFile
		by    string
		want  string
	}{
		{"one shard of another build", []*StateFile{shard(0, base.Build), shard(1, old)}, base.Build,
			"merge: shard 1/2 (shard-1/shard.bin) was written by defersim " + old + ", and this is " + base.Build},
		{"every shard of another build", []*StateFile{shard(0, old), shard(1, old)}, base.Build,
			"merge: shard 0/2 (shard-0/shard.bin) was written by defersim " + old + ", and this is " + base.Build},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mergeBy(context.Background(), tc.files, 1, 0, tc.by)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
	t.Run("the same build merges", func(t *testing.T) {
		_, err := mergeBy(context.Background(), []*StateFile{shard(0, old), shard(1, old)}, 1, 0, old)
		// Empty states replay nothing: past the build check, the merge
		// stops at the sessions.
		if err == nil || !strings.Contains(err.Error(), "no session was replayed") {
			t.Fatalf("error %v, want the empty states' 'no session was replayed'", err)
		}
	})
	t.Run("resume", func(t *testing.T) {
		cp := *base
		cp.Kind, cp.Build, cp.State = KindCheckpoint, old, mustState(t, base.Strategies, opts)
		err := cp.matches(base, opts)
		want := "the checkpoint was written by defersim " + old + ", and this is " + base.Build + ": resume with the build that wrote it, or run again without --resume"
		if err == nil || err.Error() != want {
			t.Fatalf("error %v, want %q", err, want)
		}
	})
}
