package sim_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestDocMemoLoad pins DocMemo's contract: a nil memo builds every time;
// a memo keeps one value per key, the same for every caller even when
// they race to build it.
func TestDocMemoLoad(t *testing.T) {
	var nilMemo *sim.DocMemo
	builds := 0
	for range 3 {
		nilMemo.Load("k", func() any { builds++; return builds })
	}
	if builds != 3 {
		t.Errorf("a nil DocMemo built %d times for 3 loads, want 3", builds)
	}

	var m sim.DocMemo
	var calls atomic.Int32
	got := make([]*int, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			got[i] = m.Load("k", func() any { calls.Add(1); v := i; return &v }).(*int)
		})
	}
	wg.Wait()
	for i, p := range got {
		if p != got[0] {
			t.Fatalf("load %d returned %p, load 0 %p: callers must share one value", i, p, got[0])
		}
	}
	if again := m.Load("k", func() any { t.Fatal("built a key already stored"); return nil }); again.(*int) != got[0] {
		t.Errorf("a later load returned another value")
	}
	if other := m.Load("other", func() any { return "o" }); other != "o" {
		t.Errorf("another key: %v, want its own value", other)
	}
	t.Logf("%d of %d racing loads built the value", calls.Load(), len(got))
}
