// Package bounded runs a function on hostile input in a test and fails the
// test if it panics, does not return before a generous deadline, or grows
// the heap beyond a bound proportional to the input. It is for the
// bad-input corpus tests (docs/reliability.md); it never asserts speed.
package bounded

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// Defaults of Limits.
const (
	// DefaultDeadline is how long a case may run before it is called a hang.
	// It is far above any honest run, so a slow shared machine cannot fail it.
	DefaultDeadline = 2 * time.Minute
	// BaseHeap is the heap growth allowed whatever the input size.
	BaseHeap = 64 << 20
)

// Limits bound one case.
type Limits struct {
	Deadline time.Duration
	// MaxHeapGrowth bounds the sampled peak of the live heap above what it
	// was before the case started.
	MaxHeapGrowth uint64
}

// For returns the default limits for an input of n bytes: DefaultDeadline
// and a heap growth of 4n + 64 MiB.
func For(n int64) Limits { return Scaled(n, 4) }

// Scaled returns DefaultDeadline and a heap growth of factor·n + 64 MiB, for
// an entry point that keeps its whole input in memory in a richer form (say
// why where it is used).
func Scaled(n int64, factor uint64) Limits {
	return Limits{Deadline: DefaultDeadline, MaxHeapGrowth: factor*uint64(max(n, 0)) + BaseHeap}
}

// TB is the part of testing.TB that Run uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Result is what Run measured.
type Result struct {
	// PeakHeapGrowth is the largest sampled heap in use above the baseline.
	PeakHeapGrowth uint64
	Elapsed        time.Duration
}

// Run calls fn in a goroutine and returns what it measured and fn's error. It fails t (Fatalf) if
// fn panics or has not returned by the deadline, and (Errorf) if the heap
// grew beyond the limit. While fn runs, the garbage collector runs more
// often (GOGC 20) so that the sampled heap is close to the live heap; cases
// must not run in parallel with other work of the test binary.
func Run(t TB, lim Limits, fn func() error) (Result, error) {
	t.Helper()
	if lim.Deadline <= 0 {
		lim.Deadline = DefaultDeadline
	}
	old := debug.SetGCPercent(20)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc

	type outcome struct {
		err   error
		panic any
		stack []byte
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panic: p, stack: debug.Stack()}
			}
		}()
		done <- outcome{err: fn()}
	}()

	var peak uint64
	var mu sync.Mutex
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		if ms.HeapAlloc > base && ms.HeapAlloc-base > peak {
			peak = ms.HeapAlloc - base
		}
		mu.Unlock()
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(lim.Deadline)
	defer deadline.Stop()
	for {
		select {
		case <-tick.C:
			sample()
		case o := <-done:
			sample()
			res := Result{PeakHeapGrowth: peak, Elapsed: time.Since(start)}
			if o.panic != nil {
				t.Fatalf("panic: %v\n%s", o.panic, o.stack)
			}
			if lim.MaxHeapGrowth > 0 && peak > lim.MaxHeapGrowth {
				t.Errorf("heap grew by %s, over the bound of %s", mib(peak), mib(lim.MaxHeapGrowth))
			}
			return res, o.err
		case <-deadline.C:
			t.Fatalf("did not finish within %v (a hang?)", lim.Deadline)
			return Result{}, nil
		}
	}
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
