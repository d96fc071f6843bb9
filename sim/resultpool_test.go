package sim

import "testing"

// TestResultPoolKeepsEveryBufferPutBack pins the result buffers' free
// list: however many buffers were in flight at once (the workers ahead of
// the collector), each one put back is handed out again rather than
// dropped, except one grown by a very long session; a put buffer holds no
// session's fidelity pairs.
func TestResultPoolKeepsEveryBufferPutBack(t *testing.T) {
	for _, inFlight := range []int{1, 10, 500} {
		p := newResultPool()
		bufs := make(map[*resultBufs]bool)
		for range inFlight {
			b := p.get()
			b.fid = append(b.fid, FidelityPair{Session: "s"})
			bufs[b] = true
		}
		big := p.get()
		big.reqs = make([]RequestTokens, 0, maxPooledRequests+1)
		for b := range bufs {
			p.put(b)
		}
		p.put(big)
		p.put(nil)
		for range inFlight {
			b := p.get()
			if !bufs[b] {
				t.Fatalf("%d in flight: get returned a buffer that was not put back", inFlight)
			}
			if b.fid[:1][0].Session != "" {
				t.Fatalf("%d in flight: a recycled buffer still holds a session's fidelity pair", inFlight)
			}
			delete(bufs, b)
		}
		if b := p.get(); b == big || len(bufs) != 0 {
			t.Fatalf("%d in flight: the grown buffer was kept (%v) or %d buffers were lost", inFlight, b == big, len(bufs))
		}
	}
}
