package calibrate

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// fromFewer says, for a held-out figure measured on requests of sessions
// of the held held-out sessions, where that is fewer than all of them
// (the others record no what): "" when every held-out session counts.
func fromFewer(requests, sessions, held int, what string) string {
	if sessions >= held {
		return ""
	}
	return fmt.Sprintf(" (%s of %d of the %d held-out sessions; the others record no %s)", nouns.Count(requests, "request"), sessions, held, what)
}

// header is the comment a written scenario opens with.
func header(r *Result, mf *ModelFit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "defersim calibrate: model %s, fitted on %s of %s (--fit-on %s, seed %d), judged on %s.\n",
		mf.Model, nouns.Count(mf.FitSessions, "session"), baseNames(r.Traces), r.FitOn, r.Seed, nouns.Count(mf.HeldSessions, "held-out session"))
	if o := mf.Overhead; o != nil && o.After != nil {
		fmt.Fprintf(&b, "Held-out prompt tokens%s: median |error| %s, p90 %s (was %s, %s).\n", fromFewer(int(o.After.Requests), o.HeldOutSessions, mf.HeldSessions, "usage"),
			pct(o.After.InputMedianAbsRelErr), pct(o.After.InputP90AbsRelErr), pct(o.Before.InputMedianAbsRelErr), pct(o.Before.InputP90AbsRelErr))
	}
	if o := mf.Overhead; o != nil && o.TokenScaleFitted {
		fmt.Fprintf(&b, "params.token_scale %g is fitted to the recorded usage (was %g): params.tokenizer %s is %s.\n",
			o.TokenScale, mf.ScenarioParams.TokenScale, mf.Params.Tokenizer, mf.TokenizerStandIn)
	}
	if ev := mf.HeldOut; ev != nil && ev.Requests.Requests > 0 {
		from := fromFewer(ev.Requests.Requests, ev.Sessions, mf.HeldSessions, "duration")
		if rp := ev.Replayed; rp != nil {
			fmt.Fprintf(&b, "Held-out request time%s as this scenario replays it (jitter_cv %g, seed %d): median |error| %s, p90 %s, KS %.3f; "+
				"the deterministic prediction's: %s, %s, KS %.3f (was %s, %s, KS %.3f).\n",
				from, mf.Latency.Latency.JitterCV, r.Seed, pct(rp.MedianAbsRel), pct(rp.P90AbsRel), ev.RequestKSJitter,
				pct(ev.Requests.MedianAbsRel), pct(ev.Requests.P90AbsRel), ev.RequestKS,
				pct(ev.RequestsBefore.MedianAbsRel), pct(ev.RequestsBefore.P90AbsRel), ev.RequestKSBefore)
		} else {
			fmt.Fprintf(&b, "Held-out request time%s: median |error| %s, p90 %s, KS %.3f (was %s, %s, KS %.3f).\n", from,
				pct(ev.Requests.MedianAbsRel), pct(ev.Requests.P90AbsRel), ev.RequestKS,
				pct(ev.RequestsBefore.MedianAbsRel), pct(ev.RequestsBefore.P90AbsRel), ev.RequestKSBefore)
		}
	}
	if l := mf.Latency; l != nil && l.Latency.JitterCV == 0 {
		fmt.Fprintf(&b, "Latency is deterministic; the fitted jitter_cv is %g (calibrate --jitter writes it, for distributions).\n", l.JitterCV)
	}
	if mf.Latency == nil && mf.latencyWhy != "" {
		fmt.Fprintf(&b, "Warning: %s; the latency below is the starting model's.\n", mf.latencyWhy)
	}
	for _, w := range mf.Warnings {
		fmt.Fprintf(&b, "Warning: %s.\n", w)
	}
	if r.Inputs != nil {
		for _, w := range r.Inputs.Warnings("") {
			fmt.Fprintf(&b, "Input warning: %s\n", w)
		}
	}
	return b.String()
}
