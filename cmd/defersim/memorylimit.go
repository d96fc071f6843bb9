package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/defersim/defersim/report"
)

// bootstrapMemoryUsage is the help of --bootstrap-memory (run, sweep,
// plan, recommend, merge). It does not state the default: cobra prints it
// after the help, from report.ByteSize's String.
const bootstrapMemoryUsage = "most memory the bootstrap may allocate, e.g. 8GiB (-1 = no limit, 0 = as when not given)"

// memoryLimit is run's --memory-limit: a soft limit on the memory the Go
// runtime holds (runtime/debug.SetMemoryLimit). Without one the heap may
// grow to twice the live heap before a collection; when the cores are
// contended the collector falls behind the replay and peak RSS rises with
// the machine's load (docs/performance.md "Memory"). Near the limit the
// collector runs more often instead. It is soft: a run whose live heap
// needs more still finishes, collecting more often (the runtime caps the
// collector at about half the CPU). 0 (or "off") sets no limit.
type memoryLimit int64

// String implements flag.Value.
func (m *memoryLimit) String() string {
	if *m == 0 {
		return "off"
	}
	return report.FormatBytes(int64(*m))
}

// Set implements flag.Value.
func (m *memoryLimit) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), "off") {
		*m = 0
		return nil
	}
	n, err := report.ParseBytes(s)
	if err != nil || n < 0 {
		return fmt.Errorf("memory limit %q: want a size such as 256MiB, or 0 or off for none", s)
	}
	*m = memoryLimit(n)
	return nil
}

// Type implements pflag.Value.
func (m *memoryLimit) Type() string { return "size" }

// apply sets the limit for the rest of the command unless the user chose
// the runtime's own: GOMEMLIMIT in the environment wins over the default,
// not over the flag given (changed). It returns the limit in force (0 for
// none) and the function that restores the previous one.
func (m memoryLimit) apply(changed bool) (int64, func()) {
	if !changed && os.Getenv("GOMEMLIMIT") != "" {
		cur := debug.SetMemoryLimit(-1)
		if cur == 1<<63-1 {
			cur = 0
		}
		return cur, func() {}
	}
	limit := int64(m)
	if limit == 0 {
		limit = 1<<63 - 1 // the runtime's "no limit"
	}
	prev := debug.SetMemoryLimit(limit)
	return int64(m), func() { debug.SetMemoryLimit(prev) }
}
