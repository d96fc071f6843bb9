package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
)

func newCatalogDiffCmd() *cobra.Command {
	var (
		failOn string
	)
	c := &cobra.Command{
		Use:   "diff A B",
		Short: "Drift between two catalog files: added, removed and changed tools, classified",
		Long: `diff compares catalog file A (older) with B (newer). Each changed tool is
classified as metadata-only, description-only, schema-compatible or breaking,
with the JSON path of every change (see docs/catalogs.md).

--fail-on breaking exits 1 when any change is breaking (a removed tool counts);
--fail-on any exits 1 when anything differs; --fail-on none (default) never does.`,
		Args: cobra.ExactArgs(2),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the diff")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		out, err := cliout.Open(*output, cmd.OutOrStdout(), args...)
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		switch failOn {
		case "none", "any", "breaking":
		default:
			return fmt.Errorf("--fail-on: want breaking, any or none, not %q", failOn)
		}
		a, err := catalog.LoadFile(args[0])
		if err != nil {
			return err
		}
		b, err := catalog.LoadFile(args[1])
		if err != nil {
			return err
		}
		printCatalogWarnings(cmd, catalog.Warnings([]*catalog.Server{a, b}))
		d := catalog.Diff(a, b)
		if *format == cliout.JSON {
			err = cliout.WriteJSON(out, d)
		} else {
			err = catalog.FormatDiff(out, d)
		}
		if err != nil {
			return err
		}
		drift := len(d.Added)+len(d.Removed)+len(d.Changed) > 0
		switch {
		case failOn == "any" && drift:
			return exitError{code: 1, msg: fmt.Sprintf("catalog drift: %d added, %d removed, %d changed", len(d.Added), len(d.Removed), len(d.Changed))}
		case failOn == "breaking" && d.Class == catalog.ClassBreaking:
			return exitError{code: 1, msg: "breaking catalog drift"}
		}
		return nil
	}
	c.Flags().StringVar(&failOn, "fail-on", "none", "exit 1 on drift of this class: breaking, any or none")
	return c
}
