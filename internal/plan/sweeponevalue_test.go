package plan

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestSweepOfOneValueRefused pins that a sweep whose from equals its to
// (--param K=5000:5000:1000, or a scenario's sweep block so written) is
// refused before it replays, saying what to type: it used to replay the
// one value and print a table with nothing to compare, whose empty
// "vs previous point" column and absent unchanged list read as if the
// parameter mattered.
func TestSweepOfOneValueRefused(t *testing.T) {
	sc := small(t, 2)
	dir := t.TempDir()
	_, err := Sweep(context.Background(), SweepConfig{Scenario: sc,
		Spec: SweepSpec{Param: "params.user_think_ms", From: 5000, To: 5000, Step: 1000},
		Dir:  dir, Bootstrap: -1})
	if err == nil || !strings.Contains(err.Error(), "one value compares nothing; give a to above it (e.g. 5000:7000:1000)") {
		t.Fatalf("err %v, want the one-value sweep refused", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused sweep wrote %d entries", len(ents))
	}
}
