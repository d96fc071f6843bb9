package runsummary

import (
	"fmt"
	"io"
	"slices"

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
