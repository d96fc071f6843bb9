package sim

import "fmt"

// Prompt is one model request as the cache sees it: a sequence of blocks,
// each with the hash of the prefix ending at it and the cumulative tokens up
// to and including it.
type Prompt struct {
	PrefixHash []uint64
	CumTokens  []int64
	// Breakpoints are block indices (ascending) where the runtime marks the
	// prompt cacheable (explicit-breakpoint caches only).
	Breakpoints []int
}

// Total returns the prompt's tokens.
func (p *Prompt) Total() int64 {
	if len(p.CumTokens) == 0 {
		return 0
	}
	return p.CumTokens[len(p.CumTokens)-1]
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

// NewCache returns the cache model cfg names.
func NewCache(cfg CacheConfig) (PromptCache, error) {
	switch cfg.Kind {
	case "anthropic":
		return newAnthropicCache(cfg), nil
	case "openai":
		return newOpenAICache(cfg), nil
	case "none", "":
		return noCache{}, nil
	}
	return nil, fmt.Errorf("unknown cache kind %q (want anthropic|openai|none)", cfg.Kind)
}

type noCache struct{}

func (noCache) Request(float64, *Prompt) (int64, int64) { return 0, 0 }
func (noCache) Reset()                                  {}
func (noCache) Seed(float64, *Prompt)                   {}

// anthropicCache models explicit-breakpoint prefix caching: a breakpoint's
// prefix is written when no live entry covers it; a later request reads the
// longest live prefix found within Lookback blocks before one of its
// breakpoints. Reads and writes refresh the entry's TTL.
type anthropicCache struct {
	ttlMs    float64
	min      int64
	lookback int
	entries  map[uint64]float64 // prefix hash -> expiry (ms)
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
	return &anthropicCache{ttlMs: cfg.TTLSeconds * 1000, min: cfg.MinTokens, lookback: lb, entries: map[uint64]float64{}}
}

func (c *anthropicCache) Reset() {
	clear(c.entries)
	c.seen = [64]uint64{}
}

// put makes the prefix h live until exp.
func (c *anthropicCache) put(h uint64, exp float64) {
	c.entries[h] = exp
	c.seen[h>>58] |= 1 << (h >> 52 & 63)
}

func (c *anthropicCache) Seed(now float64, p *Prompt) {
	for _, bp := range p.Breakpoints {
		if p.CumTokens[bp] >= c.min {
			c.put(p.PrefixHash[bp], now+c.ttlMs)
		}
	}
}

func (c *anthropicCache) live(h uint64, now float64) bool {
	if c.seen[h>>58]&(1<<(h>>52&63)) == 0 {
		return false
	}
	exp, ok := c.entries[h]
	if !ok {
		return false
	}
	if exp <= now {
		delete(c.entries, h)
		return false
	}
	return true
}

func (c *anthropicCache) Request(now float64, p *Prompt) (read, write int64) {
	if len(p.Breakpoints) == 0 {
		return 0, 0
	}
	best := -1
	for j := len(p.Breakpoints) - 1; j >= 0; j-- {
		bp := p.Breakpoints[j]
		if bp <= best {
			break
		}
		lo := max(0, bp-c.lookback)
		for i := bp; i >= lo && i > best; i-- {
			if c.live(p.PrefixHash[i], now) {
				best = i
				break
			}
		}
	}
	if best >= 0 {
		read = p.CumTokens[best]
		c.put(p.PrefixHash[best], now+c.ttlMs)
	}
	last := p.Breakpoints[len(p.Breakpoints)-1]
	if last > best && p.CumTokens[last] >= c.min {
		write = p.CumTokens[last] - read
		for _, bp := range p.Breakpoints {
			if bp > best && p.CumTokens[bp] >= c.min {
				c.put(p.PrefixHash[bp], now+c.ttlMs)
			}
		}
	}
	return read, write
}

// openAICache models automatic prefix caching: every prefix of at least
// MinTokens is cached; a request reads the longest live cached prefix,
// counted down to MinTokens plus a whole number of Step-token increments.
type openAICache struct {
	ttlMs   float64
	min     int64
	step    int64
	entries map[uint64]float64
}

func newOpenAICache(cfg CacheConfig) *openAICache {
	st := cfg.Step
	if st <= 0 {
		st = 128
	}
	return &openAICache{ttlMs: cfg.TTLSeconds * 1000, min: cfg.MinTokens, step: st, entries: map[uint64]float64{}}
}

func (c *openAICache) Reset() { clear(c.entries) }

func (c *openAICache) Request(now float64, p *Prompt) (read, write int64) {
	n := len(p.PrefixHash)
	for i := n - 1; i >= 0; i-- {
		if p.CumTokens[i] < c.min {
			break
		}
		if exp, ok := c.entries[p.PrefixHash[i]]; ok && exp > now {
			read = c.stepDown(p.CumTokens[i])
			c.entries[p.PrefixHash[i]] = now + c.ttlMs
			break
		}
	}
	total := p.Total()
	if total >= c.min {
		for i := 0; i < n; i++ {
			if p.CumTokens[i] >= c.min {
				c.entries[p.PrefixHash[i]] = now + c.ttlMs
			}
		}
		write = c.stepDown(total) - read
		if write < 0 {
			write = 0
		}
	}
	return read, write
}

func (c *openAICache) Seed(now float64, p *Prompt) {
	for i := range p.PrefixHash {
		if p.CumTokens[i] >= c.min {
			c.entries[p.PrefixHash[i]] = now + c.ttlMs
		}
	}
}

func (c *openAICache) stepDown(t int64) int64 {
	if t < c.min {
		return 0
	}
	return c.min + (t-c.min)/c.step*c.step
}
