package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

func asExit(err error, target *exitError) bool { return errors.As(err, target) }

func newRootCmd() *cobra.Command {
	var f runFlags
	root := &cobra.Command{
		Use:   "defersim",
		Short: "Replay agent sessions under deferred tool loading strategies",
		Long: `defersim replays recorded LLM agent sessions over real MCP tool catalogs
under deferred-tool-loading strategies and reports token cost, cache use,
first-reply latency and malformed-call rates.

With no arguments it runs the embedded default scenario and writes a report.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return doRun(cmd, "", &f)
		},
	}
	f.register(root)
	root.AddCommand(newRunCmd(), newReportCmd(), newTraceCmd(), newCatalogCmd(), newCheckCmd(), newRecommendCmd(), newPlanCmd(), newSweepCmd(), newCalibrateCmd(), newSRDCmd(), newMergeCmd(), newTokensCmd())
	return root
}

func newTraceCmd() *cobra.Command {
	c := &cobra.Command{Use: "trace", Short: "Validate, inspect, import and generate traces"}
	c.AddCommand(newTraceValidateCmd(), newTraceStatsCmd(), newTraceImportCmd(), newTraceGenCmd())
	return c
}

func newCatalogCmd() *cobra.Command {
	c := &cobra.Command{Use: "catalog", Short: "Token cost of catalogs and drift between versions"}
	c.AddCommand(newCatalogStatsCmd(), newCatalogDiffCmd(), newCatalogSnapshotCmd(), newCatalogHistoryCmd())
	return c
}
