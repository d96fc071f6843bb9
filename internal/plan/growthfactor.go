package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// DefaultGrowthTolerance is how far above its factor a growth size may
// land before its point is flagged (plan --growth-tolerance): a share of
// the factor asked, 0.1 = a size more than 10% above it (×2 replayed at
// more than ×2.2 today's tools). It is a reading convention, not derived
// from data: servers are added whole, so how far a size lands above its
// factor depends on the servers' sizes, and the tolerance says how much of
// that a reader may take as the factor asked.
const DefaultGrowthTolerance = 0.1

// CheckGrowthTolerance refuses a growth tolerance that is not a share of
// the factor from 0 to 1 (0 flags every size above its factor; 1, a size
// twice its factor or more).
func CheckGrowthTolerance(flag string, tol float64) error {
	switch {
	case math.IsNaN(tol) || tol < 0:
		return fmt.Errorf("%s %v: want a share of the factor asked, 0 to 1 (0.1 = flag a size more than 10%% above its factor; default %g)", flag, tol, DefaultGrowthTolerance)
	case tol > 1:
		return fmt.Errorf("%s %v: a share above 1 flags only sizes more than %g times their factor: want 0 to 1 (default %g); for %g%% type %g",
			flag, tol, 1+tol, DefaultGrowthTolerance, tol, tol/100)
	}
	return nil
}

// replayedFactor is the factor a growth size replays: its tool count over
// today's (the factors multiply the tool count, ⌈factor × baseTools⌉).
func replayedFactor(tools, baseTools int) float64 {
	return float64(tools) / float64(baseTools)
}

// factorText prints a replayed factor with 4 significant digits (45/14 =
// ×3.214), enough to tell it from the factor asked.
func factorText(f float64) string {
	return "×" + strconv.FormatFloat(f, 'g', 4, 64)
}

// FactorText names the size by the factor it replays and, where it
// differs, the one asked beside it, with more in the parentheses:
// "×3.214 (×3 asked)"; "×2" when the size replays the factor asked
// (sim.GrowthPoint.FactorText). It is the size's one label: plan's text
// and Markdown, the report and check name the size by it, never inside
// parentheses of their own ("cache at ×3.214 (×3 asked): …"; FactorsAt).
func (p GrowthPoint) FactorText(more string) string {
	return sim.GrowthPoint{Factor: p.Factor, Replayed: p.Replayed}.FactorText(more)
}

// FactorsAt is "at " and the labels of sizes (FactorText("") each),
// joined by ", ": "at ×1, ×3.214 (×3 asked)".
func FactorsAt(labels []string) string {
	return "at " + strings.Join(labels, ", ")
}

// SizeText says a growth size in the plan's list of sizes, after its
// label (FactorText): its servers and tools and, past ×1, today's tools
// ("2 servers, 45 tools against today's 14").
func (p GrowthPoint) SizeText() string {
	s := nouns.Count(p.Servers, "server") + ", " + nouns.Count(p.Tools, "tool")
	if p.BaseTools > 0 && p.Factor != 1 {
		s += fmt.Sprintf(" against today's %d", p.BaseTools)
	}
	return s
}

// overshootNote says that a size replays more than tol above its factor
// asked, f: servers are added whole, and the last one added (lastTools
// tools) took the catalog past ⌈f × baseTools⌉ to tools. "" within the
// tolerance.
func overshootNote(f float64, tools, baseTools, lastTools int, tol float64) string {
	got := replayedFactor(tools, baseTools)
	if got <= f*(1+tol) {
		return ""
	}
	asked := "×" + strconv.FormatFloat(f, 'g', -1, 64)
	return fmt.Sprintf("%s replays %s of today's %s (%d, where %s asks %d): servers are added whole and the last one added has %s; "+
		"%.1f%% above the factor asked, more than the growth tolerance %g (--growth-tolerance): read this size's row as %s, not %s",
		asked, factorText(got), nouns.Count(baseTools, "tool"), tools, asked, int(math.Ceil(f*float64(baseTools))),
		nouns.Count(lastTools, "tool"), (got/f-1)*100, tol, factorText(got), asked)
}
