package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/report"
)

func newReportCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "report RESULTS.json",
		Short: "Re-render report.html, report.md and the plots from a saved results.json",
		Long: `Re-render the report (report.html, report.md, plots/*.png and *.svg) from a
results.json written by 'defersim run', without replaying anything. The
report goes next to RESULTS.json unless -o names another directory, in which
case results.json is copied there too so the report's links work.
RESULTS.json may be - (stdin); -o is then required.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == cliout.Stdio && (out == "" || out == cliout.Stdio) {
				return exitError{code: 2, msg: "reading results from stdin: name the report's directory with -o DIR"}
			}
			res, err := readResultsArg(cmd, args[0])
			if err != nil {
				return err
			}
			src, err := filepath.Abs(filepath.Dir(args[0]))
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			dir := out
			if dir == "" {
				dir = filepath.Dir(args[0])
			}
			dst, err := filepath.Abs(dir)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			opts := report.RenderOptions{WriteResults: dst != src || args[0] == cliout.Stdio}
			if err := report.Render(res, dir, opts); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if cliout.Quiet(cmd) {
				return nil
			}
			fmt.Fprintf(w, "report:  %s\n", filepath.Join(dir, report.HTMLFile))
			return report.Summary(w, res)
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "directory for the report (default: the directory of RESULTS.json)")
	return c
}
