package sim

import (
	"math/rand/v2"
	"testing"
)

// TestOpenAICacheMatchesDefinition pins the openai cache, which keeps the
// expiries of the last prompt written implicitly (an overlay, a chain and a
// record per static part), to its definition (defOpenAICache: every
// qualifying prefix written to a map on every request, the longest live
// one read). Random sessions: static parts that switch between variants
// sharing prefixes (one empty, one long) or change at a random block;
// conversations that grow by 0–3 messages, part at a random message, are
// cut short, or go back to an earlier conversation; gaps past the TTL,
// gaps of exactly the TTL (an entry expiring at now is not live), and
// steps back in time; zero-token blocks; Seed calls; Reset; minimum sizes
// and steps around the prompts' sizes. The prompt is rewritten in place,
// as the replay does. Every request must read and write the same tokens.
func TestOpenAICacheMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	blocks := func(n int, salt uint64) []block {
		b := make([]block, n)
		for i := range b {
			tok := rng.Int64N(120)
			if rng.IntN(8) == 0 {
				tok = 0
			}
			b[i] = block{h: mix(salt, uint64(i%7)), tokens: tok}
		}
		return b
	}
	variants := staticVariants(blocks, 90)
	var p Prompt // rewritten for every request
	requests, hits := 0, 0
	for session := range 500 {
		ttl := []float64{1, 30, 300}[rng.IntN(3)]
		cfg := CacheConfig{TTLSeconds: ttl, MinTokens: []int64{0, 1, rng.Int64N(3000), rng.Int64N(8000)}[rng.IntN(4)],
			Step: []int64{1, 7, 128}[rng.IntN(3)]}
		fast := newOpenAICache(cfg)
		def := &defOpenAICache{ttlMs: ttl * 1000, min: cfg.MinTokens, step: cfg.Step, entries: map[uint64]float64{}}
		static := variants[rng.IntN(len(variants))]
		var msgs []block
		var saved [][]block // earlier conversations, to go back to
		var now float64
		backwards := session%5 == 0
		for req := range 120 {
			salt := uint64(1e6*session + 100*req)
			cut := false
			switch r := rng.IntN(100); {
			case r < 3: // a new run
				fast.Reset()
				clear(def.entries)
				msgs = nil
			case r < 18:
				static = variants[rng.IntN(len(variants))]
			case r < 24: // the static part changes at a random block
				if len(static) > 0 {
					j := rng.IntN(len(static))
					static = append(append(append([]block{}, static[:j]...), blocks(1+rng.IntN(3), salt)...), static[j+1:]...)
				}
			case r < 30: // the conversation parts at a random message
				saved = append(saved, msgs)
				msgs = append([]block{}, msgs[:rng.IntN(len(msgs)+1)]...)
			case r < 33: // or is cut short
				saved = append(saved, msgs)
				msgs = append([]block{}, msgs[:rng.IntN(len(msgs)+1)]...)
				cut = true
			case r < 37: // or goes back to an earlier one
				if len(saved) > 0 {
					msgs = append([]block{}, saved[rng.IntN(len(saved))]...)
				}
			}
			if !cut {
				msgs = append(msgs, blocks(rng.IntN(4), salt+1)...)
			}
			switch r := rng.IntN(20); {
			case r == 0:
				now += ttl * 1000 // an entry written at now expires exactly then
			case r == 1:
				now += ttl*1000 + 1 + rng.Float64()*1e6 // past the TTL
			case r == 2 && backwards:
				now -= rng.Float64() * ttl * 1000
			case r < 5: // the same time
			default:
				now += rng.Float64() * ttl * 500
			}
			fillPrompt(&p, static, msgs)
			if rng.IntN(15) == 0 {
				fast.Seed(now, &p)
				def.Seed(now, &p)
				continue
			}
			r1, w1 := fast.Request(now, &p)
			r2, w2 := def.Request(now, &p)
			if r1 != r2 || w1 != w2 {
				t.Fatalf("session %d, request %d: read %d, write %d; the definition reads %d, writes %d", session, req, r1, w1, r2, w2)
			}
			requests++
			if r2 > 0 {
				hits++
			}
		}
	}
	if hits < requests/4 || hits > requests*3/4 {
		t.Fatalf("%d of %d requests read from the cache: the sessions do not exercise both hits and misses", hits, requests)
	}
	t.Logf("%d requests compared, %d read from the cache", requests, hits)
}

// TestOpenAICacheWorkBoundedByChange pins that an openai cache request
// does work proportional to the blocks that changed since the previous
// request, not to the prompt's length: before, every request wrote every
// prefix of its prompt to the entries table, so a session of n requests
// made O(n²) writes. In a session whose conversation grows by one message
// per request and whose tools[] changes every tenth request, the table
// writes plus the blocks copied into the cache's state are at most the
// blocks that differ from the previous prompt (static blocks from the
// first change, in the old and the new prompt, plus appended messages),
// and the requests still read from the cache.
func TestOpenAICacheWorkBoundedByChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	blocks := func(n int, salt uint64) []block {
		b := make([]block, n)
		for i := range b {
			b[i] = block{h: mix(salt, uint64(i)), tokens: 20 + rng.Int64N(200)}
		}
		return b
	}
	tools := blocks(60, 1)
	sys := blocks(2, 2)
	c := newOpenAICache(CacheConfig{TTLSeconds: 300, MinTokens: 1024, Step: 128})
	var p Prompt
	var static, prevStatic, msgs []block
	var now float64
	hits := 0
	const requests = 3000
	for req := range requests {
		if req%10 == 0 { // a tool loaded or evicted: tools[] changes at a random block
			k := 30 + rng.IntN(len(tools)-30)
			static = append(append([]block{}, tools[:k]...), sys...)
		}
		msgs = append(msgs, blocks(1, uint64(100+req))...)
		fillPrompt(&p, static, msgs)
		now += 1000
		w0, c0 := c.entries.writes, c.copied
		read, _ := c.Request(now, &p)
		if read > 0 {
			hits++
		}
		ds := 0
		for ds < min(len(static), len(prevStatic)) && static[ds] == prevStatic[ds] {
			ds++
		}
		changed := len(static) - ds + len(prevStatic) - ds + 1 // + the appended message
		if work := c.entries.writes - w0 + c.copied - c0; work > changed {
			t.Fatalf("request %d (%d blocks): %d table writes and copies, %d blocks changed", req, p.Len(), work, changed)
		}
		prevStatic = static
	}
	if hits < requests*9/10 {
		t.Fatalf("%d of %d requests read from the cache", hits, requests)
	}
}

// fillPrompt rewrites p as segmentPrompt(static, msgs) would build it,
// over its own slices (as the replay rewrites its prompt).
func fillPrompt(p *Prompt, static, msgs []block) {
	q := segmentPrompt(static, msgs)
	p.sHash = append(p.sHash[:0], q.sHash...)
	p.sCum = append(p.sCum[:0], q.sCum...)
	p.mHash = append(p.mHash[:0], q.mHash...)
	p.mCum = append(p.mCum[:0], q.mCum...)
}

// defOpenAICache is the openai cache model by its definition (and the
// simulator's code before the overlay): every request looks its prompt's
// prefixes up from the last block down until one of at least min tokens
// is live, then writes every prefix of at least min tokens.
type defOpenAICache struct {
	ttlMs   float64
	min     int64
	step    int64
	entries map[uint64]float64
}

func (c *defOpenAICache) Request(now float64, p *Prompt) (read, write int64) {
	n := p.Len()
	for i := n - 1; i >= 0; i-- {
		if p.CumTokens(i) < c.min {
			break
		}
		h := p.PrefixHash(i)
		if exp, ok := c.entries[h]; ok && exp > now {
			read = c.stepDown(p.CumTokens(i))
			c.entries[h] = now + c.ttlMs
			break
		}
	}
	total := p.Total()
	if total >= c.min {
		for i := range n {
			if p.CumTokens(i) >= c.min {
				c.entries[p.PrefixHash(i)] = now + c.ttlMs
			}
		}
		write = max(0, c.stepDown(total)-read)
	}
	return read, write
}

func (c *defOpenAICache) Seed(now float64, p *Prompt) {
	for i := range p.Len() {
		if p.CumTokens(i) >= c.min {
			c.entries[p.PrefixHash(i)] = now + c.ttlMs
		}
	}
}

func (c *defOpenAICache) stepDown(t int64) int64 {
	if t < c.min {
		return 0
	}
	return c.min + (t-c.min)/c.step*c.step
}
