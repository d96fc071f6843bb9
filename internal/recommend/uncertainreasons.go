package recommend

// The reasons a proposal is uncertain (Proposal.UncertainReasons), in
// this order.
const (
	// UncertainDecisionsReason: some tool's decision is uncertain.
	UncertainDecisionsReason = "decisions"
	// UncertainModeReason: the catalog's size is within the budget's
	// bounds (ModeUncertain).
	UncertainModeReason = "mode"
	// UncertainVersionGapReason: no training session used the catalog
	// version priced of some server (VersionGap).
	UncertainVersionGapReason = "version_gap"
	// UncertainUnsettledReason: the decisions did not settle (Unsettled).
	UncertainUnsettledReason = "unsettled"
)

// UncertainReasons says why the proposal is uncertain: empty when it is
// not. `recommend --fail-on-uncertain` exits 1 exactly when it is not
// empty, and the CSV ends every row with it.
func (p *Proposal) UncertainReasons() []string {
	var out []string
	if p.UncertainDecisions > 0 {
		out = append(out, UncertainDecisionsReason)
	}
	if p.ModeUncertain() {
		out = append(out, UncertainModeReason)
	}
	if p.VersionGap != nil {
		out = append(out, UncertainVersionGapReason)
	}
	if p.Unsettled != nil {
		out = append(out, UncertainUnsettledReason)
	}
	return out
}

// settleVerdict records UncertainReasons in the proposal's JSON fields
// (ProposalUncertain, ProposalUncertainReasons: [] when certain), once
// nothing the reasons read changes any more.
func settleVerdict(p *Proposal) {
	p.ProposalUncertainReasons = append([]string{}, p.UncertainReasons()...)
	p.ProposalUncertain = len(p.ProposalUncertainReasons) > 0
}
