package main

import (
	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
)

// printFileChecks writes to stderr what the catalog files' names and
// capture metadata say that their content does not (nothing with --quiet):
// a "+" variant that reads like semver build metadata
// (catalog.BuildMetadataVariants), a .meta.json that contradicts its
// catalog (catalog.MetaMismatches), a series whose versions mix dates and
// release numbers (catalog.MixedVersionSchemes), and a tool name the MCP
// specification advises against (catalog.UnusualToolNames), each followed
// by its count.
func printFileChecks(cmd *cobra.Command, servers []*catalog.Server) {
	printWarnings(cmd, catalog.BuildMetadataVariants(servers),
		`file whose "+" may be build metadata read as a launch variant, a server of its own`,
		`files whose "+" may be build metadata read as launch variants, servers of their own`)
	printWarnings(cmd, catalog.MetaMismatches(servers),
		"catalog contradicted by its .meta.json", "catalogs contradicted by their .meta.json")
	printWarnings(cmd, catalog.MixedVersionSchemes(servers),
		"server series whose versions mix dates and release numbers, in an order no capture gives",
		"server series whose versions mix dates and release numbers, in an order no capture gives")
	printWarnings(cmd, catalog.UnusualToolNames(servers),
		"tool name the MCP specification advises against, counted as written",
		"tool names the MCP specification advises against, counted as written")
}
