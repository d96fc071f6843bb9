package sim

import "math/bits"

// Prompt is one model request as the cache sees it: a sequence of blocks,
// each with the hash of the prefix ending at it (PrefixHash) and the
// cumulative tokens up to and including it (CumTokens).
//
// A prompt is two segments: the static part (tools[], system prompt,
// directory: blocks [0, s)) and the conversation (the messages: blocks
// [s, Len())). The prefix hash of a block of the static part chains the
// static blocks up to it; that of a message combines the hash of the whole
// static part with the chain of the messages up to it. Either way, equal
// prefixes have equal hashes and (up to 64-bit collisions) different ones
// differ; but the conversation's chain does not depend on the static part,
// so a change of tools[] does not make every message's hash and sum be
// computed again: a long session costs O(1) per request, not O(length).
type Prompt struct {
	// Breakpoints are block indices (ascending) where the runtime marks the
	// prompt cacheable (explicit-breakpoint caches only).
	Breakpoints []int

	sHash []uint64 // the static part's prefix hashes
	sCum  []int64  // and cumulative tokens
	mHash []uint64 // the conversation's own hash chain (from 0)
	mCum  []int64  // and cumulative tokens, from its first message
}

// Len returns the number of blocks.
func (p *Prompt) Len() int { return len(p.sHash) + len(p.mHash) }

// PrefixHash returns the hash of blocks [0, i].
func (p *Prompt) PrefixHash(i int) uint64 {
	if i < len(p.sHash) {
		return p.sHash[i]
	}
	return mix(p.top(), p.mHash[i-len(p.sHash)])
}

// top returns the hash of the whole static part (0 when it is empty),
// which every message's prefix hash mixes in.
func (p *Prompt) top() uint64 {
	if len(p.sHash) == 0 {
		return 0
	}
	return p.sHash[len(p.sHash)-1]
}

// CumTokens returns the tokens of blocks [0, i].
func (p *Prompt) CumTokens(i int) int64 {
	if i < len(p.sCum) {
		return p.sCum[i]
	}
	var base int64
	if len(p.sCum) > 0 {
		base = p.sCum[len(p.sCum)-1]
	}
	return base + p.mCum[i-len(p.sCum)]
}

// Total returns the prompt's tokens.
func (p *Prompt) Total() int64 {
	if p.Len() == 0 {
		return 0
	}
	return p.CumTokens(p.Len() - 1)
}

// PromptCache is a prompt-cache model. Request returns how many of the
// prompt's tokens were read from the cache and written to it by a request at
// time nowMs, and updates the cache. Implementations hold one session's
// cache state; Reset empties it.
type PromptCache interface {
	Request(nowMs float64, p *Prompt) (read, write int64)
	// Seed makes the prompt's cacheable prefixes live at nowMs without
	// counting anything, as if another session had just written them.
	Seed(nowMs float64, p *Prompt)
	Reset()
}

// CacheModel is a registered prompt-cache model (cache.kind).
type CacheModel interface {
	// Check reports what is wrong with cfg for this model, as a
	// *FieldError ("cache.ttl_s"); the fields every model shares are
	// checked before.
	Check(cfg CacheConfig) error
	// New returns an empty cache of one session (cfg has passed Check).
	New(cfg CacheConfig) PromptCache
}

// BreakpointPlacer is a prompt cache whose requests mark breakpoints:
// Breakpoints appends to dst, ascending, the indices of the blocks where a
// request of layout l marks the prompt cacheable. A cache that does not
// implement it gets prompts without breakpoints.
type BreakpointPlacer interface {
	Breakpoints(dst []int, l PromptLayout) []int
}

// PromptLayout says where the parts of a prompt end, as block indices, and
// which breakpoint layout the runtime uses.
type PromptLayout struct {
	// ToolsEnd is the last block of tools[] (-1 when tools[] is empty);
	// SystemEnd the last of the system prompt and directory; Last the
	// prompt's last block.
	ToolsEnd, SystemEnd, Last int
	// Messages is how many message blocks follow SystemEnd.
	Messages int
	// User is the block of the current (latest) user message, -1 when
	// there is none yet.
	User int
	// Layout names the runtime's breakpoint layout (BreakpointLayouts);
	// "" is the cache's own (cache.layout).
	Layout string
}

// Breakpoint layouts: where a runtime marks an explicit-breakpoint cache,
// in priority order (a cache with fewer breakpoints takes the first ones).
const (
	// LayoutLastMessage: the last message, the end of tools[], the end of
	// the system prompt and directory, the second-to-last message.
	LayoutLastMessage = "last-message"
	// LayoutCurrentUser: the end of the system prompt and directory, the
	// end of tools[], the current user message, the second-to-last message
	// (the anchor runtime's four breakpoints, REFERENCE §1).
	LayoutCurrentUser = "current-user"
)

// BreakpointLayouts lists the breakpoint layouts, the default first.
func BreakpointLayouts() []string { return []string{LayoutLastMessage, LayoutCurrentUser} }

func checkLayout(field, layout string) error {
	if layout == "" {
		return nil
	}
	return oneOf(field, layout, BreakpointLayouts()...)
}

type cacheModel struct {
	check func(CacheConfig) error
	new   func(CacheConfig) PromptCache
}

func (m cacheModel) Check(cfg CacheConfig) error     { return m.check(cfg) }
func (m cacheModel) New(cfg CacheConfig) PromptCache { return m.new(cfg) }

func registerCaches(r *Registry) error {
	ttl := Param{Name: "cache.ttl_s", Type: "float", Meaning: "an entry expires this long after its last write or read"}
	minTok := Param{Name: "cache.min_tokens", Type: "int", Meaning: "prefixes shorter than this are not cached"}
	mult := []Param{
		{Name: "cache.write_multiplier", Type: "float", Meaning: "price of a written token, as a multiple of the input price"},
		{Name: "cache.read_multiplier", Type: "float", Meaning: "price of a read token, as a multiple of the input price"},
	}
	if err := r.RegisterCache(Info{Name: "anthropic",
		Description: "explicit breakpoints (last message, end of tools[], end of system and directory, second-to-last message); a request reads the longest live prefix near a breakpoint",
		Params: append([]Param{ttl, minTok,
			{Name: "cache.breakpoints", Type: "int", Default: "4", Meaning: "most breakpoints per request"},
			{Name: "cache.layout", Type: "string", Default: LayoutLastMessage,
				Meaning: "where requests mark breakpoints unless the strategy says (cache_layout): last-message, or current-user (the anchor runtime's: system, tools, current user message, second-to-last message)"},
			{Name: "cache.lookback", Type: "int", Default: "20", Meaning: "blocks before a breakpoint searched for a cached prefix"}}, mult...)},
		cacheModel{check: checkAnthropicCache, new: func(cfg CacheConfig) PromptCache { return newAnthropicCache(cfg) }}); err != nil {
		return err
	}
	if err := r.RegisterCache(Info{Name: "openai",
		Description: "automatic prefix caching: every prefix of at least min_tokens is cached; reads count in steps",
		Params: append([]Param{ttl, minTok,
			{Name: "cache.step", Type: "int", Default: "128", Meaning: "cached prefixes count in steps of this many tokens"}}, mult...)},
		cacheModel{check: checkOpenAICache, new: func(cfg CacheConfig) PromptCache { return newOpenAICache(cfg) }}); err != nil {
		return err
	}
	return r.RegisterCache(Info{Name: "none", Description: "no prompt cache: every input token is uncached"},
		cacheModel{check: func(CacheConfig) error { return nil }, new: func(CacheConfig) PromptCache { return noCache{} }})
}

func checkAnthropicCache(c CacheConfig) error {
	if c.TTLSeconds == 0 {
		return fieldErr("cache.ttl_s", "0: an anthropic cache needs a positive TTL")
	}
	if c.Breakpoints == 0 {
		return fieldErr("cache.breakpoints", "0: an anthropic cache needs at least one breakpoint")
	}
	if c.Lookback == 0 {
		return fieldErr("cache.lookback", "0: an anthropic cache needs a positive lookback")
	}
	return checkLayout("cache.layout", c.Layout)
}

func checkOpenAICache(c CacheConfig) error {
	if c.Layout != "" {
		return fieldErr("cache.layout", "%q: an openai cache marks no breakpoints (every prefix is cached)", c.Layout)
	}
	if c.TTLSeconds == 0 {
		return fieldErr("cache.ttl_s", "0: an openai cache needs a positive TTL")
	}
	if c.Step == 0 {
		return fieldErr("cache.step", "0: an openai cache needs a positive step")
	}
	return nil
}

// anthropicCache models explicit-breakpoint prefix caching: a breakpoint's
// prefix is written when no live entry covers it; a later request reads the
// longest live prefix found within Lookback blocks before one of its
// breakpoints. Reads and writes refresh the entry's TTL.
type anthropicCache struct {
	ttlMs    float64
	min      int64
	lookback int
	maxBP    int         // breakpoints per request
	layout   string      // cache.layout
	entries  expiryTable // prefix hash -> expiry (ms)
	// tops maps the hash of a prompt's static part (Prompt.top) to the
	// latest expiry of the entries put for message prefixes under it. A
	// message's prefix hash mixes in its prompt's top, so when a prompt's
	// top has no live entry here, none of its message prefixes can be live
	// (but through a 64-bit collision): the lookback skips them. After a
	// change of tools[] that is every message.
	tops expiryTable
	// spos marks the static part's positions (block indices) where an
	// entry was put since Reset. A static prefix's hash chains its blocks
	// from the first, so it equals an entry's hash only at the position
	// the entry was put at (but through a collision): the lookback probes
	// those positions alone.
	spos []uint64
	// The top of the latest message entry put (topSet: valid) and the
	// latest expiry of the entries put under it since it became the
	// latest, which is not in tops yet: it is written there when another
	// top is put (topExp reads both). Consecutive requests mostly share
	// their static part, so this saves a table write per request.
	topSet  bool
	lastTop uint64
	lastExp float64
	// seen is a 4096-bit filter with the bit of every hash written since
	// Reset set (bit number: the hash's top 12 bits), so that most of the
	// lookback's misses skip the map: a clear bit means the hash is not in
	// entries.
	seen [64]uint64
}

func newAnthropicCache(cfg CacheConfig) *anthropicCache {
	lb := cfg.Lookback
	if lb <= 0 {
		lb = 20
	}
	bp := cfg.Breakpoints
	if bp <= 0 {
		bp = 4
	}
	return &anthropicCache{ttlMs: cfg.TTLSeconds * 1000, min: cfg.MinTokens, lookback: lb, maxBP: bp, layout: cfg.Layout}
}

// Breakpoints places at most maxBP breakpoints of the request's layout
// (l.Layout, else cache.layout), by priority: under last-message the last
// message, the end of tools[], the end of the system prompt and directory,
// the second-to-last message; under current-user the end of the system
// prompt and directory, the end of tools[], the current user message, the
// second-to-last message.
func (c *anthropicCache) Breakpoints(dst []int, l PromptLayout) []int {
	rolling := l.Last - 1
	if l.Messages < 2 {
		rolling = -1
	}
	layout := l.Layout
	if layout == "" {
		layout = c.layout
	}
	cands := [4]int{l.Last, l.ToolsEnd, l.SystemEnd, rolling}
	if layout == LayoutCurrentUser {
		cands = [4]int{l.SystemEnd, l.ToolsEnd, l.User, rolling}
	}
	if c.maxBP >= len(cands) {
		// Every candidate is kept: sort the four (a sorting network),
		// then append them without negatives and repeats.
		a0, a1 := min(cands[0], cands[1]), max(cands[0], cands[1])
		b0, b1 := min(cands[2], cands[3]), max(cands[2], cands[3])
		x0, x3 := min(a0, b0), max(a1, b1)
		y0, y1 := max(a0, b0), min(a1, b1)
		x1, x2 := min(y0, y1), max(y0, y1)
		prev := -1
		for _, x := range [4]int{x0, x1, x2, x3} {
			if x > prev {
				dst = append(dst, x)
				prev = x
			}
		}
		return dst
	}
	start := len(dst)
	for _, b := range cands {
		if len(dst)-start >= c.maxBP {
			break
		}
		if b < 0 {
			continue
		}
		// Insert b in order (at most four candidates: no sort call).
		i := len(dst)
		for i > start && dst[i-1] > b {
			i--
		}
		if i > start && dst[i-1] == b {
			continue
		}
		dst = append(dst, b)
		for k := len(dst) - 1; k > i; k-- { // (a loop: copy's memmove call costs more)
			dst[k] = dst[k-1]
		}
		dst[i] = b
	}
	return dst
}

func (c *anthropicCache) Reset() {
	c.entries.reset()
	c.tops.reset()
	clear(c.spos)
	c.topSet = false
	c.seen = [64]uint64{}
}

// put makes the prefix of p ending at block i live until exp.
func (c *anthropicCache) put(p *Prompt, i int, exp float64) {
	var h uint64
	if s := len(p.sHash); i < s {
		h = p.sHash[i]
		w := i >> 6
		if w >= len(c.spos) {
			c.spos = append(c.spos, make([]uint64, w+1-len(c.spos))...)
		}
		c.spos[w] |= 1 << (i & 63)
	} else {
		top := p.top()
		h = mix(top, p.mHash[i-s])
		c.putTop(top, exp)
	}
	c.entries.set(h, exp)
	c.seen[h>>58] |= 1 << (h >> 52 & 63)
}

// putTop notes that an entry under top was made live until exp: tops
// (with the pending lastTop, lastExp) holds the latest expiry per top.
func (c *anthropicCache) putTop(top uint64, exp float64) {
	if c.topSet && top == c.lastTop { // (inlined: most puts)
		if exp > c.lastExp {
			c.lastExp = exp
		}
		return
	}
	c.switchTop(top, exp)
}

// switchTop writes the pending top's expiry to tops and makes top the
// pending one.
func (c *anthropicCache) switchTop(top uint64, exp float64) {
	if c.topSet {
		if old, ok := c.tops.get(c.lastTop); !ok || old < c.lastExp {
			c.tops.set(c.lastTop, c.lastExp)
		}
	}
	c.topSet, c.lastTop, c.lastExp = true, top, exp
}

// topLive reports whether an entry put under top may still be live at
// now: the latest expiry put under it (tops and the pending lastExp) is
// after now.
func (c *anthropicCache) topLive(top uint64, now float64) bool {
	if c.topSet && top == c.lastTop && c.lastExp > now {
		return true // (the table can only say later)
	}
	exp, ok := c.tops.get(top)
	return ok && exp > now
}

func (c *anthropicCache) Seed(now float64, p *Prompt) {
	for _, bp := range p.Breakpoints {
		if p.CumTokens(bp) >= c.min {
			c.put(p, bp, now+c.ttlMs)
		}
	}
}

// lastPos returns the highest position in [lo, i] marked in spos, or -1.
func (c *anthropicCache) lastPos(i, lo int) int {
	if i < lo {
		return -1
	}
	w := i >> 6
	mask := ^uint64(0) >> (63 - uint(i&63))
	if w >= len(c.spos) {
		w, mask = len(c.spos)-1, ^uint64(0)
	}
	for ; w >= 0 && w<<6+63 >= lo; w, mask = w-1, ^uint64(0) {
		if word := c.spos[w] & mask; word != 0 {
			if p := w<<6 | (63 - bits.LeadingZeros64(word)); p >= lo {
				return p
			}
			return -1
		}
	}
	return -1
}

// maybe reports whether h may have been put since Reset (seen).
func (c *anthropicCache) maybe(h uint64) bool { return c.seen[h>>58]&(1<<(h>>52&63)) != 0 }

// live returns h's expiry in entries when h is a live entry (to be
// refreshed in place before the next change of entries), else nil; an
// expired entry is removed.
func (c *anthropicCache) live(h uint64, now float64) *float64 {
	exp := c.entries.ref(h)
	if exp == nil {
		return nil
	}
	if *exp <= now {
		c.entries.del(h)
		return nil
	}
	return exp
}

func (c *anthropicCache) Request(now float64, p *Prompt) (read, write int64) {
	if len(p.Breakpoints) == 0 {
		return 0, 0
	}
	// The longest live prefix within lookback blocks before a breakpoint:
	// message prefixes only when an entry put under this prompt's static
	// part may still be live (tops), static ones only where an entry was
	// put (spos).
	//
	// The windows are searched from the last breakpoint's down; a prefix
	// found ends the search (the windows below hold shorter prefixes only).
	// Blocks from next up were looked at already: a window overlapping
	// the one above starts below it.
	s, top := len(p.sHash), p.top()
	msgs := c.topLive(top, now)
	best, next := -1, p.Len()
	var bestExp *float64 // best's expiry in entries
	for j := len(p.Breakpoints) - 1; j >= 0 && best < 0; j-- {
		bp := p.Breakpoints[j]
		lo := max(0, bp-c.lookback)
		i := min(bp, next-1)
		next = min(next, lo)
		if msgs {
			for ; i >= lo && i >= s; i-- {
				if h := mix(top, p.mHash[i-s]); c.maybe(h) {
					if bestExp = c.live(h, now); bestExp != nil {
						best = i
						break
					}
				}
			}
			if best >= 0 {
				break
			}
		}
		for i = c.lastPos(min(i, s-1), lo); i >= 0; i = c.lastPos(i-1, lo) {
			if h := p.sHash[i]; c.maybe(h) {
				if bestExp = c.live(h, now); bestExp != nil {
					best = i
					break
				}
			}
		}
	}
	if best >= 0 {
		// Refresh the entry read, in place: it was put at this position
		// (its spos and seen bits are set), so only its expiry and, under
		// the static part, its top's change (what put would do).
		read = p.CumTokens(best)
		*bestExp = now + c.ttlMs
		if best >= s {
			c.putTop(top, *bestExp)
		}
	}
	last := p.Breakpoints[len(p.Breakpoints)-1]
	if last > best && p.CumTokens(last) >= c.min {
		write = p.CumTokens(last) - read
		for _, bp := range p.Breakpoints {
			if bp > best && p.CumTokens(bp) >= c.min {
				c.put(p, bp, now+c.ttlMs)
			}
		}
	}
	return read, write
}

type noCache struct{}

func (noCache) Request(float64, *Prompt) (int64, int64) { return 0, 0 }
func (noCache) Reset()                                  {}
func (noCache) Seed(float64, *Prompt)                   {}
