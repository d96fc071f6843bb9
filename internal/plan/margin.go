package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Margin is plan's --breakdown-margin: a rule breaks down where its cost
// or p95 first reply is more than (1 + Share) times today's. It is typed
// as a share (0.25) or as a percentage with its sign (25%); CheckMargin
// refuses a bare number above 1, the likely percentage typed for a share.
type Margin struct {
	Share float64
	// Percent is true when the margin was typed with a % sign.
	Percent bool
}

// DefaultMargin is --breakdown-margin's default: 25% worse.
var DefaultMargin = Margin{Share: 0.25}

// Set parses a share ("0.25") or a percentage ("25%").
func (m *Margin) Set(s string) error {
	text, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil {
		return fmt.Errorf("want a share (0.25 = 25%% worse) or a percentage with its sign (25%%)")
	}
	if pct {
		v /= 100
	}
	*m = Margin{Share: v, Percent: pct}
	return nil
}

// String is the margin as it is typed.
func (m *Margin) String() string {
	if m.Percent {
		return marginPercent(m.Share) + "%"
	}
	return strconv.FormatFloat(m.Share, 'g', -1, 64)
}

// Type names the flag's value in the help.
func (m *Margin) Type() string { return "share" }

// marginPercent writes a margin as a percentage, without the sign, to two
// decimals and no trailing zeros (0.125: "12.5"; 0.07: "7", where
// 100·0.07 is 7.000000000000001).
func marginPercent(share float64) string {
	return trim(fmt.Sprintf("%.2f", share*100))
}

// CheckMargin refuses a --breakdown-margin that cannot be meant with the
// growth factors:
//
//   - a negative one (a rule that got better would break down);
//   - a bare number above 1: 10 would be 1000% worse, eleven times
//     today's, where a user typing 10 most likely means 10%; a margin
//     above 100% is typed as a percentage (1000%), which says it is meant;
//   - one at or above the largest factor. Cost and p95 first reply grow
//     with the tool schemas a request carries, at most about in proportion
//     to the catalog (eager, which sends every schema on every request,
//     grows 12.1× in cost for 16× the tools in docs/plan.md's worked
//     example), so a rule cannot get (1 + margin) times worse on a catalog
//     at most max(factors) times today's once margin ≥ max(factors); the
//     bound leaves a whole today's value of slack for points that
//     overshoot their factor and for added tools larger than today's. Such
//     a margin would report every rule as never breaking down.
func CheckMargin(m Margin, factors []float64) error {
	what := "the share by which a cost or p95 first reply may exceed today's catalog's (0.25 = 25% worse)"
	margin := m.Share
	if !(margin >= 0) || math.IsInf(margin, 1) {
		// A negative margin flagged a rule that got better as broken
		// down ("more than -10% worse").
		return fmt.Errorf("--breakdown-margin %s: want 0 or more: %s", m.String(), what)
	}
	typed := m.String()
	if !m.Percent && margin > 1 {
		return fmt.Errorf("--breakdown-margin %s would mean more than %s%% worse (%s× today's cost or p95 first reply): the margin is %s; for %s%% type %v (or %s%%); "+
			"a margin above 1 (100%%) is given as a percentage, %s%%, to say it is meant",
			typed, marginPercent(margin), trim(fmt.Sprintf("%.2f", 1+margin)), what, typed, margin/100, typed, marginPercent(margin))
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
		// Only a percentage gets here: a bare share is at most 1.
		return fmt.Errorf("--breakdown-margin %s asks where a rule gets more than %s%% worse (%s× today's cost or p95 first reply) on catalogs at most ×%s today's, which no rule does: "+
			"both grow with the tools sent, at most about in proportion; the margin is %s: give less than %s%% (%v, the largest --growth factor, as a share)",
			typed, marginPercent(margin), trim(fmt.Sprintf("%.2f", 1+margin)), trim(fmt.Sprintf("%g", top)), what, marginPercent(top), top)
	}
	return nil
}
