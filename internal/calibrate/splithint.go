package calibrate

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
)

// splitHint says why a group has no session to fit on or none to judge on
// and what splits it: the selection that put its sessions on one side and
// the flag or input that changes it ("" when every session was skipped:
// skippedText says why). fitOn and seed are the calibration's selection,
// test whether --test files hold the held-out sessions.
func (g group) splitHint(fitOn FitOn, seed int64, test bool) string {
	n := g.fit + g.held
	side, other := "fitted", "held-out"
	if g.fit == 0 {
		side, other = "held-out", "fitted"
	}
	switch {
	case n == 0:
		return ""
	case test && g.held == 0:
		return "the --test files hold no session of this model: add some of its sessions to them, or judge on part of the TRACE files (drop --test; --fit-on 0.7)"
	case test:
		return fmt.Sprintf("the TRACE files hold no session of this model in the --fit-on %s selection: give its sessions as TRACE files, or choose another --fit-on", fitOn)
	case n == 1:
		return "one session cannot be both fitted on and judged on: calibrate needs at least two sessions of this model (or --test files with others to judge on)"
	case fitOn.Kind == FitEven || fitOn.Kind == FitOdd:
		return fmt.Sprintf("--fit-on %s counts positions among every session of the TRACE files in input order (other models' and skipped sessions included), "+
			"not per model, and this model's %s all fall on the %s side: --fit-on 0.5 splits each model's sessions by a hash of their id",
			fitOn, nouns.Count(n, "session"), side)
	default:
		return fmt.Sprintf("the hash of the session ids (--fit-on %s, seed %d) put all %s of this model on the %s side and none on the %s: "+
			"another --seed or a share nearer 0.5 splits them, or --test files give sessions to judge on", fitOn, seed, nouns.Count(n, "session"), side, other)
	}
}
