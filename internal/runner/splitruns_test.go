package runner

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// splitRuns says how checkSplitRuns splits a run.
type splitRuns struct {
	shards          int   // shards to merge
	reversed        bool  // merge them in reverse order too
	stopAfter       int64 // sessions replayed before the interrupt
	checkpointEvery int   // 0 keeps the config's
	// inspect, when set, checks each shard's state file and the
	// checkpoint left by the interrupt (what names which).
	inspect func(t *testing.T, what string, f *StateFile)
}

// checkSplitRuns checks that cfg's run split into merged shards, and
// interrupted then resumed, gives results byte-identical to want (the
// single run's resultsBytes).
func checkSplitRuns(t *testing.T, cfg Config, want []byte, s splitRuns) {
	t.Helper()
	same := func(t *testing.T, what string, out *Output) {
		t.Helper()
		if got := resultsBytes(t, out); !bytes.Equal(want, got) {
			t.Fatalf("%s results differ from the single run:\n%s", what, cmp.Diff(string(want), string(got)))
		}
	}
	t.Run("shards merged", func(t *testing.T) {
		var files []*StateFile
		for i := range s.shards {
			c := cfg
			c.Shard = Shard{Index: i, Count: s.shards}
			out, err := Run(context.Background(), c)
			if err != nil {
				t.Fatalf("shard %d: %v", i, err)
			}
			f := throughFile(t, out.State)
			if s.inspect != nil {
				s.inspect(t, "shard "+c.Shard.String(), f)
			}
			files = append(files, f)
		}
		orders := [][]*StateFile{files}
		if s.reversed {
			rev := make([]*StateFile, len(files))
			for i, f := range files {
				rev[len(files)-1-i] = f
			}
			orders = append(orders, rev)
		}
		for _, order := range orders {
			merged, err := Merge(context.Background(), order, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			same(t, "merged", merged)
		}
	})

	t.Run("resumed", func(t *testing.T) {
		c := cfg
		c.Checkpoint = filepath.Join(t.TempDir(), CheckpointFile)
		if s.checkpointEvery > 0 {
			c.CheckpointEvery = s.checkpointEvery
		}
		ctx, cancel := context.WithCancel(context.Background())
		c.AfterSession = func(n int64) {
			if n == s.stopAfter {
				cancel()
			}
		}
		_, err := Run(ctx, c)
		cancel()
		var ie *InterruptedError
		if !errors.As(err, &ie) {
			t.Fatalf("interrupted run returned %v, want an InterruptedError", err)
		}
		if s.inspect != nil {
			cp, err := ReadState(c.Checkpoint)
			if err != nil {
				t.Fatal(err)
			}
			s.inspect(t, "checkpoint", cp)
		}
		c.AfterSession, c.Resume = nil, true
		resumed, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "resumed", resumed)
	})
}
