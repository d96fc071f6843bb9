package runner

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShardZeroOfOneIsTheWholeRun pins that --shard 0/1 and no --shard
// are the same run: a checkpoint of either resumes in the other and gives
// the whole run's results.json byte for byte. Before, resuming across
// them was refused ("the checkpoint is of shard 0/1, this run of the
// whole run") though both replay every session.
func TestShardZeroOfOneIsTheWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	one := Shard{Index: 0, Count: 1}
	for _, tc := range []struct {
		name               string
		interrupted, final Shard
	}{
		{"0/1 resumed without --shard", one, Shard{}},
		{"whole run resumed with --shard 0/1", Shard{}, one},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(t, shardStrategies, 60)
			whole, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
			ctx, cancel := context.WithCancel(context.Background())
			c := cfg
			c.Shard = tc.interrupted
			c.AfterSession = func(n int64) {
				if n == 25 {
					cancel()
				}
			}
			_, err = Run(ctx, c)
			cancel()
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Checkpoint == "" {
				t.Fatalf("interrupted run returned %v, want an InterruptedError with a checkpoint", err)
			}
			cfg.Resume, cfg.Shard = true, tc.final
			resumed, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			if want, got := resultsBytes(t, whole), resultsBytes(t, resumed); !bytes.Equal(want, got) {
				t.Fatalf("resumed results differ from the whole run's:\n%s", cmp.Diff(string(want), string(got)))
			}
		})
	}
}

// TestShardSameTreatsZeroOfOneAsWhole pins Shard.same, which --resume
// compares shards by: 0/1 is the whole run, any other shard is itself.
func TestShardSameTreatsZeroOfOneAsWhole(t *testing.T) {
	whole, one, a, b := Shard{}, Shard{0, 1}, Shard{0, 2}, Shard{1, 2}
	for _, tc := range []struct {
		x, y Shard
		want bool
	}{
		{whole, whole, true}, {whole, one, true}, {one, whole, true}, {one, one, true},
		{whole, a, false}, {one, a, false}, {a, one, false}, {a, a, true}, {a, b, false},
	} {
		if got := tc.x.same(tc.y); got != tc.want {
			t.Errorf("%q.same(%q) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
