package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/plan"
)

// TestSweepSetsKeyOnlyWhereRead pins that a strategy.* sweep sets the value
// only on the strategies that read the key: `check` between two points
// reports a policy change for those alone (it used to report eager's and
// the count trigger's trigger.budget 2000 → 6000 too, a false alarm), and
// sweep.json names the strategies it applied to and marks the others
// constant, in its lists and on their rows.
func TestSweepSetsKeyOnlyWhereRead(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sweep", "--param", "strategy.trigger.budget=2000:6000:4000",
		"--strategies", "eager,anchor-e1-budget8k,anchor-e0-count30", "-o", dir, "--bootstrap", "-1", "-q"}
	if out, code := runCLI(t, args...); code != 0 {
		t.Fatalf("sweep: exit %d:\n%s", code, out)
	}
	checked := filepath.Join(dir, "check.json")
	if out, code := runCLI(t, "check", "--allow", "policy", "--format", "json", "-o", checked,
		"--baseline", filepath.Join(dir, "strategy.trigger.budget=2000", "results.json"),
		filepath.Join(dir, "strategy.trigger.budget=6000", "results.json")); code != 0 {
		t.Fatalf("check: exit %d:\n%s", code, out)
	}
	var ck struct {
		Notes   []string `json:"notes"`
		Changes []string `json:"changes"`
	}
	readJSON(t, checked, &ck)
	var changed []string
	for _, c := range ck.Changes {
		if strings.HasPrefix(c, "strategies[") {
			changed = append(changed, c)
		}
	}
	want := []string{"strategies[anchor-e1-budget8k].parameters.trigger.budget: 2000 → 6000"}
	if !slices.Equal(changed, want) {
		t.Errorf("check between two points: strategy changes %q, want %q", changed, want)
	}
	for _, n := range ck.Notes {
		if strings.Contains(n, "policy change") && (strings.Contains(n, "eager") || strings.Contains(n, "count30")) {
			t.Errorf("check notes a policy change of a strategy that does not read the key: %s", n)
		}
	}
	var sw struct {
		AppliesTo []string         `json:"applies_to"`
		Constant  []plan.Unchanged `json:"constant"`
		Rows      []plan.SeriesRow `json:"rows"`
	}
	readJSON(t, filepath.Join(dir, "sweep.json"), &sw)
	if !slices.Equal(sw.AppliesTo, []string{"anchor-e1-budget8k"}) {
		t.Errorf("applies_to = %q, want the tokens trigger's strategy alone", sw.AppliesTo)
	}
	var constant []string
	for _, c := range sw.Constant {
		if !strings.Contains(c.Reason, "does not read trigger.budget") {
			t.Errorf("constant %s: reason %q, want why it does not read the key", c.Strategy, c.Reason)
		}
		constant = append(constant, c.Strategy)
	}
	if !slices.Equal(constant, []string{"eager", "anchor-e0-count30"}) {
		t.Errorf("constant = %q, want eager and anchor-e0-count30", constant)
	}
	for _, r := range sw.Rows {
		if want := r.Strategy != "anchor-e1-budget8k"; r.Constant != want {
			t.Errorf("row %s %s: constant %v, want %v", r.Label, r.Strategy, r.Constant, want)
		}
	}
}
