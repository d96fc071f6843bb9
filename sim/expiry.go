package sim

// expiryTable maps prefix hashes to expiry times: the entries of a cache
// model. It is a map[uint64]float64 specialised for keys that are already
// well-mixed hashes: open addressing with linear probing in one array,
// the slot taken from the key's top bits, no per-lookup hashing.
// Requests look up many prefixes that are not there (the lookback), which
// this makes a load and a compare or two.
type expiryTable struct {
	slots []expirySlot // len a power of two (or 0); key 0 marks a free slot
	n     int          // keys held in slots
	shift uint         // 64 - log2(len(slots))
	// The key 0 cannot be stored in a slot: it is kept apart.
	zeroSet bool
	zeroExp float64
	// writes counts set calls since the table was made (tests measure a
	// request's work with it).
	writes int
}

type expirySlot struct {
	key uint64
	exp float64
}

// Table sizes: the first allocation, and the largest kept across reset
// (a long session's table is let go rather than cleared for every
// session and strategy after it).
const (
	minExpirySlots  = 64
	maxReusedExpiry = 1 << 10
)

func (t *expiryTable) get(h uint64) (float64, bool) {
	if h == 0 {
		return t.zeroExp, t.zeroSet
	}
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == h {
			return s.exp, true
		}
		if s.key == 0 {
			return 0, false
		}
	}
}

// ref returns where h's expiry is held, nil when h is not in the table.
// The pointer is valid until the next set or del.
func (t *expiryTable) ref(h uint64) *float64 {
	if h == 0 {
		if !t.zeroSet {
			return nil
		}
		return &t.zeroExp
	}
	if len(t.slots) == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == h {
			return &s.exp
		}
		if s.key == 0 {
			return nil
		}
	}
}

func (t *expiryTable) set(h uint64, exp float64) {
	t.writes++
	if h == 0 {
		t.zeroExp, t.zeroSet = exp, true
		return
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == h {
			s.exp = exp
			return
		}
		if s.key == 0 {
			*s = expirySlot{h, exp}
			t.n++
			return
		}
	}
}

// del removes h (backward-shift deletion: no tombstones).
func (t *expiryTable) del(h uint64) {
	if h == 0 {
		t.zeroSet, t.zeroExp = false, 0
		return
	}
	if len(t.slots) == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := int(h >> t.shift)
	for {
		if t.slots[i].key == h {
			break
		}
		if t.slots[i].key == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Move later keys of the probe run back into the hole when their home
	// slot does not lie cyclically in (hole, j].
	for j := (i + 1) & mask; t.slots[j].key != 0; j = (j + 1) & mask {
		home := int(t.slots[j].key >> t.shift)
		if (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = expirySlot{}
	t.n--
}

func (t *expiryTable) grow() {
	size := max(minExpirySlots, 2*len(t.slots))
	old := t.slots
	t.slots = make([]expirySlot, size)
	t.shift = 64 - uint(log2(size))
	t.n = 0
	w := t.writes
	for _, s := range old {
		if s.key != 0 {
			t.set(s.key, s.exp)
		}
	}
	t.writes = w // (moves, not writes)
}

// reset empties the table.
func (t *expiryTable) reset() {
	if len(t.slots) > maxReusedExpiry {
		t.slots, t.shift = nil, 0
	} else {
		clear(t.slots)
	}
	t.n, t.zeroSet, t.zeroExp = 0, false, 0
}

// log2 of a power of two.
func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}
