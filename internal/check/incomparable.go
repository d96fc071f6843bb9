package check

import (
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// Incomparable says why two results files cannot be compared: one reason
// per thing that differs, each with what to do about it.
type Incomparable struct {
	Reasons []Reason
}

// Reason is one difference that makes two results files incomparable.
type Reason struct {
	// What names the difference in the message's first sentence ("their
	// strategy sets").
	What string
	// Line states the difference with its baseline and current values;
	// Details are the parts of it, one a line (a scenario's differing
	// inputs, assumptions and strategies).
	Line    string
	Details []string
	// Remedy says what to do ("" when nothing but another run helps).
	Remedy string
}

// Error is the message: a first line saying in one sentence what the two
// files differ in, one indented line per reason (and its details below
// it), then what to do.
func (e *Incomparable) Error() string {
	var what []string
	for _, r := range e.Reasons {
		what = append(what, r.What)
	}
	var b strings.Builder
	b.WriteString("results cannot be compared: the two files differ in " + nouns.And(what))
	for _, r := range e.Reasons {
		b.WriteString("\n  " + r.Line)
		for _, d := range r.Details {
			b.WriteString("\n    " + d)
		}
	}
	var remedies []string
	for _, r := range e.Reasons {
		if r.Remedy != "" {
			remedies = append(remedies, r.Remedy)
		}
	}
	if len(remedies) > 0 {
		b.WriteString("\nwhat to do:")
		for _, r := range remedies {
			b.WriteString("\n  " + r)
		}
	}
	return b.String()
}
