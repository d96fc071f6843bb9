package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
)

func newMergeCmd() *cobra.Command {
	var (
		noReport bool
		workers  int
		bootMem  report.ByteSize
	)
	c := &cobra.Command{
		Use:   "merge OUT_DIR SHARD_DIR...",
		Short: "Combine `run --shard I/N` outputs into the whole run's results",
		Long: `Read SHARD_DIR/shard.bin of every shard of one run (written by
defersim run --shard I/N) and write OUT_DIR/results.json (and the report) as a
single run over every session would: counts, sums and means are exact, and so
are percentiles while the run has at most --exact-sessions sessions; beyond,
percentiles come from merged quantile sketches (docs/performance.md). Every
shard of the run must be given once; shards may have read the same inputs
at other paths (results.json names the lowest shard's). The shards and
the merge must be the same defersim build (defersim --version).`,
		Args: cobra.MinimumNArgs(2),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		out := args[0]
		if out == cliout.Stdio {
			return exitError{code: 2, msg: "merge writes a directory (results.json and the report): OUT_DIR cannot be -"}
		}
		var shards []string
		for _, dir := range args[1:] {
			path, err := shardState(dir)
			if err != nil {
				return err
			}
			shards = append(shards, path)
		}
		guard := outguard.New(shards...)
		if err := guard.Check(runOutputs(out)...); err != nil {
			return err
		}
		var files []*runner.StateFile
		prog := newReporter(cmd, progress.Config{Label: "merge", Verb: "read", Noun: "shards", One: "shard", Total: int64(len(shards))})
		for _, path := range shards {
			f, err := runner.ReadState(path)
			if err != nil {
				prog.Abort()
				return err
			}
			files = append(files, f)
			prog.Update(int64(len(files)), int64(len(files)))
		}
		prog.Finish()
		ctx, stop := interruptibleSaying(cmd.Context(), cmd.ErrOrStderr(), "stopping")
		defer stop()
		res, err := runner.Merge(ctx, files, workers, int64(bootMem))
		if err != nil {
			if ctx.Err() != nil {
				return exitError{code: 130, msg: "interrupted while computing the statistics; nothing was written"}
			}
			return err
		}
		if err := runner.WriteOutputs(res, out, runner.WriteOptions{Report: !noReport, Check: guard.CheckOne}); err != nil {
			return err
		}
		w := cmd.OutOrStdout()
		switch {
		case *format == cliout.JSON:
			if err := printRunJSON(w, res, out, !noReport, 0); err != nil {
				return err
			}
		case !cliout.Quiet(cmd):
			fmt.Fprintf(w, "merged %s\n", nouns.Count(len(files), "shard"))
			printRunSummary(w, res, out, !noReport)
		}
		// The shards' input warnings and skipped sessions, as run gives
		// them and in run's order (the shards' runs located the first
		// ones; a merge has their counts only).
		return skippedSessions(cmd.ErrOrStderr(), res)
	}
	fl := c.Flags()
	fl.BoolVar(&noReport, "no-report", false, "write results.json only, no plots or HTML")
	fl.IntVar(&workers, "workers", 0, "goroutines computing the statistics (0 = one per core; results do not depend on it)")
	fl.Var(&bootMem, "bootstrap-memory", bootstrapMemoryUsage)
	return c
}
