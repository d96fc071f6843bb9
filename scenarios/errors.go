package scenarios

import "fmt"

// Error is a problem in a scenario file, located by file, line and field
// path ("strategies[2].trigger.mode"). Line is 0 when no line applies.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	return e.where() + ": " + e.Msg
}

// where is the error's location as messages print it: "FILE:LINE: FIELD",
// without the line when none applies and without the field when none does.
func (e *Error) where() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return loc
	}
	return loc + ": " + e.Field
}
