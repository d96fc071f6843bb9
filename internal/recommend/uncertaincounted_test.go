package recommend

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// TestUncertainCountsWhatTheModeRuns pins that under scope
// always-defer-only the "K of M decisions uncertain" count (and the
// "decisions" reason of proposal_uncertain_reasons) leaves out the
// decisions that cannot change a run of that mode: never-defer against by
// budget, which the mode sends alike. It counted them, so a proposal whose
// only doubt was an opener above the budget failed --fail-on-uncertain.
// The text says how many it left out; text, CSV and JSON agree. With the
// mode itself uncertain nothing is left out (above the budget the
// decisions take effect) and the text says how many matter only there.
func TestUncertainCountsWhatTheModeRuns(t *testing.T) {
	e := toolsArrayEconomy()
	// Seen twice before the first reply in 200 sessions: by budget, or
	// never-defer within its bounds. Called in exactly --rare of them:
	// always-defer, or by budget.
	opener := assess(e, e, DefaultRules(), 500, toolKey{"s", "opener"}, &toolUsage{Opens: 2, Uses: 2, FirstTurn: 2, BeforeReply: 2, Calls: 2}, 200, 200, Schema{Tokens: 300}, false)
	rare := assess(e, e, DefaultRules(), 500, toolKey{"s", "rare"}, &toolUsage{Uses: 10, Calls: 10}, 200, 200, Schema{Tokens: 5000}, false)
	if opener.Decision != byBudget || opener.Uncertainty == nil || opener.Uncertainty.Alternative != neverDefer ||
		rare.Decision != alwaysDefer || rare.Uncertainty == nil {
		t.Fatalf("opener %s %+v, rare %s %+v: the test needs an uncertain by-budget/never-defer and an uncertain always-defer", opener.Decision, opener.Uncertainty, rare.Decision, rare.Uncertainty)
	}
	tests := []struct {
		name        string
		scope       string
		tools       []Assessment
		counted     int
		leftOut     int
		wantReasons string
		modeOpen    bool
		aboveOnly   int
	}{
		{"scope mcp counts both", sim.ScopeMCP, []Assessment{opener, rare}, 2, 0, "decisions", false, 0},
		{"always-defer-only counts the list's", sim.ScopeAlwaysDeferOnly, []Assessment{opener, rare}, 1, 1, "decisions", false, 0},
		{"always-defer-only, the opener alone", sim.ScopeAlwaysDeferOnly, []Assessment{opener}, 0, 1, "", false, 0},
		{"always-defer-only, mode uncertain, counts both", sim.ScopeAlwaysDeferOnly, []Assessment{opener, rare}, 2, 0, "decisions;mode", true, 1},
		{"always-defer-only, mode uncertain, the opener alone", sim.ScopeAlwaysDeferOnly, []Assessment{opener}, 1, 0, "decisions;mode", true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Proposal{Tools: append([]Assessment(nil), tc.tools...), Rules: DefaultRules(), Training: 200, HeldOut: 1, TestShare: 0.3}
			p.Strategy.Scope = tc.scope
			if tc.modeOpen {
				p.Spread = &BudgetSpread{Uncertain: true}
			}
			summarize(p)
			settleVerdict(p)
			if p.UncertainDecisions != tc.counted || p.UncertainLeftOut != tc.leftOut {
				t.Fatalf("%d counted, %d left out; want %d, %d", p.UncertainDecisions, p.UncertainLeftOut, tc.counted, tc.leftOut)
			}
			if got := strings.Join(p.ProposalUncertainReasons, ";"); got != tc.wantReasons {
				t.Errorf("reasons %q, want %q", got, tc.wantReasons)
			}
			line := uncertainLine(p)
			if !strings.HasPrefix(line, fmt.Sprintf("%d of %s", tc.counted, nouns.Count(len(tc.tools), "decision"))) {
				t.Errorf("uncertain line %q, want it to start %q", line, fmt.Sprintf("%d of %s", tc.counted, nouns.Count(len(tc.tools), "decision")))
			}
			if said := strings.Contains(line, "left out: never-defer or by budget"); said != (tc.leftOut > 0) {
				t.Errorf("uncertain line %q says what it left out: %t, want %t", line, said, tc.leftOut > 0)
			}
			above := fmt.Sprintf("; %d of them %s only above the budget", tc.aboveOnly, nouns.Form(tc.aboveOnly, "takes effect", "take effect"))
			if p.UncertainAboveOnly != tc.aboveOnly || strings.Contains(line, above) != (tc.aboveOnly > 0) {
				t.Errorf("%d above the budget only, line %q; want %d said", p.UncertainAboveOnly, line, tc.aboveOnly)
			}
			// The CSV's uncertain_counted column and the JSON's agree.
			var buf bytes.Buffer
			if err := WriteCSV(&buf, p); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := -1
			for i, h := range recs[0] {
				if h == "uncertain_counted" {
					col = i
				}
			}
			csvCounted := 0
			for _, r := range recs[1:] {
				if col >= 0 && r[col] == "true" {
					csvCounted++
				}
			}
			js, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var j struct {
				Counted int `json:"uncertain_decisions"`
				LeftOut int `json:"uncertain_decisions_left_out"`
				Above   int `json:"uncertain_decisions_above_budget_only"`
				Tools   []struct {
					Uncertain bool `json:"uncertain"`
					Counted   bool `json:"uncertain_counted"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(js, &j); err != nil {
				t.Fatal(err)
			}
			jsonCounted, jsonUncertain := 0, 0
			for _, a := range j.Tools {
				if a.Counted {
					jsonCounted++
				}
				if a.Uncertain {
					jsonUncertain++
				}
			}
			if csvCounted != tc.counted || jsonCounted != tc.counted || j.Counted != tc.counted || j.LeftOut != tc.leftOut || j.Above != tc.aboveOnly || jsonUncertain != tc.counted+tc.leftOut {
				t.Errorf("CSV counts %d, JSON tools %d (of %d uncertain), JSON uncertain_decisions %d, left out %d; want %d counted, %d left out",
					csvCounted, jsonCounted, jsonUncertain, j.Counted, j.LeftOut, tc.counted, tc.leftOut)
			}
		})
	}
}
