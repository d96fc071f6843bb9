package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// writeFn writes the run's outputs from the merged state and the reads of
// every trace file, as `defersim run` writes them.
type writeFn struct {
	Spec Spec
}

// ProcessElement runs once (its input is a single element). The merged
// state is absent when no session was read; the run then fails as
// `defersim run` does ("no session was replayed"). A session id read in
// two trace files (repeats: the earliest, or none) fails it before
// anything is written.
func (fn *writeFn) ProcessElement(ctx context.Context, _ []byte, states func(**sim.RunState) bool,
	reads func(*fileRead) bool, repeats func(*repeatedSession) bool) error {
	var files []fileRead
	var f fileRead
	for reads(&f) {
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b fileRead) int { return a.Ordinal - b.Ordinal })
	if r := (repeatedSession{}); repeats(&r) {
		paths := make(map[int]string, len(files))
		for _, f := range files {
			paths[f.Ordinal] = f.Path
		}
		return InputError(repeatError(r, paths, fn.Spec.SkipBad))
	}
	d, err := prepared.get(fn.Spec)
	if err != nil {
		return InputError(err)
	}
	var st *sim.RunState
	for states(&st) {
	}
	if st == nil {
		if st, err = d.NewState(); err != nil {
			return err
		}
	}
	var read []runner.TraceRead
	for _, f := range files {
		tr, err := f.traceRead()
		if err != nil {
			return err
		}
		read = append(read, tr)
	}
	out, err := d.Finish(ctx, st, read, 0)
	var ue *runner.UnresolvedError
	if errors.As(err, &ue) { // as defersim run prints them before its error
		logLines(ctx, inputnotes.Notes{CatalogNotes: ue.Output.Info.CatalogNotes}.Warnings(NotesAt))
		var b strings.Builder
		report.WriteResolution(&b, ue.Resolution)
		logLines(ctx, strings.Split(strings.TrimRight(b.String(), "\n"), "\n"))
	}
	if err != nil { // no session replayed, too many unresolved calls
		return InputError(err)
	}
	// The input warnings and the sessions that failed, with the locations
	// and errors results.json does not hold (the launcher prints the rest
	// from it, and the failures from the failures file written beside it).
	logLines(ctx, out.InputNotes().Warnings(NotesAt))
	for _, msg := range out.Run.Failures {
		log.Warnf(ctx, "skipped %s", firstLine(msg))
	}
	return writeOutputs(ctx, out, fn.Spec.Out, runner.WriteOptions{Report: !fn.Spec.NoReport, Failures: true})
}

// NotesAt names where results.json lists the catalog notes, as defersim
// run's warnings name it.
const NotesAt = "results.json run.catalog_notes"

// logLines logs lines as warnings, one each.
func logLines(ctx context.Context, lines []string) {
	for _, l := range lines {
		log.Warnf(ctx, "%s", l)
	}
}

// firstLine is msg up to its first newline (a failure's stack follows).
func firstLine(msg string) string {
	first, _, _ := strings.Cut(msg, "\n")
	return first
}

// writeOutputs writes results.json and the report to dir: in place when
// it is a local directory, else into a temporary one first, then through
// the Beam filesystem of its URL.
func writeOutputs(ctx context.Context, out *runner.Output, dir string, opt runner.WriteOptions) error {
	if !isURL(dir) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create output directory: %w", err)
		}
		return runner.WriteOutputs(out, dir, opt)
	}
	tmp, err := os.MkdirTemp("", "defersim-beam-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := runner.WriteOutputs(out, tmp, opt); err != nil {
		return err
	}
	return copyTree(ctx, tmp, dir)
}
