package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
)

// maxUnresolvedFlag is the name of the flag run, calibrate and trace
// validate share: the share of tool calls that may fail to resolve
// against the catalogs before the command stops (sim.DefaultMaxUnresolved unless given).
const maxUnresolvedFlag = "max-unresolved"

// addMaxUnresolved registers --max-unresolved on c into v, with run's
// default; what the share stops is the command's (usage).
func addMaxUnresolved(c *cobra.Command, v *float64, usage string) {
	c.Flags().Float64Var(v, maxUnresolvedFlag, runner.DefaultMaxUnresolved, usage)
}

// givenMaxUnresolved returns the --max-unresolved share when the flag was
// given, checked as the scenario key max_unresolved is
// (sim.CheckMaxUnresolved: a share in [0, 1], so 5 meant as 5% is refused),
// and nil when it was not (the command's default applies).
func givenMaxUnresolved(cmd *cobra.Command, v float64) (*float64, error) {
	if !cmd.Flags().Changed(maxUnresolvedFlag) {
		return nil, nil
	}
	if err := sim.CheckMaxUnresolved(v); err != nil {
		return nil, exitError{code: 2, msg: fmt.Sprintf("--%s: %v", maxUnresolvedFlag, err)}
	}
	return &v, nil
}
