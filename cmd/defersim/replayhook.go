package main

import (
	"context"

	"github.com/defersim/defersim/sim"
)

// validatorKey is the context key of the stale-call validator a test
// plants (withValidator) for the replays of run, sweep and plan --growth
// (runner.Config.Validator): a session fails to replay only by a bug, so
// a test cannot make one from the command line, and the lines and exit
// status a failed session gives are tested through a planted panicking
// validator (TestRunExitsOnSkippedSession,
// TestSweepExitsOnSkippedSessions).
type validatorKey struct{}

// withValidator returns ctx carrying v for the commands' replays.
func withValidator(ctx context.Context, v sim.ArgValidator) context.Context {
	return context.WithValue(ctx, validatorKey{}, v)
}

// contextValidator is the validator ctx carries; nil (the JSON Schema
// validator) when none was planted.
func contextValidator(ctx context.Context) sim.ArgValidator {
	if ctx == nil {
		return nil
	}
	v, _ := ctx.Value(validatorKey{}).(sim.ArgValidator)
	return v
}
