package pipeline

import (
	"context"
	"errors"
	"strings"
)

// inputMark starts the message of an input error. A worker's error
// reaches the launcher as text only, in the runner's report of the failed
// job, so the mark is in the message rather than only in its type.
const inputMark = "defersim input error: "

// inputError is an error of the run's inputs: a scenario, catalog or
// trace that cannot be read or does not fit (a malformed line, a session
// repeated, no session replayed, too many unresolved calls), as `defersim
// run` refuses with exit status 2.
type inputError struct{ err error }

func (e inputError) Error() string { return inputMark + e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// InputError marks err as an error of the run's inputs (nil stays nil).
// A cancellation (the job cancelled, the launcher interrupted) is no
// input's error: it is marked as an interruption instead (Interrupted).
func InputError(err error) error {
	var in interrupted
	switch {
	case err == nil || errors.As(err, &in):
		return err
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return interrupted{err} // marked, for the launcher that reads a worker's error as text
	case IsInputError(err):
		return err
	}
	return inputError{err}
}

// interruptMark starts the message of an interruption, for the same
// reason as inputMark: a worker's error reaches the launcher as text.
const interruptMark = "defersim interrupted: "

// interrupted is a stage stopped by its context's cancellation, as
// `defersim run` interrupted by a signal (exit status 130).
type interrupted struct{ err error }

func (e interrupted) Error() string { return interruptMark + e.err.Error() }
func (e interrupted) Unwrap() error { return e.err }

// IsInterrupted says whether err is, or reports a job that failed on, a
// cancellation: a context cancelled or past its deadline, here or in a
// worker.
func IsInterrupted(err error) bool {
	var ie interrupted
	return errors.As(err, &ie) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		strings.Contains(err.Error(), interruptMark)
}

// IsInputError says whether err is, or reports a job that failed on, an
// error of the run's inputs.
func IsInputError(err error) bool {
	var ie inputError
	return errors.As(err, &ie) || strings.Contains(err.Error(), inputMark)
}
