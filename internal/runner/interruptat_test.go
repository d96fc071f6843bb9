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
