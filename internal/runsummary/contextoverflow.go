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
