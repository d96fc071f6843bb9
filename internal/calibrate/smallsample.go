package calibrate

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// smallSampleNote is a warning when a calibration's figures rest on too
// little data to be read as the model's accuracy, derived from the fit
// itself rather than from a minimum count: a latency coefficient the fit
// pushed to its bound, a held-out R² below 0 (the calibrated times predict
// the held-out requests worse than their own mean does), or held-out
// errors measured on one session (no spread between sessions). It states
// how many coefficients were fitted on how many requests, and names what
// fired; "" when nothing did.
func smallSampleNote(mf *ModelFit) string {
	var why []string
	if l := mf.Latency; l != nil {
		for _, p := range l.Params {
			if p.AtBound {
				why = append(why, fmt.Sprintf("%s is at its bound %g", p.Name, p.Value))
			}
		}
	}
	if ev := mf.HeldOut; ev != nil && ev.Requests.Requests > 0 && ev.RSquared < 0 {
		why = append(why, fmt.Sprintf("the held-out R² is %.3f (the calibrated times predict the held-out requests worse than their mean time does)", ev.RSquared))
	}
	fewUsage := false // the prompt-token figure is the one at stake
	const noSpread = "no spread (how they vary between sessions is not measured)"
	switch {
	case mf.HeldSessions == 1:
		why = append(why, "the held-out errors come from 1 session: "+noSpread)
	default:
		if o := mf.Overhead; o != nil && o.After != nil && o.HeldOutSessions == 1 {
			fewUsage = true
			why = append(why, fmt.Sprintf("the held-out prompt-token errors come from 1 of the %d held-out sessions (the others record no usage): %s", mf.HeldSessions, noSpread))
		}
		if ev := mf.HeldOut; ev != nil && ev.Requests.Requests > 0 && ev.Sessions == 1 {
			why = append(why, fmt.Sprintf("the held-out latency errors come from 1 of the %d held-out sessions (the others record no duration): %s", mf.HeldSessions, noSpread))
		}
	}
	if len(why) == 0 {
		return ""
	}
	size := ""
	switch {
	case mf.Latency != nil && !fewUsage:
		size = fmt.Sprintf("the latency's %d coefficients were fitted on %s of %s", mf.Latency.Coefficients, nouns.Count(mf.Latency.FitRequests, "request"), nouns.Count(mf.Latency.FitSessions, "session"))
	case mf.Latency != nil:
		size = fmt.Sprintf("the prompt overhead was fitted on %s of %s, the latency's %d coefficients on %s of %s",
			nouns.Count(mf.Overhead.FitRequests, "request"), nouns.Count(mf.Overhead.FitSessions, "session"),
			mf.Latency.Coefficients, nouns.Count(mf.Latency.FitRequests, "request"), nouns.Count(mf.Latency.FitSessions, "session"))
	case mf.Overhead != nil:
		size = fmt.Sprintf("the prompt overhead was fitted on %s of %s", nouns.Count(mf.Overhead.FitRequests, "request"), nouns.Count(mf.Overhead.FitSessions, "session"))
	}
	return fmt.Sprintf("a fit on little data: %s; %s; read the held-out errors as this sample's, not the model's accuracy, and fit on more sessions before relying on them",
		size, strings.Join(why, "; "))
}
