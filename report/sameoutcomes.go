package report

import "github.com/defersim/defersim/sim"

// SameOutcomes reports whether a and b (two strategies of one run, or one
// strategy at two points of a sweep, over the same sessions) had identical
// outcomes: equal outcome digests, which hold every session's metric
// values, and equal counts of requests over the model's context window
// (sameOverflow), which the digest does not hold. An empty digest (no
// digest recorded) is never the same.
func SameOutcomes(a, b *StrategyResult) bool {
	return a.OutcomeDigest != "" && a.OutcomeDigest == b.OutcomeDigest && sameOverflow(a.ContextOverflow, b.ContextOverflow)
}

// sameOverflow compares two counts of requests over the context window
// by what was counted (requests, sessions, the largest request and its
// session), not by the window they were compared with: a sweep over
// model.context_window changes the window at every point, and the same
// requests over two windows are the same outcome (over a larger window
// the requests counted are a subset of those over a smaller one, so equal
// counts are the same requests). nil is no request over the window.
func sameOverflow(a, b *sim.ContextOverflow) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Requests == b.Requests && a.Sessions == b.Sessions && a.MaxInput == b.MaxInput && a.MaxSession == b.MaxSession
}
