package runsummary

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/defersim/defersim/report"
)

// WarnRecommendedFor warns on w, as program, of the strategies defersim
// recommend chose for another model or tokenizer than the run's
// (report.RecommendedForFindings), each finding once over results (a
// sweep's points); nothing when there are none. `defersim run`, `merge`
// and `sweep` print it; --quiet does not silence it.
func WarnRecommendedFor(w io.Writer, program string, results ...*report.Results) {
	var said []string
	for _, res := range results {
		if res == nil {
			continue
		}
		for _, f := range report.RecommendedForFindings(res) {
			if slices.Contains(said, f) {
				continue
			}
			said = append(said, f)
			fmt.Fprintf(w, "%s: warning: %s\n", program, f)
		}
	}
}

// WarnRecommendedForAt is WarnRecommendedFor over a series' points (a
// sweep's values), results[i] at the point labelled labels[i]: each
// finding once, after the points it holds at ("at " and their labels,
// "at model.pricing.input_per_mtok=6: ") or, when there
// are several points and it holds at each, "at every " and every (as the
// series' skipped sessions are said). Without the points a finding of
// one value ("this run replays it with … other values") did not say
// which value (TestSweepRecommendedForSaysItsValues).
func WarnRecommendedForAt(w io.Writer, program, every string, labels []string, results []*report.Results) {
	var said []string
	at := map[string][]string{}
	for i, res := range results {
		if res == nil {
			continue
		}
		for _, f := range report.RecommendedForFindings(res) {
			if !slices.Contains(said, f) {
				said = append(said, f)
			}
			if pts := at[f]; len(pts) == 0 || pts[len(pts)-1] != labels[i] {
				at[f] = append(pts, labels[i])
			}
		}
	}
	for _, f := range said {
		where := "at " + strings.Join(at[f], ", ")
		if len(labels) > 1 && len(at[f]) == len(labels) {
			where = "at every " + every
		}
		fmt.Fprintf(w, "%s: warning: %s: %s\n", program, where, f)
	}
}
