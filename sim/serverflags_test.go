package sim

import "testing"

// TestServerFlags pins serverFlags to a map per flag: marks, reads of
// servers never marked (past the slice's end too), and a reset that
// clears only what the run marked but leaves nothing set.
func TestServerFlags(t *testing.T) {
	type op struct {
		srv   int32
		flag  uint8
		reset bool
	}
	for _, tc := range []struct {
		name string
		ops  []op
	}{
		{"connect then list", []op{{srv: 3, flag: srvConnected}, {srv: 3, flag: srvListed}}},
		{"grow past the end", []op{{srv: 0, flag: srvListed}, {srv: 40, flag: srvConnected}}},
		{"reset between runs", []op{{srv: 2, flag: srvListed}, {reset: true}, {srv: 5, flag: srvConnected}, {reset: true}, {srv: 2, flag: srvConnected}}},
		{"mark twice", []op{{srv: 1, flag: srvListed}, {srv: 1, flag: srvListed}, {reset: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f serverFlags
			want := map[uint8]map[int32]bool{srvConnected: {}, srvListed: {}}
			for i, o := range tc.ops {
				if o.reset {
					f.reset()
					want = map[uint8]map[int32]bool{srvConnected: {}, srvListed: {}}
				} else {
					f.mark(o.srv, o.flag)
					want[o.flag][o.srv] = true
				}
				for srv := int32(0); srv < 64; srv++ {
					for _, flag := range []uint8{srvConnected, srvListed} {
						if got := f.has(srv, flag); got != want[flag][srv] {
							t.Fatalf("after op %d: has(%d, %d) = %v, want %v", i, srv, flag, got, want[flag][srv])
						}
					}
				}
				if len(f.marked) > len(want[srvConnected])+len(want[srvListed]) {
					t.Fatalf("after op %d: %d servers marked, more than were set", i, len(f.marked))
				}
			}
		})
	}
}
