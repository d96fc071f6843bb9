package calibrate

import (
	"hash/fnv"
	"math"
)

// InFitSet reports whether a session belongs to the fit set: a seeded hash
// of its id, uniform in [0, 1), below share. The split depends only on the
// seed and the id, never on file order.
func InFitSet(seed int64, id string, share float64) bool {
	return unit(seed, id) < share
}

func unit(seed int64, id string) float64 {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(seed) >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(id))
	x := h.Sum64()
	// splitmix64 finaliser: spread the FNV bits.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / math.Exp2(53)
}
