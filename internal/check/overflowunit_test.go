package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestOverflowWarningStatesTheUnit pins that check's warning of requests
// over the context window gives the largest request in tokens, as plan's
// and run's do ("the largest 272329 tokens"); it said "(the largest
// 272329, session s1)", a number without a unit.
func TestOverflowWarningStatesTheUnit(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	base, cur := results("f", map[string]map[string]report.Distribution{"a": d}), results("f", map[string]map[string]report.Distribution{"a": d})
	base.Sessions, cur.Sessions = 2, 2
	cur.Strategies[0].ContextOverflow = &sim.ContextOverflow{Requests: 4, Sessions: 2, Window: 200000, MaxInput: 272329, MaxSession: "s1"}
	ws := overflowWarnings(base, cur, nil)
	want := "current: a sends 4 model requests over the model's context window of 200000 tokens in 2 of 2 sessions (the largest 272329 tokens, session s1), where the baseline's sent none: "
	if len(ws) != 1 || !strings.HasPrefix(ws[0], want) {
		t.Errorf("warnings %q, want one starting %q", ws, want)
	}
}
