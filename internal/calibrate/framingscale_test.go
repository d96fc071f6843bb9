package calibrate

import (
	"fmt"
	"testing"
)

// TestFramingNotScaled pins that the engine adds message_overhead_tokens
// and tool_overhead_tokens unscaled by params.token_scale, so the framing
// columns calibrate measures once, at the scenario's scale (MsgUnits,
// ToolUnits: what one token of each adds to the prompt), are the same at
// the token_scale it fits: on the generated sessions collected at token
// scales 1, 1.3 and 2, every request's MsgUnits and ToolUnits are equal,
// while its scaled tokens (Sim0) differ.
func TestFramingNotScaled(t *testing.T) {
	trace, cat := recorded(t)
	cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
	groups, _, err := scanGroups(&cfg.Data)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := cfg.setup(cfg.Model)
	if err != nil {
		t.Fatal(err)
	}
	src := cfg.source(groups[0].key, false)
	collectAt := func(scale float64) []Request {
		p := cfg.Params
		p.TokenScale = scale
		reqs, _, _, err := setup.collect(src, p)
		if err != nil {
			t.Fatal(err)
		}
		return reqs
	}
	base := collectAt(1)
	var msgs, tools int64
	for _, r := range base {
		msgs, tools = msgs+r.MsgUnits, tools+r.ToolUnits
	}
	if msgs == 0 || tools == 0 {
		t.Fatalf("%d requests with %d message and %d tool framing units: nothing to compare", len(base), msgs, tools)
	}
	for _, scale := range []float64{1.3, 2} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			got := collectAt(scale)
			if len(got) != len(base) {
				t.Fatalf("%d requests at token_scale %g, %d at 1", len(got), scale, len(base))
			}
			sim0Moved := 0
			for i, r := range got {
				b := base[i]
				if r.Session != b.Session || r.Index != b.Index {
					t.Fatalf("request %d: %s#%d at %g, %s#%d at 1", i, r.Session, r.Index, scale, b.Session, b.Index)
				}
				if r.MsgUnits != b.MsgUnits || r.ToolUnits != b.ToolUnits {
					t.Errorf("%s#%d: framing units %d messages, %d tools at token_scale %g; %d, %d at 1",
						r.Session, r.Index, r.MsgUnits, r.ToolUnits, scale, b.MsgUnits, b.ToolUnits)
				}
				if r.Sim0 != b.Sim0 {
					sim0Moved++
				}
			}
			if sim0Moved == 0 {
				t.Errorf("no request's prompt moved at token_scale %g: the scale was not applied", scale)
			}
		})
	}
}
