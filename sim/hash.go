package sim

import "encoding/hex"

// mix combines two 64-bit values into one (a prefix-hash chain step). It is
// deterministic across runs and machines.
func mix(a, b uint64) uint64 {
	x := a ^ (b + 0x9e3779b97f4a7c15 + (a << 6) + (a >> 2))
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashString is a 64-bit FNV-1a hash of s (hash/fnv's New64a, without
// its allocations).
func hashString(s string) uint64 {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return h
}

// hashFingerprint turns a hex SHA-256 fingerprint into a 64-bit block hash.
func hashFingerprint(fp string) uint64 {
	if len(fp) >= 16 {
		var b [8]byte
		if _, err := hex.Decode(b[:], []byte(fp[:16])); err == nil {
			var v uint64
			for _, c := range b {
				v = v<<8 | uint64(c)
			}
			return v
		}
	}
	return hashString(fp)
}
