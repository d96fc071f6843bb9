package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// SweepPoint is one value of a sweep: Param (params.KEY, model.KEY… or
// strategy.KEY…, as `sweep --param` names it) set to Value.
type SweepPoint struct {
	Param string  `json:"param"`
	Value float64 `json:"value"`
}

// String returns "PARAM=VALUE", the point's label and directory name.
func (p SweepPoint) String() string {
	return p.Param + "=" + strconv.FormatFloat(p.Value, 'g', -1, 64)
}

// At is " at sweep point PARAM=VALUE"; "" for a nil point.
func (p *SweepPoint) At() string {
	if p == nil {
		return ""
	}
	return " at sweep point " + p.String()
}

// GrowthPoint is one catalog size of `plan --growth`: the scenario's
// catalog grown to Tools tools, by servers added from the catalog
// directory From (--growth-from), or by generated servers when From is
// "". Factor is the multiple of its tool count asked; Replayed the one
// the size replays (Tools over the scenario's tool count: servers are
// added whole, so it can be above Factor), 0 in files of earlier builds.
type GrowthPoint struct {
	Factor   float64 `json:"factor"`
	Replayed float64 `json:"replayed_factor,omitempty"`
	Tools    int     `json:"tools"`
	From     string  `json:"from,omitempty"`
}

// String returns "×FACTOR (N tools, generated servers)", or "servers
// from DIR" in place of "generated servers", or "nothing added" at ×1 (the
// series' point of today's catalog, which adds no server). FACTOR is the
// factor replayed, followed by the one asked where they differ: "×3.214
// (×3 asked; 45 tools, generated servers)".
func (p GrowthPoint) String() string {
	added := "generated servers"
	switch {
	case p.Factor == 1:
		added = "nothing added"
	case p.From != "":
		added = "servers from " + p.From
	}
	tools := "tools"
	if p.Tools == 1 {
		tools = "tool"
	}
	return p.FactorText(fmt.Sprintf("%d %s, %s", p.Tools, tools, added))
}

// FactorText names the factor the size replays and, where it differs,
// the one asked beside it, followed in the parentheses by more when it is
// not "": FactorText("") is "×3.214 (×3 asked)", or "×2" when the size
// replays the factor asked; FactorText("tools=45") is "×3.214 (×3 asked;
// tools=45)", or "×2 (tools=28)".
func (p GrowthPoint) FactorText(more string) string {
	var in []string
	if p.differs() {
		in = append(in, "×"+strconv.FormatFloat(p.Factor, 'g', -1, 64)+" asked")
	}
	if more != "" {
		in = append(in, more)
	}
	if len(in) == 0 {
		return p.replayedText()
	}
	return p.replayedText() + " (" + strings.Join(in, "; ") + ")"
}

// differs says whether the size replays another factor than the one
// asked (a point of an earlier build records none: false).
func (p GrowthPoint) differs() bool {
	return p.Replayed != 0 && p.Replayed != p.Factor
}

// replayedText is "×F", the factor replayed to 4 significant digits
// (45/14 = ×3.214, enough to tell it from the factor asked), or the
// factor asked as given when it is the one replayed or none is recorded.
func (p GrowthPoint) replayedText() string {
	if !p.differs() {
		return "×" + strconv.FormatFloat(p.Factor, 'g', -1, 64)
	}
	return "×" + strconv.FormatFloat(p.Replayed, 'g', 4, 64)
}

// At is " at growth point ×FACTOR (…)"; "" for a nil point.
func (p *GrowthPoint) At() string {
	if p == nil {
		return ""
	}
	return " at growth point " + p.String()
}

// PointAt says which point of a series a run is, to follow its scenario's
// name wherever its results are named ("default at sweep point
// params.cache_warm_start=1", "default at growth point ×2 (267 tools,
// generated servers)"): the sweep point, the growth point, or "" for a run
// of the scenario as written.
func PointAt(sweep *SweepPoint, growth *GrowthPoint) string {
	return sweep.At() + growth.At()
}

// PointAt is PointAt of the run's sweep and growth points.
func (r *RunInfo) PointAt() string {
	return PointAt(r.SweepPoint, r.GrowthPoint)
}
