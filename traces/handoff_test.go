package traces

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestReaderHandOffRace pins a bug of the pipeline: a stage read a batch's
// error after handing the batch on, by when the iterator could have
// recycled it and the read stage refilled it with the end of the stream,
// so the decode stage stopped early and Sessions ended without its last
// sessions and without an error. Many readers at once over a trace of
// many batches make the interleaving likely (and `go test -race` reports
// the unsynchronised read at once).
func TestReaderHandOffRace(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 3 MB trace 24 times")
	}
	var b strings.Builder
	const sessions = 5000
	for i := range sessions {
		id := fmt.Sprintf("s%d", i)
		b.WriteString(ev("session_start", id, 0, `"model":"m"`) + "\n")
		for k := range 4 {
			b.WriteString(ev("tool_call", id, k+1, fmt.Sprintf(`"call_id":"c%d","tool":"t","server":"s","args":{"path":"%s"}`, k, strings.Repeat("p", 60))) + "\n")
		}
		b.WriteString(ev("session_end", id, 9, "") + "\n")
	}
	data := []byte(b.String())
	var wg sync.WaitGroup
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := NewReader(bytes.NewReader(data), "mem", ReadOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			n := 0
			for _, err := range r.Sessions() {
				if err != nil {
					t.Error(err)
					return
				}
				n++
			}
			if c := r.Counts(); n != sessions || c.Bytes != int64(len(data)) {
				t.Errorf("read %d of %d sessions, %d of %d bytes", n, sessions, c.Bytes, len(data))
			}
		}()
	}
	wg.Wait()
}
