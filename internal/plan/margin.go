package plan

import (
	"fmt"
	"math"
	"slices"
)

// CheckMargin refuses a --breakdown-margin that cannot be meant with the
// growth factors: a negative one (a rule that got better would break
// down) and one at or above the largest factor. The margin is a share: a
// rule breaks down where its cost or p95 first reply is more than
// (1 + margin) times today's. Both grow with the tool schemas a request
// carries, at most about in proportion to the catalog (eager, which sends
// every schema on every request, grows 12.1× in cost for 16× the tools in
// docs/plan.md's worked example), so a rule cannot get (1 + margin) times
// worse on a catalog at most max(factors) times today's once margin ≥
// max(factors); the bound leaves a whole today's value of slack for
// points that overshoot their factor and for added tools larger than
// today's. Such a margin is a percentage typed for a share (25 for 25%)
// and would report every rule as never breaking down.
func CheckMargin(margin float64, factors []float64) error {
	what := "the share by which a cost or p95 first reply may exceed today's catalog's (0.25 = 25% worse)"
	if !(margin >= 0) || math.IsInf(margin, 1) {
		// A negative margin flagged a rule that got better as broken
		// down ("more than -10% worse").
		return fmt.Errorf("--breakdown-margin %v: want 0 or more: %s", margin, what)
	}
	if len(factors) == 0 {
		return nil
	}
	top := slices.Max(factors)
	if !(top > 1) || math.IsInf(top, 1) {
		// growthFactors refuses these, saying why.
		return nil
	}
	if margin >= top {
		return fmt.Errorf("--breakdown-margin %v asks where a rule gets more than %s%% worse (%s× today's cost or p95 first reply) on catalogs at most ×%s today's, which no rule does: "+
			"both grow with the tools sent, at most about in proportion; the margin is %s: for %v%% type %v (below %v, the largest --growth factor)",
			margin, trim(fmt.Sprintf("%.2f", margin*100)), trim(fmt.Sprintf("%.2f", 1+margin)), trim(fmt.Sprintf("%g", top)), what, margin, margin/100, top)
	}
	return nil
}
