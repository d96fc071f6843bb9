package main

import (
	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
)

func newCatalogHistoryCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "history DIR",
		Short: "Drift over time of every server with several versions",
		Long: `history loads a catalog directory (or manifest) and, for every series (a
server, or a server and launch variant) with two or more versions, diffs each
version with the next (as catalog diff does). It prints per series the
timeline of releases with the counts of added, removed and changed tools,
changed tools by class (breaking, schema-compatible, description-only,
metadata-only), and the share of releases with at least one breaking change
(a removed tool counts as breaking), and per release the tokens of every
tool of each version, their change and what each request sending every
tool directly carries more (--counter, --form, --tool-overhead; as catalog
diff). A series whose versions mix dates and release numbers is diffed in
defersim's order and marked "order unknown" (JSON: order_unknown), as no
capture gives its release order. See docs/live-catalogs.md.`,
		Args: cobra.ExactArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the history")
	tf := addTokenFlags(c)
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		out, err := cliout.Open(*output, cmd.OutOrStdout(), args...)
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		opt, err := tf.options(cmd)
		if err != nil {
			return err
		}
		var cat *catalog.Catalog
		if catalog.IsManifest(args[0]) {
			cat, err = catalog.LoadManifest(args[0])
		} else {
			cat, err = catalog.LoadDir(args[0])
		}
		if err != nil {
			return err
		}
		h := catalog.NewHistoryTokens(cat, opt)
		printCatalogWarnings(cmd, h.Warnings)
		printVersionless(cmd, catalog.Versionless(cat.All()))
		printFileChecks(cmd, cat.All())
		if *format != cliout.JSON {
			return catalog.FormatHistory(out, h)
		}
		return cliout.WriteJSON(out, h)
	}
	return c
}
