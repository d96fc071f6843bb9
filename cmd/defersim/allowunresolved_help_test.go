package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestAllowUnresolvedHelpSaysWhichLimit pins the --allow-unresolved help
// of sweep and plan: it said "the scenario's max_unresolved (default
// 0.01)", as if every scenario carried one and --traces kept it; the
// limit is the scenario's when it sets one, else 0.01, and with --traces
// at most 0.01 (runner.LimitNotCarried), as run's --max-unresolved says.
func TestAllowUnresolvedHelpSaysWhichLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  *cobra.Command
	}{
		{"sweep", newSweepCmd()},
		{"plan", newPlanCmd()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.cmd.Flags().Lookup("allow-unresolved")
			if f == nil {
				t.Fatal("no --allow-unresolved")
			}
			for _, want := range []string{"the scenario's max_unresolved when it sets one, else 0.01", "with --traces at most 0.01"} {
				if !strings.Contains(f.Usage, want) {
					t.Errorf("help %q lacks %q", f.Usage, want)
				}
			}
			if strings.Contains(f.Usage, "max_unresolved (default") {
				t.Errorf("help %q still gives 0.01 as the scenario's default", f.Usage)
			}
		})
	}
}
