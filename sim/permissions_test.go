package sim

import "testing"

// TestPermissionsAllowList pins issue 15's authorization rules: with an
// allow list, a call of a tool outside it is denied (deny also wins over
// allow), for deferred and direct tools alike; a denied call pays the
// request that made it but neither the tool's time nor its result tokens
// (the conversation gets the runtime's refusal instead).
func TestPermissionsAllowList(t *testing.T) {
	tools := []testTool{{"a", 100, 0}, {"b", 100, 0}}
	newEngine := func(allow, deny []string) *Engine {
		e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}},
			{Name: "always", Trigger: Trigger{Mode: "always"}}}, tools)
		e.allow, e.deny = allow, deny
		e.computeFlags()
		return e
	}
	steps := func() []Step {
		a, b := call("a"), call("b")
		a.Calls[0].ResultTokens = 500
		b.Calls[0].ResultTokens = 500 // more than the refusal's text
		b.Calls[0].DurationMs = 700   // the tool's own time, which a denial saves
		return []Step{user(10), a, b, reply()}
	}
	run := func(e *Engine) []Outcome {
		return e.ReplayNeed(&Need{SessionID: "p", SystemTokens: 100, Steps: steps()})
	}
	open := run(newEngine(nil, nil))
	for _, tc := range []struct {
		name        string
		allow, deny []string
		denied      float64
	}{
		{"allow lists a only", []string{"a"}, nil, 1},
		{"allow by server", []string{"s:*"}, nil, 0},
		{"allow by prefix, deny wins", []string{"*"}, []string{"b"}, 1},
		{"allow another server's tools", []string{"other:*"}, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := run(newEngine(tc.allow, tc.deny))
			for si, o := range out {
				if got := o.Values[MDeniedCalls]; got != tc.denied {
					t.Errorf("strategy %d: denied_calls = %v, want %v", si, got, tc.denied)
				}
				// The requests are the same; each denial takes the tool's
				// time off the session and its result off the conversation.
				if o.Values[MRequests] != open[si].Values[MRequests] {
					t.Errorf("strategy %d: %v requests, want %v as without permissions", si, o.Values[MRequests], open[si].Values[MRequests])
				}
				if tc.denied > 0 && !(o.Values[MInputTokens] < open[si].Values[MInputTokens]) {
					t.Errorf("strategy %d: input tokens %v not below %v: a denied call's result must not reach the prompt",
						si, o.Values[MInputTokens], open[si].Values[MInputTokens])
				}
				if tc.denied == 0 && o.Values != open[si].Values {
					t.Errorf("strategy %d: allowed calls changed the outcome", si)
				}
			}
		})
	}
	if !Metrics[MDeniedCalls].LowerIsBetter {
		t.Error("denied_calls is not lower-is-better")
	}
	// b's 700 ms are saved when b is denied.
	out := run(newEngine([]string{"a"}, nil))
	if d := open[0].Values[MSessionMs] - out[0].Values[MSessionMs]; !(d >= 700) {
		t.Errorf("session time saved by denying b = %v ms, want at least its 700 ms", d)
	}
}
