package check

// Which results file an *Unreadable is.
const (
	Baseline = "baseline"
	Current  = "current"
)

// Unreadable is a results file check cannot read: missing, a directory,
// not JSON (a file cut short), not a results file, or without the run
// section check compares by. Its message is the one check always printed
// ("read results FILE: REASON").
type Unreadable struct {
	// Which is Baseline or Current.
	Which string
	// File names the file as the message does (<stdin> for -).
	File string
	// Reason is why it cannot be read, without the file's name.
	Reason error
}

func (e *Unreadable) Error() string { return "read results " + e.File + ": " + e.Reason.Error() }

func (e *Unreadable) Unwrap() error { return e.Reason }
