package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/version"
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
		Version:       version.Get().String(),
		Args:          unknownSubcommand,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			if !cliout.Quiet(cmd) {
				cliout.WarnDeprecated(cmd, cmd.ErrOrStderr())
			}
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return doRun(cmd, "", &f)
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetUsageTemplate(shortenMoreLine(wrapFlagUsages(root.UsageTemplate())))
	pf := root.PersistentFlags()
	pf.BoolP("quiet", "q", false, "no progress or messages on stderr (errors only); run and merge also print no summary")
	pf.Duration("progress-every", progress.DefaultEvery, "interval of plain progress lines when stderr is not a terminal")
	_ = pf.MarkHidden("progress-every")
	f.register(root)
	root.AddCommand(newRunCmd(), newReportCmd(), newTraceCmd(), newCatalogCmd(), newCheckCmd(), newRecommendCmd(), newPlanCmd(), newSweepCmd(), newCalibrateCmd(), newSRDCmd(), newMergeCmd(), newVersionCmd(), newTokensCmd(), newComponentsCmd())
	addCompletionCmd(root)
	return root
}

// unknownSubcommand rejects arguments of a command that takes none but
// has subcommands, suggesting the closest subcommand names ("did you
// mean").
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return exitError{code: 2, msg: msg + fmt.Sprintf("\n\nRun '%s --help' for usage.", cmd.CommandPath())}
}

// newGroupCmd returns a command that only groups subcommands: without
// arguments it shows its help; an unknown subcommand is an error with
// suggestions.
func newGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use: use, Short: short,
		Args: unknownSubcommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	c.AddCommand(subs...)
	return c
}

func newTraceCmd() *cobra.Command {
	return newGroupCmd("trace", "Validate, inspect, import and generate traces",
		newTraceValidateCmd(), newTraceStatsCmd(), newTraceImportCmd(), newTraceGenCmd())
}

func newCatalogCmd() *cobra.Command {
	return newGroupCmd("catalog", "Token cost of catalogs and drift between versions",
		newCatalogStatsCmd(), newCatalogDiffCmd(), newCatalogSnapshotCmd(), newCatalogHistoryCmd())
}

// newReporter starts a progress reporter on the command's stderr that
// honours --quiet and the plain-line interval.
func newReporter(cmd *cobra.Command, cfg progress.Config) *progress.Reporter {
	q, _ := cmd.Flags().GetBool("quiet")
	cfg.Quiet = cfg.Quiet || q
	if every, err := cmd.Flags().GetDuration("progress-every"); err == nil && every > 0 {
		cfg.Every = every
	}
	return progress.New(cmd.ErrOrStderr(), cfg)
}

// warnf writes a warning on stderr unless --quiet.
func warnf(cmd *cobra.Command, format string, args ...any) {
	if q, _ := cmd.Flags().GetBool("quiet"); q {
		return
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: "+format+"\n", args...)
}

// commitOutput writes a file output when the command succeeded or only
// reports a finding with exit status 1 (a regression, drift, problems):
// the output says what was found.
func commitOutput(out *cliout.Sink, err *error) {
	var ex exitError
	if *err == nil || (errors.As(*err, &ex) && ex.code == 1) {
		if cerr := out.Commit(); cerr != nil {
			*err = cerr
		}
	}
}
