package runsummary

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/report"
)

// WarnContextOverflow warns on w, as program (the command's name in its
// messages: "defersim", "defersim-beam"), of the strategies of res whose
// requests exceed the model's context window, in the words of the
// report's finding (report.ContextOverflowText). `defersim run`, `defersim
// merge` and `defersim-beam` print it after a replay; nothing when no
// strategy overflowed.
func WarnContextOverflow(w io.Writer, program string, res *report.Results) {
	if res == nil {
		return
	}
	if t := report.ContextOverflowText(res); t != "" {
		fmt.Fprintf(w, "%s: warning: %s (results.json strategies[].context_overflow)\n", program, t)
	}
}

// UnmatchedWarning introduces sim.RunInfo.UnmatchedEntries.
const UnmatchedWarning = "the scenario names tools or servers the run's catalogs do not have, so these entries change nothing (a typo, or written for other catalogs?)"

// WarnUnmatched warns on w, as program, of a scenario's entries that match
// nothing in the run's catalogs (sim.RunInfo.UnmatchedEntries), one line
// each; `defersim run`, `defersim merge` and `defersim-beam` print it.
func WarnUnmatched(w io.Writer, program string, names []string) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: warning: %s:\n", program, UnmatchedWarning)
	for _, n := range names {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

// WarnUnrecorded warns on w, as program, of the calls whose arguments
// (report.UnrecordedArgsText) or results (report.UnrecordedResultsText)
// the traces did not record, in the report's words; `defersim run`,
// `defersim merge`, `defersim sweep` and `defersim-beam` print it. Nothing
// when every call's were recorded.
func WarnUnrecorded(w io.Writer, program string, res *report.Results) {
	if res == nil {
		return
	}
	for _, t := range []string{report.UnrecordedArgsText(res), report.UnrecordedResultsText(res)} {
		if t != "" {
			fmt.Fprintf(w, "%s: warning: %s (results.json strategies[].metrics)\n", program, t)
		}
	}
}
