package main

import "github.com/spf13/cobra"

// strategiesUsage is what run's --strategies does.
const strategiesUsage = "strategies to run: presets or names from the scenario (default: the scenario's)"

// addStrategiesFlag adds run's --strategies to c: presets or names of the
// scenario's strategies, comma-separated or repeated, which replace the
// scenario's (runner.Overrides.Strategies, scenarios.SelectStrategies).
// run, sweep and trace validate --scenario read it the same way.
func addStrategiesFlag(c *cobra.Command, v *[]string, usage string) {
	c.Flags().StringSliceVar(v, "strategies", nil, usage)
}
