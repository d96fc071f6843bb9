package runner

import (
	"context"
	"errors"
	"testing"
)

// interruptAt runs cfg (whose Checkpoint is set) and cancels it once n
// sessions are replayed, as a signal would: the run must stop with an
// *InterruptedError that saved a checkpoint, which it returns.
func interruptAt(t *testing.T, cfg Config, n int64) *InterruptedError {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.AfterSession = func(k int64) {
		if k == n {
			cancel()
		}
	}
	_, err := Run(ctx, cfg)
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Checkpoint == "" {
		t.Fatalf("interrupted run returned %v, want an InterruptedError with a checkpoint", err)
	}
	return ie
}

// runShards runs cfg as n shards and returns each shard's output and its
// state as `defersim merge` reads it (through its file).
func runShards(t *testing.T, cfg Config, n int) ([]*Output, []*StateFile) {
	t.Helper()
	var outs []*Output
	var files []*StateFile
	for i := range n {
		c := cfg
		c.Shard = Shard{Index: i, Count: n}
		out, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		outs = append(outs, out)
		files = append(files, throughFile(t, out.State))
	}
	return outs, files
}
