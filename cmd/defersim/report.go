package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/report"
)

func newReportCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "report RESULTS.json",
		Short: "Re-render the report and plots from a saved results.json",
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
			dir := out
			if dir == "" {
				dir = filepath.Dir(args[0])
			}
			copyResults := true
			if args[0] != cliout.Stdio {
				if copyResults, err = reportCopiesResults(args[0], res, dir); err != nil {
					return err
				}
			}
			guard := outguard.New(args[0])
			set := atomicfile.NewSet()
			stage, err := set.Dir(dir)
			if err != nil {
				return err
			}
			if err := report.Render(res, stage, report.RenderOptions{WriteResults: copyResults}); err != nil {
				set.Abort()
				return err
			}
			set.Replace(filepath.Join(dir, report.PlotsDir, "*.png"), filepath.Join(dir, report.PlotsDir, "*.svg"))
			if err := set.Commit(guard.CheckOne); err != nil {
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

// reportCopiesResults says whether `report RESULTS -o DIR` copies RESULTS
// into DIR: not when DIR is RESULTS' own directory (by identity), and it
// refuses to replace a DIR/results.json that holds other results (another
// run's, issue 18.2).
func reportCopiesResults(results string, res *report.Results, dir string) (bool, error) {
	src, err1 := os.Stat(filepath.Dir(results))
	dst, err2 := os.Stat(dir)
	if err1 == nil && err2 == nil && os.SameFile(src, dst) {
		return false, nil
	}
	target := filepath.Join(dir, report.ResultsFile)
	old, err := os.ReadFile(target)
	if err != nil {
		return true, nil // nothing there (or unreadable: the write will say)
	}
	in, err := os.ReadFile(results)
	if err != nil {
		return false, fmt.Errorf("report: %w", err)
	}
	copied, err := report.MarshalResults(res)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(old, in) && !bytes.Equal(old, copied) {
		return false, fmt.Errorf("refusing to write %s: it holds other results than %s (remove it or choose another directory)", target, results)
	}
	return true, nil
}
