package sim

// openAICache models automatic prefix caching: every prefix of at least
// MinTokens is cached; a request reads the longest live cached prefix,
// counted down to MinTokens plus a whole number of Step-token increments.
// Reads and writes make a prefix live for TTL from the request.
//
// By definition a request (or Seed) gives every prefix of its prompt that
// has at least MinTokens the same expiry, now+TTL, and reads the longest
// prefix whose last expiry is later than now. Writing every prefix would
// cost a request O(prompt length), a session O(length²). Instead the
// expiries of the last prompt written are kept implicitly, a prompt being
// a static part and a conversation (Prompt):
//
//   - the static overlay: the last static part written (sHash, sCum), all
//     of whose prefixes expire at sExp;
//   - the conversation chain (mHash, mCum) of the last prompt written, and
//     per static part under which messages were written (its top) a
//     record: the message prefixes under that top over the chain's first m
//     messages expire at the record's exp (the last request under that
//     top wrote them all);
//   - entries, for the rest: expiries that a newer write no longer
//     covers. When the static part changes from block d on, the old
//     blocks from d are moved (with sExp) to entries; when the chain
//     changes from message d on (which a replay does only after Reset),
//     every record's messages from d are.
//
// A prefix's expiry is the overlay's or the record's when one covers it
// (theirs are the latest writes), else its entry's. Prefix hashes chain
// (equal at block i means equal at every block before i, up to 64-bit
// collisions, which the model accepts anyway), so where two prompts part
// is found by a binary search; blocks have no negative tokens, so the
// prefixes of at least MinTokens are the last ones. A request thus costs
// O(log length) plus the blocks that changed: appended messages, and after a change of
// tools[] the static part's blocks from the change on; a session costs
// O(length). TestOpenAICacheMatchesDefinition pins the results to the
// definition's on random prompt sequences.
type openAICache struct {
	ttlMs   float64
	min     int64
	step    int64
	entries expiryTable // expiries no overlay or record covers

	// The static overlay: the static part of the last prompt written
	// (empty since Reset), its prefixes live until sExp.
	sHash []uint64
	sCum  []int64
	sExp  float64

	// The conversation chain of the last prompt written (Prompt.mHash,
	// mCum), and the records of the static parts messages were written
	// under (tops: top -> index in recs; last: the latest one used).
	mHash []uint64
	mCum  []int64
	recs  []topRecord
	tops  map[uint64]int32
	last  int32

	// copied counts the blocks copied into the overlay and the chain
	// since the cache was made (a test measures a request's work with it
	// and entries.writes).
	copied int
}

// topRecord says that the message prefixes under static part top over the
// chain's first m messages expire at exp (those of at least MinTokens:
// base is the static part's tokens). moved: some message prefix under top
// was moved to entries, which must then be looked at too.
type topRecord struct {
	top   uint64
	m     int
	exp   float64
	base  int64
	moved bool
}

// maxReusedTops bounds the records' map kept across Reset.
const maxReusedTops = 256

func newOpenAICache(cfg CacheConfig) *openAICache {
	st := cfg.Step
	if st <= 0 {
		st = 128
	}
	return &openAICache{ttlMs: cfg.TTLSeconds * 1000, min: cfg.MinTokens, step: st, last: -1}
}

func (c *openAICache) Reset() {
	c.entries.reset()
	c.sHash, c.sCum = c.sHash[:0], c.sCum[:0]
	c.mHash, c.mCum = c.mHash[:0], c.mCum[:0]
	if len(c.recs) > maxReusedTops {
		c.tops, c.recs = nil, nil
	} else {
		clear(c.tops)
		c.recs = c.recs[:0]
	}
	c.last = -1
}

func (c *openAICache) Request(now float64, p *Prompt) (read, write int64) {
	total := p.Total()
	if total < c.min {
		return 0, 0 // no prefix is long enough: nothing read or written
	}
	ds, dm := sharedPrefix(c.sHash, p.sHash), sharedPrefix(c.mHash, p.mHash)
	if i := c.longestLive(now, p, ds, dm); i >= 0 && p.CumTokens(i) >= c.min {
		read = c.stepDown(p.CumTokens(i))
	}
	c.write(now+c.ttlMs, p, ds, dm)
	return read, max(0, c.stepDown(total)-read)
}

func (c *openAICache) Seed(now float64, p *Prompt) {
	if p.Total() < c.min {
		return
	}
	c.write(now+c.ttlMs, p, sharedPrefix(c.sHash, p.sHash), sharedPrefix(c.mHash, p.mHash))
}

// longestLive returns the last block of p whose prefix's expiry is later
// than now, or -1. Blocks [0, ds) of the static part are the overlay's,
// messages [0, dm) the chain's. The block returned may be shorter than
// MinTokens (then no prefix is cached: the caller checks).
func (c *openAICache) longestLive(now float64, p *Prompt, ds, dm int) int {
	s, m := len(p.sHash), len(p.mHash)
	if m > 0 {
		if k := c.record(p.top()); k >= 0 {
			r := &c.recs[k]
			hi := min(dm, r.m, m) // messages [0, hi) are the record's
			if r.moved {
				for j := m - 1; j >= hi; j-- {
					if p.CumTokens(s+j) < c.min {
						return -1
					}
					if exp, ok := c.entries.get(mix(r.top, p.mHash[j])); ok && exp > now {
						return s + j
					}
				}
			}
			if hi > 0 && r.exp > now {
				return s + hi - 1
			}
		}
		// Else no message prefix under this top was written, or none is
		// live (the record covers those written last).
	}
	for i := s - 1; i >= ds; i-- {
		if p.sCum[i] < c.min {
			return -1
		}
		if exp, ok := c.entries.get(p.sHash[i]); ok && exp > now {
			return i
		}
	}
	if ds > 0 && c.sExp > now {
		return ds - 1
	}
	return -1
}

// write makes every prefix of p live until exp: p becomes the overlay and
// the chain, and its top's record covers all its messages. What p no
// longer shares with them is moved to entries first.
func (c *openAICache) write(exp float64, p *Prompt, ds, dm int) {
	for i := ds; i < len(c.sHash); i++ {
		if c.sCum[i] >= c.min {
			c.entries.set(c.sHash[i], c.sExp)
		}
	}
	c.sHash = append(c.sHash[:ds], p.sHash[ds:]...)
	c.sCum = append(c.sCum[:ds], p.sCum[ds:]...)
	c.sExp = exp
	if dm < len(c.mHash) {
		for k := range c.recs {
			r := &c.recs[k]
			for j := dm; j < r.m; j++ {
				if r.base+c.mCum[j] >= c.min {
					c.entries.set(mix(r.top, c.mHash[j]), r.exp)
					r.moved = true
				}
			}
			r.m = min(r.m, dm)
		}
	}
	c.mHash = append(c.mHash[:dm], p.mHash[dm:]...)
	c.mCum = append(c.mCum[:dm], p.mCum[dm:]...)
	c.copied += len(p.sHash) - ds + len(p.mHash) - dm
	top := p.top()
	k := c.record(top)
	if k < 0 {
		if c.tops == nil {
			c.tops = map[uint64]int32{}
		}
		k = int32(len(c.recs))
		c.tops[top] = k
		c.recs = append(c.recs, topRecord{top: top})
		c.last = k
	}
	var base int64
	if s := len(p.sCum); s > 0 {
		base = p.sCum[s-1]
	}
	r := &c.recs[k]
	r.m, r.exp, r.base = len(p.mHash), exp, base
}

// record returns the index in recs of top's record, or -1.
func (c *openAICache) record(top uint64) int32 {
	if c.last >= 0 && c.recs[c.last].top == top {
		return c.last
	}
	k, ok := c.tops[top]
	if !ok {
		return -1
	}
	c.last = k
	return k
}

func (c *openAICache) stepDown(t int64) int64 {
	if t < c.min {
		return 0
	}
	return c.min + (t-c.min)/c.step*c.step
}

// sharedPrefix returns how many leading prefix hashes a and b share: the
// first index where they differ (hashes chain, so they differ from there
// on), found by a binary search.
func sharedPrefix(a, b []uint64) int {
	k := min(len(a), len(b))
	if k == 0 || a[k-1] == b[k-1] {
		return k
	}
	lo, hi := 0, k-1 // a[hi] != b[hi]; the answer is in [lo, hi]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if a[mid] != b[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
