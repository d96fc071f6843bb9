package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestExpiryTableMatchesMap pins expiryTable (the cache models' entries)
// to a map[uint64]float64 under random sets, deletes, lookups and resets,
// with keys that share their top bits (so they probe the same slots and
// deletions shift runs back) and the key 0 (kept apart).
func TestExpiryTableMatchesMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys int
		top  bool // keys differ only in their low bits: one long probe run
	}{
		{"few keys", 8, false},
		{"many keys", 5000, false},
		{"one home slot", 300, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.keys)))
			keys := make([]uint64, tc.keys)
			for i := range keys {
				switch {
				case i == 0:
					keys[i] = 0
				case tc.top:
					keys[i] = 0xabc<<52 | uint64(i)
				default:
					keys[i] = rng.Uint64()
				}
			}
			var tab expiryTable
			ref := map[uint64]float64{}
			for op := range 200000 {
				k := keys[rng.IntN(len(keys))]
				switch r := rng.IntN(100); {
				case r < 45:
					v := float64(op)
					tab.set(k, v)
					ref[k] = v
				case r < 70:
					tab.del(k)
					delete(ref, k)
				case r < 90:
					got, ok := tab.get(k)
					want, wok := ref[k]
					if got != want || ok != wok {
						t.Fatalf("op %d: get(%#x) = %v, %v; want %v, %v", op, k, got, ok, want, wok)
					}
				case r < 99:
					// ref (the in-place refresh of a read entry): the key's
					// expiry, written through the pointer.
					p := tab.ref(k)
					want, wok := ref[k]
					if (p != nil) != wok || (p != nil && *p != want) {
						t.Fatalf("op %d: ref(%#x) = %v; want %v, %v", op, k, p, want, wok)
					}
					if p != nil {
						*p = float64(op) + 0.5
						ref[k] = *p
					}
				default:
					tab.reset()
					clear(ref)
				}
				if n := tab.n + b2i(tab.zeroSet); n != len(ref) {
					t.Fatalf("op %d: %d keys, want %d", op, n, len(ref))
				}
			}
			for _, k := range keys {
				got, ok := tab.get(k)
				want, wok := ref[k]
				if got != want || ok != wok {
					t.Fatalf("end: get(%#x) = %v, %v; want %v, %v", k, got, ok, want, wok)
				}
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBreakpointsPlacement pins the anthropic placer's in-order insertion
// to its definition: the layout's candidates (last-message: last message,
// end of tools[], end of the system part, second-to-last message;
// current-user: end of the system part, end of tools[], current user
// message, second-to-last message) in priority order, without
// negatives and repeats, at most maxBP of them, sorted; appended after
// what dst held.
func TestBreakpointsPlacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		layouts := []string{"", LayoutCurrentUser}
		c := &anthropicCache{maxBP: 1 + rng.IntN(4), layout: layouts[rng.IntN(2)]}
		l := PromptLayout{ToolsEnd: rng.IntN(6) - 1, SystemEnd: rng.IntN(6) - 1, Last: rng.IntN(8) - 1, Messages: rng.IntN(4),
			User: rng.IntN(8) - 1, Layout: layouts[rng.IntN(2)]}
		prefix := []int{99}
		got := c.Breakpoints(slices.Clone(prefix), l)
		rolling := l.Last - 1
		if l.Messages < 2 {
			rolling = -1
		}
		cands := []int{l.Last, l.ToolsEnd, l.SystemEnd, rolling}
		if l.Layout == LayoutCurrentUser || (l.Layout == "" && c.layout == LayoutCurrentUser) {
			cands = []int{l.SystemEnd, l.ToolsEnd, l.User, rolling}
		}
		var want []int
		for _, b := range cands {
			if len(want) < c.maxBP && b >= 0 && !slices.Contains(want, b) {
				want = append(want, b)
			}
		}
		slices.Sort(want)
		want = append(slices.Clone(prefix), want...)
		if !slices.Equal(got, want) {
			t.Fatalf("maxBP %d, layout %+v: %v, want %v", c.maxBP, l, got, want)
		}
	}
}
