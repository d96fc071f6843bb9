package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
)

func newComponentsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "components",
		Short: "List the named components strategies, models and imports can use",
		Long: `components lists every registered component by kind — triggers, warm-set
keyings and evictions, injections, directory formats, query models, search
rankers, prompt-cache models, token counters and trace importers — with a
one-line description and its parameters. Scenario files name them
(docs/scenarios.md); docs/architecture.md says how to add one. The text
form ends with the strategy keys no component declares, which the engine
reads itself, and under which strategies.`,
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
		if err := component.WriteText(out, reg.Components()); err != nil {
			return err
		}
		return writeEngineKeys(out)
	}
	return c
}

// writeEngineKeys lists the strategy keys the engine reads itself
// (sim.EngineKeys), each with the strategies that read it: the reads
// check refuses one written on any other.
func writeEngineKeys(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nstrategy keys the engine reads (no component declares them)")
	for _, k := range sim.EngineKeys() {
		typ := k.Type
		if k.Default != "" {
			typ += ", default " + k.Default
		}
		fmt.Fprintf(tw, "  %s\t(%s): %s\n", k.Name, typ, k.Meaning)
		fmt.Fprintf(tw, "  \t    read by %s\n", k.Readers)
	}
	return tw.Flush()
}
