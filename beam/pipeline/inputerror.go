package pipeline

import (
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
func InputError(err error) error {
	if err == nil || IsInputError(err) {
		return err
	}
	return inputError{err}
}

// IsInputError says whether err is, or reports a job that failed on, an
// error of the run's inputs.
func IsInputError(err error) bool {
	var ie inputError
	return errors.As(err, &ie) || strings.Contains(err.Error(), inputMark)
}
