package sim

import (
	"fmt"
	"strconv"
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
// catalog grown by Factor (a multiple of its tool count) to Tools tools,
// by servers added from the catalog directory From (--growth-from), or by
// generated servers when From is "".
type GrowthPoint struct {
	Factor float64 `json:"factor"`
	Tools  int     `json:"tools"`
	From   string  `json:"from,omitempty"`
}

// String returns "×FACTOR (N tools, generated servers)", or "servers
// from DIR" in place of "generated servers", or "nothing added" at ×1 (the
// series' point of today's catalog, which adds no server).
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
	return fmt.Sprintf("×%s (%d %s, %s)", strconv.FormatFloat(p.Factor, 'g', -1, 64), p.Tools, tools, added)
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
