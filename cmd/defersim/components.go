package main

import (
	"github.com/spf13/cobra"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
)

func newComponentsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "components",
		Short: "List the named components strategies, models and imports can use",
		Long: `components lists every registered component by kind — triggers, warm-set
keyings and evictions, injections, directory formats, query models, search
rankers, prompt-cache models, token counters and trace importers — with a
one-line description and its parameters. Scenario files name them
(docs/scenarios.md); docs/architecture.md says how to add one.`,
		Args: cobra.NoArgs,
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the list")
	c.RunE = func(cmd *cobra.Command, _ []string) (err error) {
		reg, err := runner.DefaultRegistry()
		if err != nil {
			return err
		}
		out, err := cliout.Open(*output, cmd.OutOrStdout())
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		if *format == cliout.JSON {
			return cliout.WriteJSON(out, reg.Components())
		}
		return component.WriteText(out, reg.Components())
	}
	return c
}
