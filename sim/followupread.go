package sim

import (
	"fmt"

	"github.com/defersim/defersim/component"
)

// FollowUpRead is Registry.FollowUpRead over the built-in components.
func (m Model) FollowUpRead(layout string, static, user, appended int64) (int64, error) {
	return builtins.FollowUpRead(m, layout, static, user, appended)
}

// FollowUpRead returns how many tokens a session's second request reads
// from model m's prompt cache (its cache kind, a cache model of r), as a
// replay counts them: the first request sends a static part (tools[], the
// system prompt and directory) of static tokens and a user message of user
// tokens; the second, at once, the same prompt with two messages appended
// (the reply's tool call and its result, appended tokens in all), its
// breakpoints placed in layout ("" the cache's own, cache.layout). The
// cache model decides: none reads nothing, anthropic only a prefix of at
// least cache.min_tokens that was written at a breakpoint and that a
// breakpoint's lookback reaches, openai the prefix counted in steps. Where
// the first prompt splits between static and user changes nothing but
// where a breakpoint falls.
func (r *Registry) FollowUpRead(m Model, layout string, static, user, appended int64) (int64, error) {
	_, second, err := r.followUp(m, layout, static, user, appended)
	return second.read, err
}

// cacheUse is what one request read from and wrote to the prompt cache.
type cacheUse struct{ read, write int64 }

// followUp runs the two requests FollowUpRead describes through a fresh
// cache of m's kind and returns what each read and wrote.
func (r *Registry) followUp(m Model, layout string, static, user, appended int64) (first, second cacheUse, err error) {
	cm, err := resolveAs[CacheModel](r, component.Cache, "cache.kind", m.Cache.Kind)
	if err != nil {
		return first, second, err
	}
	if err := cm.Check(m.Cache); err != nil {
		return first, second, fmt.Errorf("model %q: %w", m.Name, err)
	}
	c := cm.New(m.Cache)
	placer, _ := c.(BreakpointPlacer)
	hs, hu := hashString("followup:static"), hashString("followup:user")
	p1 := &Prompt{sHash: []uint64{mix(0, hs)}, sCum: []int64{static},
		mHash: []uint64{mix(0, hu)}, mCum: []int64{user}}
	call := mix(p1.mHash[0], hashString("followup:call"))
	p2 := &Prompt{sHash: p1.sHash, sCum: p1.sCum,
		mHash: []uint64{p1.mHash[0], call, mix(call, hashString("followup:result"))},
		mCum:  []int64{user, user, user + appended}}
	for _, p := range []*Prompt{p1, p2} {
		if placer != nil {
			last := p.Len() - 1
			p.Breakpoints = placer.Breakpoints(nil, PromptLayout{ToolsEnd: 0, SystemEnd: 0, Last: last,
				Messages: len(p.mHash), User: 1, Layout: layout})
		}
	}
	first.read, first.write = c.Request(0, p1)
	second.read, second.write = c.Request(0, p2)
	return first, second, nil
}
