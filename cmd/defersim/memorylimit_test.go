package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestMemoryLimitFlag pins run's --memory-limit (issue 20/9): sizes as
// --bootstrap-memory reads them, 0 and off for none, negative sizes and
// words refused; applying it sets the runtime's soft limit and restoring
// puts the previous one back.
func TestMemoryLimitFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  bool
		str  string
	}{
		{in: "256MiB", want: 256 << 20, str: "256.0 MiB"},
		{in: "1 GiB", want: 1 << 30, str: "1.0 GiB"},
		{in: "200000000", want: 200000000, str: "190.7 MiB"},
		{in: "0", want: 0, str: "off"},
		{in: "off", want: 0, str: "off"},
		{in: "OFF", want: 0, str: "off"},
		{in: "-1", err: true},
		{in: "lots", err: true},
		{in: "12MB", err: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			var m memoryLimit
			err := m.Set(tc.in)
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), "0 or off") {
					t.Fatalf("Set(%q) = %v, want an error naming 0 or off", tc.in, err)
				}
				return
			}
			if err != nil || int64(m) != tc.want || m.String() != tc.str {
				t.Fatalf("Set(%q): %d %q, %v; want %d %q", tc.in, m, m.String(), err, tc.want, tc.str)
			}
		})
	}

	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	m := memoryLimit(300 << 20)
	got, restore := m.apply(true)
	if cur := debug.SetMemoryLimit(-1); got != 300<<20 || cur != 300<<20 {
		t.Errorf("apply: reported %d, runtime limit %d; want %d", got, cur, 300<<20)
	}
	restore()
	if cur := debug.SetMemoryLimit(-1); cur != before {
		t.Errorf("after restore the runtime limit is %d, want %d", cur, before)
	}
	off := memoryLimit(0)
	if got, restore := off.apply(true); got != 0 || debug.SetMemoryLimit(-1) != 1<<63-1 {
		t.Errorf("off: reported %d, runtime limit %d; want none", got, debug.SetMemoryLimit(-1))
	} else {
		restore()
	}

	// GOMEMLIMIT wins over the default, not over the flag given.
	t.Setenv("GOMEMLIMIT", "123MiB")
	prev := debug.SetMemoryLimit(123 << 20)
	defer debug.SetMemoryLimit(prev)
	if got, _ := off.apply(false); got != 123<<20 {
		t.Errorf("flag not given with GOMEMLIMIT set: reported %d, want %d", got, 123<<20)
	}
}
