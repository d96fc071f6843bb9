package main

import (
	"strings"
	"testing"
)

// TestMaxUnresolvedSameInRunAndCalibrate pins that calibrate has run's
// --max-unresolved, checked by the same rule with the same words before
// anything is read: a share in [0, 1], so 5 typed for 5% is refused with
// exit status 2. Calibrate had no such flag (only --allow-unresolved).
func TestMaxUnresolvedSameInRunAndCalibrate(t *testing.T) {
	const want = "--max-unresolved: 5 is not a share in [0, 1] (0.01 = 1% of tool calls)"
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "--max-unresolved", "5", "-o", dir + "/run"}},
		{"calibrate", []string{"calibrate", dir + "/no-such-trace.jsonl", "--max-unresolved", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := cliRun(t, tc.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr:\n%s", code, errs)
			}
			if got := strings.TrimSpace(errs); got != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
