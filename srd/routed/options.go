package routed

import (
	"fmt"
	"math"

	"github.com/defersim/defersim/sim/search"
)

// ToolText says how much of each tool goes into its domain's document.
type ToolText string

// Tool text levels.
const (
	ToolTextNone  ToolText = "none"  // triggers, names and summaries only
	ToolTextNames ToolText = "names" // plus the tool names
	ToolTextFull  ToolText = "full"  // plus each tool's whole search document
)

// DomainIndex says how stage one indexes a domain.
type DomainIndex string

// Domain index kinds.
const (
	// DomainIndexConcat joins a domain's text into one document scored by
	// the base ranker (the first router's design).
	DomainIndexConcat DomainIndex = "concat"
	// DomainIndexFielded keeps a domain's text in fields (DomainFields)
	// scored by BM25F, each field normalised by its length, so a domain
	// with long SRDs or many tools does not win on common words.
	DomainIndexFielded DomainIndex = "fielded"
)

// The fields of a fielded domain document, in order.
const (
	DomainFieldNames     = iota // the domain slug, display names, tool group names
	DomainFieldSummaries        // summaries
	DomainFieldTriggers         // intent triggers
	DomainFieldToolNames        // the domain's tool names
	DomainFieldToolText         // the tools' descriptions, parameter names and descriptions
	NumDomainFields
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
	// ToolText is how much of each tool the domain document holds
	// (DomainIndexConcat).
	ToolText ToolText
	// DomainIndex is how stage one indexes domains ("" is concat).
	DomainIndex DomainIndex
	// DomainParams score fielded domain documents (DomainIndexFielded):
	// NumDomainFields field weights, in DomainField order.
	DomainParams search.BM25FParams
	// ToolMax is the share of a domain's stage-one score taken from the
	// best score of its tools (0..1); the rest is its document's.
	ToolMax float64
	// FlatFuse is the weight of the flat ranking (the base ranker alone) in
	// a reciprocal-rank fusion with the routed ranking (weight 1); 0 turns
	// fusion off. Fusion keeps a strong flat hit near the top whatever the
	// router thinks of its domain.
	FlatFuse float64
	// FuseC is the reciprocal-rank constant c in weight/(c + rank).
	FuseC float64
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

// FusedOptions returns the fused router chosen on the tuning split
// (docs/retrieval.md, "Tuning"): fielded, length-normalised domain
// documents (DefaultDomainParams), domain weight 0.8, match floor 0.25,
// the lead, no share of the best tool in a domain's score, and the result
// fused with the flat ranking by reciprocal rank (flat weight 0.5, c 5).
func FusedOptions() Options {
	o := DefaultOptions()
	o.DomainIndex = DomainIndexFielded
	o.DomainParams = DefaultDomainParams()
	o.DomainWeight = 0.8
	o.ToolMax = 0
	o.FlatFuse = 0.5
	o.FuseC = 5
	return o
}

// DefaultDomainParams are the BM25F parameters of fielded domain
// documents chosen on the tuning split: the names weighted 2, summaries 1
// and triggers 0.5 (b 0.75), the tools' text 1 normalised fully by its
// length (b 1), the tool names not counted; the default analyzer, k1 1.2.
func DefaultDomainParams() search.BM25FParams {
	p := search.DefaultBM25F()
	p.K1 = 1.2
	p.Fields = []search.FieldParams{
		DomainFieldNames:     {W: 2, B: 0.75},
		DomainFieldSummaries: {W: 1, B: 0.75},
		DomainFieldTriggers:  {W: 0.5, B: 0.75},
		DomainFieldToolNames: {W: 0, B: 1},
		DomainFieldToolText:  {W: 1, B: 1},
	}
	return p
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
	switch {
	case o.DomainIndex != "" && o.DomainIndex != DomainIndexConcat && o.DomainIndex != DomainIndexFielded:
		return fmt.Errorf("routed: domain index %q, want concat or fielded", o.DomainIndex)
	case o.DomainIndex == DomainIndexFielded && len(o.DomainParams.Fields) != NumDomainFields:
		return fmt.Errorf("routed: fielded domains need %d field weights, got %d", NumDomainFields, len(o.DomainParams.Fields))
	case !(o.ToolMax >= 0 && o.ToolMax <= 1):
		return fmt.Errorf("routed: tool max %v, want a value in [0,1]", o.ToolMax)
	case !(o.FlatFuse >= 0) || math.IsInf(o.FlatFuse, 0):
		return fmt.Errorf("routed: flat fusion weight %v, want a finite value >= 0", o.FlatFuse)
	case o.FlatFuse > 0 && (!(o.FuseC >= 0) || math.IsInf(o.FuseC, 0)):
		return fmt.Errorf("routed: fusion constant %v, want a finite value >= 0", o.FuseC)
	}
	return nil
}
