package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/runner"
)

func newComponentsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "components",
		Short: "List the named components strategies, models and imports can use",
		Long: `components lists every registered component by kind — triggers, warm-set
keyings and evictions, injections, directory formats, query models, search
rankers, prompt-cache models, token counters and trace importers — with a
one-line description and its parameters. Scenario files name them
(docs/scenarios.md); docs/architecture.md says how to add one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg, err := runner.DefaultRegistry()
			if err != nil {
				return err
			}
			infos := reg.Components()
			out := cmd.OutOrStdout()
			if !asJSON {
				return component.WriteText(out, infos)
			}
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(infos)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the components as JSON")
	return c
}
