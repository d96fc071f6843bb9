package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBreakpointLayouts pins where each layout marks a prompt of 13
// blocks (tools end at 2, system and directory at 4, eight messages, the
// current user message at 7): the engine's default marks the last message,
// the end of tools[], the end of system and the second-to-last message; the
// anchor runtime's (REFERENCE §1: "system, last tool, current user
// message, rolling marker on the second-to-last message") marks the
// current user message instead of the last one. With fewer breakpoints the
// first of each layout's priority order are kept.
func TestBreakpointLayouts(t *testing.T) {
	l := PromptLayout{ToolsEnd: 2, SystemEnd: 4, Last: 12, Messages: 8, User: 7}
	for _, tc := range []struct {
		layout string
		max    int
		want   []int
	}{
		{"", 4, []int{2, 4, 11, 12}},
		{LayoutLastMessage, 4, []int{2, 4, 11, 12}},
		{LayoutCurrentUser, 4, []int{2, 4, 7, 11}},
		{LayoutLastMessage, 2, []int{2, 12}},
		{LayoutCurrentUser, 2, []int{2, 4}},
	} {
		c := newAnthropicCache(CacheConfig{TTLSeconds: 300, Breakpoints: tc.max, Lookback: 20})
		l.Layout = tc.layout
		if got := c.Breakpoints(nil, l); !cmp.Equal(got, tc.want) {
			t.Errorf("layout %q, %d breakpoints: %v, want %v", tc.layout, tc.max, got, tc.want)
		}
	}
	// The model's cache.layout applies when the strategy names none.
	c := newAnthropicCache(CacheConfig{TTLSeconds: 300, Breakpoints: 4, Lookback: 20, Layout: LayoutCurrentUser})
	l.Layout = ""
	if got := c.Breakpoints(nil, l); !cmp.Equal(got, []int{2, 4, 7, 11}) {
		t.Errorf("cache.layout current-user: %v", got)
	}
	// No user message yet: that breakpoint is left out.
	l.User, l.Layout = -1, LayoutCurrentUser
	if got := c.Breakpoints(nil, l); !cmp.Equal(got, []int{2, 4, 11}) {
		t.Errorf("no user message: %v", got)
	}
}

// TestCurrentUserLayoutCosts replays two runs of two tool calls each under
// both layouts (eager: tools[] never changes; one tool of 100 tokens, a
// 1,000-token system prompt, one byte one token, no framing overheads, a
// call message of 3 tokens and a result of 20). Blocks and their
// cumulative tokens: x 100, system 1,100, user 1,110, call 1,113, result
// 1,133, call 1,136, result 1,156, reply 1,161, user 1,171, call 1,174,
// result 1,194.
//
//	request   last-message: marks, read, write       current-user: marks, read, write, uncached
//	1 (call)  {0,1,2}     0     1,110                {0,1,2}     0     1,110   0
//	2 (call)  {0,1,3,4}   1,110    23                {0,1,2,3}   1,110     3  20
//	3 (reply) {0,1,5,6}   1,133    23                {0,1,2,5}   1,113    23  20
//	4 (call)  {0,1,7,8}   1,156    15                {0,1,7,8}   1,136    35   0
//	5 (reply) {0,1,9,10}  1,171    23                {0,1,8,9}   1,171     3  20
//
// The anchor's layout leaves each run's newest message uncached once and
// reads less, so it reads 40 fewer tokens and writes 20 fewer, with 60
// uncached.
func TestCurrentUserLayoutCosts(t *testing.T) {
	never := Trigger{Mode: "never"}
	e := newTestEngine(t, []Strategy{
		{Name: "last-message", Trigger: never},
		{Name: "current-user", Trigger: never, CacheLayout: LayoutCurrentUser},
	}, []testTool{{"x", 100, 0}})
	n := &Need{SessionID: "s1", SystemTokens: 1000, Steps: []Step{user(10), call("x"), call("x"), reply(), user(10), call("x"), reply()}}
	out := e.ReplayNeed(n)
	check(t, "last-message", out[0], want{MInputTokens: 5764, MCacheReadTokens: 4570, MCacheWriteTokens: 1194, MUncachedTokens: 0})
	check(t, "current-user", out[1], want{MInputTokens: 5764, MCacheReadTokens: 4530, MCacheWriteTokens: 1174, MUncachedTokens: 60})
}
