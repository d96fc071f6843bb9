package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
)

func newMergeCmd() *cobra.Command {
	var (
		noReport bool
		workers  int
	)
	c := &cobra.Command{
		Use:   "merge OUT_DIR SHARD_DIR...",
		Short: "Combine the outputs of `run --shard I/N` into the results of the whole run",
		Long: `Read SHARD_DIR/shard.bin of every shard of one run (written by
defersim run --shard I/N) and write OUT_DIR/results.json (and the report) as a
single run over every session would: counts, sums and means are exact, and so
are percentiles while the run has at most --exact-sessions sessions; beyond,
percentiles come from merged quantile sketches (docs/performance.md). Every
shard of the run must be given once.`,
		Args: cobra.MinimumNArgs(2),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		out := args[0]
		if out == cliout.Stdio {
			return exitError{code: 2, msg: "merge writes a directory (results.json and the report): OUT_DIR cannot be -"}
		}
		var files []*runner.StateFile
		for _, dir := range args[1:] {
			f, err := runner.ReadState(filepath.Join(dir, runner.ShardFile))
			if err != nil {
				return err
			}
			files = append(files, f)
		}
		res, err := runner.Merge(files, workers)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("create output directory: %w", err)
		}
		if err := runner.WriteOutputs(res, out, runner.WriteOptions{Report: !noReport}); err != nil {
			return err
		}
		w := cmd.OutOrStdout()
		switch {
		case *format == cliout.JSON:
			return printRunJSON(w, res, out, !noReport)
		case !cliout.Quiet(cmd):
			fmt.Fprintf(w, "merged %d shards\n", len(files))
			printRunSummary(w, res, out, !noReport)
		}
		return nil
	}
	fl := c.Flags()
	fl.BoolVar(&noReport, "no-report", false, "write results.json only, no plots or HTML")
	fl.IntVar(&workers, "workers", 0, "goroutines computing the statistics (0 = one per core; results do not depend on it)")
	return c
}
