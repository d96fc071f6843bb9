package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestUnresolvedErrorSuggestsOnlyWhatTheCommandHas pins that recommend's
// refusal (FixedLimit) did not tell users to "raise --max-unresolved", a
// flag only run has, while run's refusal still names both ways to raise it.
func TestUnresolvedErrorSuggestsOnlyWhatTheCommandHas(t *testing.T) {
	r := &sim.ResolutionInfo{Unresolved: 5, UnresolvedShare: 0.05, MaxUnresolvedShare: 0.01}
	for _, tc := range []struct {
		name  string
		fixed bool
		want  bool // suggests raising the limit
	}{
		{"run", false, true},
		{"recommend", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := (&UnresolvedError{Resolution: r, FixedLimit: tc.fixed}).Error()
			got := strings.Contains(msg, "--max-unresolved") && strings.Contains(msg, "max_unresolved")
			if got != tc.want || strings.Contains(msg, "raise") != tc.want {
				t.Errorf("suggests raising the limit: %v, want %v:\n%s", got, tc.want, msg)
			}
			if !strings.Contains(msg, "--allow-unresolved") {
				t.Errorf("no --allow-unresolved in:\n%s", msg)
			}
		})
	}
}

// TestUnresolvedErrorPointsAtValidateForUnknownTools pins that a run
// stopped by unknown tools says where each call's line and the catalogs'
// own name for it are (trace validate): a trace naming tools
// mcp__<server>__<tool> or in another case stopped with only "unknown
// tool" for each. A run stopped by a missing version alone does not say so.
func TestUnresolvedErrorPointsAtValidateForUnknownTools(t *testing.T) {
	for _, tc := range []struct {
		class string
		want  bool
	}{
		{sim.ClassUnknownTool, true},
		{sim.ClassVersionMissing, false},
	} {
		t.Run(tc.class, func(t *testing.T) {
			r := &sim.ResolutionInfo{Unresolved: 5, UnresolvedShare: 0.05, MaxUnresolvedShare: 0.01,
				TopUnresolved: []sim.ToolCount{{Server: "airline", Tool: "Get_User_Details", Class: tc.class, Calls: 5}}}
			msg := (&UnresolvedError{Resolution: r}).Error()
			if got := strings.Contains(msg, "`defersim trace validate` with the same catalogs lists each call"); got != tc.want {
				t.Errorf("points at trace validate: %v, want %v:\n%s", got, tc.want, msg)
			}
		})
	}
}

// TestUnresolvedErrorValidateHintFitsUpgradeCalls pins that the stop's
// pointer at `trace validate` is true of the calls it covers: validate
// checks each line at the server version the trace records, so it lists no
// line for a call an upgrade left unserved (unknown_tool_after_upgrade) and
// only counts it with --scenario. The stop said validate "lists each call
// with its line" of such calls too.
func TestUnresolvedErrorValidateHintFitsUpgradeCalls(t *testing.T) {
	const lists = "`defersim trace validate` with the same catalogs lists each call with its line"
	for _, tc := range []struct {
		name             string
		unknown, upgrade int64
		want, notWant    []string
	}{
		{"recorded unknown tools only", 5, 0,
			[]string{lists + " and, for a tool name the catalogs serve in another case"},
			[]string{"--scenario", "unserved"}},
		{"all left unserved by an upgrade", 5, 5,
			[]string{"`defersim trace validate --scenario` with the run's scenario and catalogs counts these 5 calls in its run: line but lists no line for them"},
			[]string{lists, "spelled closely"}},
		{"both", 5, 2,
			[]string{lists + ", except the 2 an upgrade left unserved, which `trace validate --scenario` with the run's scenario only counts", "spelled closely"},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &sim.ResolutionInfo{Unresolved: tc.unknown, UnresolvedShare: 0.05, MaxUnresolvedShare: 0.01,
				TopUnresolved: []sim.ToolCount{{Server: "srv", Tool: "gone", Class: sim.ClassUnknownTool, Calls: tc.unknown}}}
			r.Resolution.UnknownTool, r.Resolution.UpgradeRemoved = tc.unknown, tc.upgrade
			msg := (&UnresolvedError{Resolution: r}).Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the stop lacks %q:\n%s", w, msg)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(msg, w) {
					t.Errorf("the stop says %q:\n%s", w, msg)
				}
			}
		})
	}
}
