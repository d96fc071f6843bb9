package srd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with an SRD file, located by file, line and
// field path. Line is 0 when no line applies.
type Problem struct {
	File  string
	Line  int
	Field string
	Msg   string
	// Unreadable marks a file that cannot be read as an SRD file at all
	// (invalid YAML, not UTF-8, over MaxFileSize), as against one whose
	// content breaks a rule: srd lint exits 2 on it, not 1.
	Unreadable bool
	// Warning marks what a reader should know but that breaks no rule (a
	// tool group naming a tool only an older catalog version serves):
	// srd lint prints it and still exits 0, and run and srd eval read the
	// SRDs (Problems.Errors leaves it out).
	Warning bool
}

// String formats the problem as "file:line: field: reason" ("file:line:
// field: warning: reason" for a warning).
func (p Problem) String() string {
	msg := p.Msg
	if p.Warning {
		msg = "warning: " + msg
	}
	loc := p.File
	if loc == "" {
		loc = "<input>"
	}
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, p.Line)
	}
	if p.Field == "" {
		return loc + ": " + msg
	}
	return loc + ": " + p.Field + ": " + msg
}

// Problems is a list of problems; as an error it prints one per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns ps as an error, or nil when it is empty.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// Errors returns the problems that are not warnings (Problem.Warning).
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Unreadable returns the problems that make their file unreadable
// (Problem.Unreadable).
func (ps Problems) Unreadable() Problems {
	var out Problems
	for _, p := range ps {
		if p.Unreadable {
			out = append(out, p)
		}
	}
	return out
}

// Sort orders problems by file, line, field and message, and drops exact
// duplicates.
func (ps Problems) Sort() Problems {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Field, b.Field), cmp.Compare(a.Msg, b.Msg))
	})
	return slices.Compact(ps)
}

// problemAt builds a problem located at s's field.
func problemAt(s *SRD, field, format string, args ...any) Problem {
	return Problem{File: s.File, Line: s.Line(field), Field: field, Msg: fmt.Sprintf(format, args...)}
}
