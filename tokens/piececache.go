package tokens

import "sync"

// pieceCache remembers the token counts of recently seen short pieces in
// a small direct-mapped table. The vocabulary map holds 100–200K entries,
// so most lookups in it miss the CPU cache; text repeats its pieces (JSON
// keys and punctuation, common words), and a table of a few thousand
// entries answers them from cache. A pieceCache is used by one goroutine
// at a time (bpe hands them out through a sync.Pool); its answers are
// exact, so counts never depend on it.
type pieceCache struct {
	keys [cacheSlots][cacheKeyMax]byte
	lens [cacheSlots]uint8 // key length; 0 = empty slot
	vals [cacheSlots]int32
}

const (
	cacheSlots  = 4096 // a power of two
	cacheKeyMax = 15   // longer pieces are not cached
)

// slot returns the table slot of p (FNV-1a of its bytes).
func slot(p string) int {
	h := uint32(2166136261)
	for i := 0; i < len(p); i++ {
		h = (h ^ uint32(p[i])) * 16777619
	}
	return int(h & (cacheSlots - 1))
}

// get returns the cached count of p.
func (c *pieceCache) get(p string) (int, bool) {
	k := slot(p)
	if int(c.lens[k]) == len(p) && string(c.keys[k][:len(p)]) == p {
		return int(c.vals[k]), true
	}
	return 0, false
}

// put caches the count n of p (len(p) ≤ cacheKeyMax).
func (c *pieceCache) put(p string, n int) {
	k := slot(p)
	copy(c.keys[k][:], p)
	c.lens[k] = uint8(len(p))
	c.vals[k] = int32(n)
}

// cachePool hands out piece caches; see pieceCache.
type cachePool struct{ p sync.Pool }

func (cp *cachePool) get() *pieceCache {
	if c, ok := cp.p.Get().(*pieceCache); ok {
		return c
	}
	return new(pieceCache)
}

func (cp *cachePool) put(c *pieceCache) { cp.p.Put(c) }
