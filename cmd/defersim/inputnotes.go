package main

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/internal/inputnotes"
)

// Where each command's document lists the catalog notes it warns about
// (up to catalog.MaxNoteItems items of each kind).
const (
	runNotesAt       = "results.json run.catalog_notes"
	recommendNotesAt = "--format json input_notes.catalog_notes"
	calibrateNotesAt = "--format json input_notes.catalog_notes"
	sweepNotesAt     = "sweep.json input_notes.catalog_notes"
	planNotesAt      = "plan.json input_notes.catalog_notes"
)

// warnInputs warns on w about the input problems of a command that read
// users' traces and catalogs (run, recommend, calibrate, sweep, plan
// --growth), in the same words for each: catalog tools read with a
// stand-in schema and server versions serving no tools, implausible
// counts, times going backwards, sessions without a session_end. where
// names the document member listing the catalog notes.
func warnInputs(w io.Writer, n inputnotes.Notes, where string) {
	for _, line := range n.Warnings(where) {
		fmt.Fprintf(w, "defersim: warning: %s\n", line)
	}
}
