package plan

import "github.com/defersim/defersim/report"

// timingWarning says that some sessions' pauses are params.user_think_ms
// instead of recorded times (report.TimingNote), which the projection's
// session p50 carries; "" when none is.
func timingWarning(res *report.Results) string {
	if n := report.TimingNote(res); n != "" {
		return n + "; the session p50 below is of all sessions"
	}
	return ""
}
