package recommend

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// TestCSVStatesTheProposalsUncertainty pins that `recommend --format csv`
// says when the proposal as a whole is uncertain: the CSV had a per-tool
// uncertain column only, so a proposal whose mode was uncertain (the
// catalog's size within the budget's bounds) or priced a catalog version
// no training session used read as certain, while --fail-on-uncertain
// exited 1 on it. Every row now ends with proposal_uncertain (true
// exactly when UncertainReasons is not empty, the exit condition) and
// proposal_uncertain_reasons; the file stays rectangular.
func TestCSVStatesTheProposalsUncertainty(t *testing.T) {
	tests := []struct {
		name      string
		decisions int
		mode      bool
		gap       bool
		want      string // proposal_uncertain_reasons
	}{
		{"certain", 0, false, false, ""},
		{"a decision", 2, false, false, "decisions"},
		{"the mode alone", 0, true, false, "mode"},
		{"a version gap alone", 0, false, true, "version_gap"},
		{"all", 1, true, true, "decisions;mode;version_gap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Proposal{UncertainDecisions: tc.decisions,
				Tools: []Assessment{{Key: toolKey{Server: "s", Tool: "a"}}, {Key: toolKey{Server: "s", Tool: "b"}}}}
			if tc.mode {
				p.Spread = &BudgetSpread{Uncertain: true}
			}
			if tc.gap {
				p.VersionGap = &VersionGap{Servers: []string{"s@2.0.0 (the sessions: 1.0.0)"}}
			}
			if got := strings.Join(p.UncertainReasons(), ";"); got != tc.want {
				t.Errorf("UncertainReasons = %q, want %q", got, tc.want)
			}
			// The JSON's fields say the same (settleVerdict).
			settleVerdict(p)
			if got := strings.Join(p.ProposalUncertainReasons, ";"); got != tc.want || p.ProposalUncertain != (tc.want != "") || p.ProposalUncertainReasons == nil {
				t.Errorf("JSON proposal_uncertain %t, reasons %q (nil %t); want %q", p.ProposalUncertain, got, p.ProposalUncertainReasons == nil, tc.want)
			}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, p); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll() // fails on a ragged record
			if err != nil || len(recs) != 1+len(p.Tools) {
				t.Fatalf("%d records, %v:\n%s", len(recs), err, buf.String())
			}
			n := len(recs[0])
			if recs[0][n-2] != "proposal_uncertain" || recs[0][n-1] != "proposal_uncertain_reasons" {
				t.Fatalf("header ends %v", recs[0][n-2:])
			}
			wantFlag := "false"
			if tc.want != "" {
				wantFlag = "true"
			}
			for i, r := range recs[1:] {
				if r[n-2] != wantFlag || r[n-1] != tc.want {
					t.Errorf("row %d ends %q, %q; want %s, %q", i+1, r[n-2], r[n-1], wantFlag, tc.want)
				}
			}
		})
	}
}
