package traces

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
	"weak"
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

// TestReaderAllocationPerEvent pins that decoding a line allocates no
// Event of its own: the event is decoded on the decode stage's stack and
// copied once into its session's slice (an Event that escaped to the heap,
// as passing its address to ReadOptions.OnEvent once made it, doubled the
// bytes allocated per line). Lines here have no text to copy, so a read
// allocates about one Event and one line number per line, and the
// sessions' and the reader's own buffers (a small trace like this one pays
// the reader's fixed buffers over few lines: 520 bytes per line, an Event
// being 296).
func TestReaderAllocationPerEvent(t *testing.T) {
	var b strings.Builder
	const sessions, perSession = 1000, 20
	for i := range sessions {
		id := fmt.Sprintf("s%d", i%4) // a few ids, as the ids' strings are shared
		b.WriteString(ev("session_start", id, 0, "") + "\n")
		for range perSession - 2 {
			b.WriteString(ev("user", id, 1, "") + "\n")
		}
		b.WriteString(ev("session_end", id, 2, "") + "\n")
	}
	const events = sessions * perSession
	data := []byte(b.String())
	read := func() {
		r, err := NewReader(bytes.NewReader(data), "mem", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range r.Sessions() {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	read() // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	read()
	runtime.ReadMemStats(&after)
	perEvent := float64(after.TotalAlloc-before.TotalAlloc) / events
	// One Event and one line number per line, plus each session's and the
	// reader's buffers; a second Event per line would be over the limit.
	// The limit follows the size of an Event, which is pinned too: the
	// fields of session_start and of the change events are behind
	// pointers (StartFields, ChangeFields), 472 bytes before on 64-bit.
	if size := unsafe.Sizeof(Event{}); unsafe.Sizeof(uintptr(0)) == 8 && size > 296 {
		t.Errorf("an Event is %d bytes, want at most 296", size)
	}
	limit := 2 * float64(unsafe.Sizeof(Event{}))
	if perEvent > limit {
		t.Errorf("reading allocated %.0f bytes per event, want less than two Events (%.0f)", perEvent, limit)
	}
	t.Logf("%.0f bytes per event (Event is %d bytes)", perEvent, unsafe.Sizeof(Event{}))
}

// TestReaderForgetsYieldedSessions pins that a batch handed back to the
// read stage no longer holds the sessions it carried: they stayed
// reachable from the recycled batch until it was filed again (and then
// only those its new lines overwrote), so every garbage collection in
// between scanned sessions the caller had already dropped. The short
// sessions all end in the first batch; a long session then spans several
// batches, ending fewer sessions than the first batch did, so none of the
// first batch's slots is overwritten before the check.
func TestReaderForgetsYieldedSessions(t *testing.T) {
	var b strings.Builder
	const short = 50
	for i := range short {
		id := fmt.Sprintf("s%d", i)
		b.WriteString(ev("session_start", id, 0, `"model":"m"`) + "\n" + ev("user", id, 1, `"text":"hi"`) + "\n" + ev("session_end", id, 2, "") + "\n")
	}
	text := strings.Repeat("x", 1000)
	b.WriteString(ev("session_start", "long", 0, `"model":"m"`) + "\n")
	for b.Len() < 6*batchBytes {
		b.WriteString(ev("user", "long", 1, fmt.Sprintf(`"text":%q`, text)) + "\n")
	}
	b.WriteString(ev("session_end", "long", 2, "") + "\n")
	r, err := NewReader(strings.NewReader(b.String()), "mem", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var dropped []weak.Pointer[Session]
	for s, err := range r.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if s.ID != "long" {
			dropped = append(dropped, weak.Make(s))
			continue
		}
		runtime.GC()
		kept := 0
		for _, w := range dropped {
			if w.Value() != nil {
				kept++
			}
		}
		if len(dropped) != short || kept > 0 {
			t.Errorf("of the %d sessions yielded before the long one (want %d), the reader still holds %d after they were dropped", len(dropped), short, kept)
		}
	}
}
