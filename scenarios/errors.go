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
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return loc + ": " + e.Msg
	}
	return loc + ": " + e.Field + ": " + e.Msg
}
