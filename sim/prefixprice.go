package sim

// PrefixPrice is Registry.PrefixPrice over the built-in components.
func (m Model) PrefixPrice(layout string, static, user, appended int64) (first, later float64, err error) {
	return builtins.PrefixPrice(m, layout, static, user, appended)
}

// PrefixPrice returns what a token at the start of the prompt (in
// tools[]) costs, as a multiple of model m's input price, on a session's
// first request and on a follow-up, as a replay bills it: the two requests
// of FollowUpRead run through a fresh cache of m's kind, and a token read
// from the cache is billed cache.read_multiplier, one written
// cache.write_multiplier, any other (uncached) 1. So under cache.kind none
// both are 1 whatever the multipliers say, as they are for a prompt below
// cache.min_tokens; a follow-up that reads nothing but writes the prompt
// again pays the write multiplier.
func (r *Registry) PrefixPrice(m Model, layout string, static, user, appended int64) (first, later float64, err error) {
	u1, u2, err := r.followUp(m, layout, static, user, appended)
	if err != nil {
		return 0, 0, err
	}
	return prefixMultiple(m.Cache, u1), prefixMultiple(m.Cache, u2), nil
}

// prefixMultiple is the price multiple of the prompt's first token in a
// request that used the cache as u: a read, else a write, covers the
// prompt from its start.
func prefixMultiple(c CacheConfig, u cacheUse) float64 {
	switch {
	case u.read > 0:
		return c.ReadMultiplier
	case u.write > 0:
		return c.WriteMultiplier
	}
	return 1
}
