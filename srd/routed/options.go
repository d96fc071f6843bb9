package routed

import (
	"fmt"
	"math"
)

// ToolText says how much of each tool goes into its domain's document.
type ToolText string

// Tool text levels.
const (
	ToolTextNone  ToolText = "none"  // triggers, names and summaries only
	ToolTextNames ToolText = "names" // plus the tool names
	ToolTextFull  ToolText = "full"  // plus each tool's whole search document
)

// Options tune the routed ranker.
type Options struct {
	// DomainWeight is w in score = (1 − w)·t + w·d·max(t, MatchFloor), for
	// a tool of score t in a domain of score d, both scaled to [0,1] by the
	// query's best; in [0,1].
	DomainWeight float64
	// MatchFloor is the least share of its domain's boost a tool gets
	// (one that does not match the query at all); in [0,1]. 1 adds the
	// domain score to every tool alike; 0 boosts matching tools only.
	MatchFloor float64
	// Lead puts the best tool of the best domain first (the hard filter's
	// pick) and ranks the rest by score; weighted mode only.
	Lead bool
	// Hard keeps only the tools of the HardDomains best domains.
	Hard        bool
	HardDomains int
	// PriorityWeight scales a domain's score by 1 + PriorityWeight·(p − 5)/5
	// for SRD priority p (0..10): a tie-breaker, not a ranking.
	PriorityWeight float64
	// TriggerRepeat is how many times the intent triggers are counted in a
	// domain's document (≥ 1).
	TriggerRepeat int
	// ToolText is how much of each tool the domain document holds.
	ToolText ToolText
}

// DefaultOptions returns the weighted (not hard) router: domain weight
// 0.7, match floor 0.25, the best domain's best tool first, priority
// weight 0.05, triggers counted twice, whole tool documents in the domain
// documents. The hard variant keeps one domain. The weight, floor and lead
// were chosen on MetaTool and pooled BFCL (docs/srd.md has the sweep).
func DefaultOptions() Options {
	return Options{DomainWeight: 0.7, MatchFloor: 0.25, Lead: true, HardDomains: 1, PriorityWeight: 0.05, TriggerRepeat: 2, ToolText: ToolTextFull}
}

// HardOptions returns DefaultOptions with the hard filter on.
func HardOptions() Options {
	o := DefaultOptions()
	o.Hard = true
	return o
}

func (o Options) validate() error {
	switch {
	case !(o.DomainWeight >= 0 && o.DomainWeight <= 1):
		return fmt.Errorf("routed: domain weight %v, want a value in [0,1]", o.DomainWeight)
	case !(o.MatchFloor >= 0 && o.MatchFloor <= 1):
		return fmt.Errorf("routed: match floor %v, want a value in [0,1]", o.MatchFloor)
	case o.Hard && o.HardDomains < 1:
		return fmt.Errorf("routed: hard filter keeps %d domains, want at least 1", o.HardDomains)
	case !(o.PriorityWeight >= 0 && o.PriorityWeight < 1) || math.IsInf(o.PriorityWeight, 0):
		return fmt.Errorf("routed: priority weight %v, want a value in [0,1)", o.PriorityWeight)
	case o.TriggerRepeat < 1 || o.TriggerRepeat > 16:
		return fmt.Errorf("routed: trigger repeat %d, want 1..16", o.TriggerRepeat)
	}
	switch o.ToolText {
	case ToolTextNone, ToolTextNames, ToolTextFull:
	default:
		return fmt.Errorf("routed: tool text %q, want none, names or full", o.ToolText)
	}
	return nil
}
