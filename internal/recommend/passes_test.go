package recommend

import (
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestDecisionsPricedWithTheirOwnFigures pins that the round trip and the
// loads a proposal reports are those its decisions were made with. The
// rules ran twice: the second pass decided with the first pass's figures
// (what it kept direct sets the round trip's prompt), and the proposal
// reported the figures the second pass's decisions give, so when a
// decision flipped between the passes the reported round trip was not the
// one the decisions used. They now run until the figures settle (at most
// maxDecisionPasses); decisions that do not settle report the figures
// they were made with, a warning, and proposal reason "unsettled".
//
// A directory pricer stands in for the engine's: large while opener and
// second are deferred, so that the first pass's round trip keeps both
// direct; smaller once opener is direct, where second's share no longer
// pays for its schema (it flips back to by budget) and opener's still
// does, so the third pass settles. Under the "oscillates" pricer the
// directory is empty once opener is direct, where opener no longer pays
// either: the lists never settle.
func TestDecisionsPricedWithTheirOwnFigures(t *testing.T) {
	opener, second := toolKey{Server: "s", Tool: "opener"}, toolKey{Server: "s", Tool: "second"}
	tests := []struct {
		name      string
		withOpen  int64 // the directory's tokens once opener is direct
		settles   bool
		wantLists [][]string // the never-defer lists priced, in order
	}{
		{"flips, then settles", 20000, true, [][]string{nil, {"opener", "second"}, {"opener"}, {"opener"}}},
		{"oscillates", 0, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := presets.Model("gpt-4o")
			if err != nil {
				t.Fatal(err)
			}
			m.Cache.Kind = sim.CacheNone
			base, err := presets.Strategy("codex-cli")
			if err != nil {
				t.Fatal(err)
			}
			rules := DefaultRules()
			rules.Expensive = 1 << 40 // no always-defer list
			cfg := Config{Model: m, Params: sim.Params{SearchToolTokens: 100, TokenScale: 1}, Rules: rules}
			sc := schemas{opener: {Tokens: 10000, Estimated: 10000}, second: {Tokens: 10000, Estimated: 10000}}
			// 100 sessions of 10 requests, 21000-token prompts (every schema sent); the
			// served count stands in for the sessions that could call
			// each tool (Usage.Served counts Unserved as such).
			u := newUsage(nil)
			u.Sessions = 100
			u.Tools[opener] = &toolUsage{Uses: 50, BeforeReply: 50, Unserved: 100}
			u.Tools[second] = &toolUsage{Uses: 20, BeforeReply: 20, Unserved: 100}
			l := &Learnt{Usage: u, Requests: 1000, FirstPrompt: 100 * 21000, Prompt: 1000 * 21000}
			var lists [][]string
			dir := func(s sim.Strategy) (int64, error) {
				if s.Scope == sim.ScopeMCP {
					lists = append(lists, s.NeverDefer)
				}
				if slices.Contains(s.NeverDefer, "opener") {
					return tc.withOpen, nil
				}
				return 100000, nil
			}
			p, err := propose(cfg, sc, l, base, "codex-cli", dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range p.Tools {
				if want := a.BeforeReplyShare * p.RoundTripMs; a.DeferMs != want {
					t.Errorf("%s: deferred it adds %v ms (decided with that round trip), the proposal reports a %v ms round trip (× %v = %v)",
						toolLabel(a.Key), a.DeferMs, p.RoundTripMs, a.BeforeReplyShare, want)
				}
			}
			reasons := p.UncertainReasons()
			if !tc.settles {
				u := p.Unsettled
				if u == nil {
					t.Fatalf("never-defer %v: want the decisions unsettled", p.Strategy.NeverDefer)
				}
				if u.Passes != maxDecisionPasses || len(u.Flipped) == 0 || u.Directory != p.Economy.Directory || u.DecidedDirectory != p.DirectoryTokens {
					t.Errorf("unsettled %+v; economy directory %d, decisions' %d", u, p.Economy.Directory, p.DirectoryTokens)
				}
				if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.HasPrefix(w, "the decisions did not settle in 8 passes") }) {
					t.Errorf("warnings %q: none says the decisions did not settle", p.Warnings)
				}
				if !slices.Contains(reasons, UncertainUnsettledReason) {
					t.Errorf("uncertain reasons %q lack %q", reasons, UncertainUnsettledReason)
				}
				return
			}
			if p.Unsettled != nil || slices.Contains(reasons, UncertainUnsettledReason) {
				t.Errorf("unsettled %+v, reasons %q: want settled", p.Unsettled, reasons)
			}
			if got := lists[:min(len(lists), len(tc.wantLists))]; !slices.EqualFunc(got, tc.wantLists, slices.Equal) {
				t.Errorf("never-defer lists priced %q, want %q first", lists, tc.wantLists)
			}
			if p.Economy.Directory != p.DirectoryTokens || p.Economy.DeferredSchema != 10000 {
				t.Errorf("priced a %d-token directory and %v deferred schema tokens; the decisions (never-defer %v) give %d and 10000",
					p.Economy.Directory, p.Economy.DeferredSchema, p.Strategy.NeverDefer, p.DirectoryTokens)
			}
		})
	}
}
