package sim

import (
	"math/rand/v2"
	"testing"
)

// TestAnthropicCacheMatchesScan pins the anthropic cache's lookback, which
// probes message prefixes only under a static part with a live entry
// (tops) and static prefixes only where an entry was put (spos), to the
// plain definition: every prefix within lookback blocks before a
// breakpoint is looked up in a map of entries. Sessions of random prompts
// whose static part switches between variants (sharing prefixes, one
// empty, one longer than 64 blocks, and going back to earlier ones, whose
// message entries are then live again), conversations that grow and
// restart, gaps longer than the TTL, warm-start seeds, and random
// breakpoint counts, layouts, lookbacks and minimum sizes must read and
// write the same tokens.
func TestAnthropicCacheMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	blocks := func(n int, salt uint64) []block {
		b := make([]block, n)
		for i := range b {
			b[i] = block{h: mix(salt, uint64(i%7)), tokens: 1 + rng.Int64N(100)}
		}
		return b
	}
	variants := staticVariants(blocks, 150)
	requests := 0
	for session := range 400 {
		cfg := CacheConfig{TTLSeconds: 300, MinTokens: rng.Int64N(400), Breakpoints: 1 + rng.IntN(4), Lookback: 1 + rng.IntN(25)}
		if session%3 == 0 {
			cfg.Layout = LayoutCurrentUser
		}
		fast := newAnthropicCache(cfg)
		ref := &scanCache{ttlMs: cfg.TTLSeconds * 1000, min: cfg.MinTokens, lookback: cfg.Lookback, entries: map[uint64]float64{}}
		var msgs []block
		var now float64
		static := variants[rng.IntN(len(variants))]
		for req := range 60 {
			switch r := rng.IntN(100); {
			case r < 3: // a new run: the cache is reset
				fast.Reset()
				clear(ref.entries)
				msgs = nil
			case r < 25:
				static = variants[rng.IntN(len(variants))]
			}
			msgs = append(msgs, blocks(1+rng.IntN(3), uint64(1000*session+req))...)
			if rng.IntN(10) == 0 {
				now += 400e3 // past the TTL
			} else {
				now += rng.Float64() * 60e3
			}
			p := segmentPrompt(static, msgs)
			s := len(static)
			l := PromptLayout{ToolsEnd: rng.IntN(s+1) - 1, SystemEnd: s - 1, Last: p.Len() - 1, Messages: len(msgs), User: s + rng.IntN(len(msgs))}
			p.Breakpoints = fast.Breakpoints(nil, l)
			if rng.IntN(20) == 0 {
				fast.Seed(now, p)
				ref.Seed(now, p)
				continue
			}
			r1, w1 := fast.Request(now, p)
			r2, w2 := ref.Request(now, p)
			if r1 != r2 || w1 != w2 {
				t.Fatalf("session %d, request %d: read %d, write %d; the scan reads %d, writes %d", session, req, r1, w1, r2, w2)
			}
			requests++
		}
	}
	t.Logf("%d requests compared", requests)
}

// staticVariants returns static parts for the cache tests, made of blocks
// from blocks: none, prefixes of one another (3, 12 and n blocks), one that
// parts from them after 5 blocks and one that extends the 12.
func staticVariants(blocks func(n int, salt uint64) []block, n int) [][]block {
	base := blocks(n, 1)
	return [][]block{
		nil,
		base[:3],
		base[:12],
		append(append([]block{}, base[:5]...), blocks(9, 2)...),
		append(append([]block{}, base[:12]...), blocks(2, 3)...),
		base[:n],
	}
}

// scanCache is the anthropic cache model by its definition: a map of
// entries, and every prefix within lookback blocks before a breakpoint
// looked up.
type scanCache struct {
	ttlMs    float64
	min      int64
	lookback int
	entries  map[uint64]float64
}

func (c *scanCache) live(h uint64, now float64) bool {
	exp, ok := c.entries[h]
	return ok && exp > now
}

func (c *scanCache) Seed(now float64, p *Prompt) {
	for _, bp := range p.Breakpoints {
		if p.CumTokens(bp) >= c.min {
			c.entries[p.PrefixHash(bp)] = now + c.ttlMs
		}
	}
}

func (c *scanCache) Request(now float64, p *Prompt) (read, write int64) {
	if len(p.Breakpoints) == 0 {
		return 0, 0
	}
	best := -1
	for j := len(p.Breakpoints) - 1; j >= 0; j-- {
		bp := p.Breakpoints[j]
		for i := bp; i >= max(0, bp-c.lookback) && i > best; i-- {
			if c.live(p.PrefixHash(i), now) {
				best = i
				break
			}
		}
	}
	if best >= 0 {
		read = p.CumTokens(best)
		c.entries[p.PrefixHash(best)] = now + c.ttlMs
	}
	last := p.Breakpoints[len(p.Breakpoints)-1]
	if last > best && p.CumTokens(last) >= c.min {
		write = p.CumTokens(last) - read
		for _, bp := range p.Breakpoints {
			if bp > best && p.CumTokens(bp) >= c.min {
				c.entries[p.PrefixHash(bp)] = now + c.ttlMs
			}
		}
	}
	return read, write
}
