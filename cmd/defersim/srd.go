package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/retrieval"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/srd"
)

func newSRDCmd() *cobra.Command {
	c := &cobra.Command{Use: "srd", Short: "Lint routing descriptions (SRDs) and evaluate routed search"}
	c.AddCommand(newSRDLintCmd(), newSRDEvalCmd(), newSRDConvertCmd())
	return c
}

func newSRDLintCmd() *cobra.Command {
	var catalogs []string
	c := &cobra.Command{
		Use:   "lint FILE...",
		Short: "Check SRD files against the rules in docs/srd.md",
		Long: `lint reads SRD files (YAML or JSON; a directory stands for its .yaml,
.yml and .json files) and checks them on their own and against each other;
with --catalogs, tool groups must name tools the server serves (a tool only
an older version serves is a warning). Every problem is printed as
"file:line: field: reason", then a summary line.

Exit status: 0 when every SRD is clean (warnings or not), 1 when there are
problems, 2 when a file or the catalogs cannot be read (a file that is not
valid YAML, not UTF-8 or too large included: its problems are printed with
the others).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srds, probs, err := srd.LoadPaths(args)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			opt := srd.LintOptions{}
			if len(catalogs) > 0 {
				srcs, err := runner.CatalogSources(catalogs, embeddedData())
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				cat, err := runner.LoadCatalogs(srcs)
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				opt.Catalog = cat
			}
			probs = append(probs, srd.Lint(srds, opt)...).Sort()
			return writeLint(cmd.OutOrStdout(), len(srds), probs)
		},
	}
	c.Flags().StringSliceVar(&catalogs, "catalogs", nil, "catalog directories or files the tool groups are checked against, read as run reads them (embedded:catalog for the embedded sample)")
	return c
}

func writeLint(w io.Writer, n int, probs srd.Problems) error {
	var sb strings.Builder
	for _, p := range probs {
		sb.WriteString(p.String() + "\n")
	}
	errs := probs.Errors()
	warned := ""
	if k := len(probs) - len(errs); k > 0 {
		warned = ", " + nouns.Count(k, "warning")
	}
	if len(errs) == 0 {
		fmt.Fprintf(&sb, "%s, no problems%s\n", nouns.Count(n, "SRD"), warned)
	} else {
		fmt.Fprintf(&sb, "%s, %s%s\n", nouns.Count(n, "SRD"), nouns.Count(len(errs), "problem"), warned)
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return err
	}
	if bad := probs.Unreadable(); len(bad) > 0 {
		// A file that cannot be read is bad input (docs/cli.md), not a
		// finding: exit status 2, naming the first.
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be read as SRD YAML or JSON (first: %s)",
			nouns.Count(len(bad), "file"), bad[0])}
	}
	if len(errs) > 0 {
		return exitError{code: 1}
	}
	return nil
}

func srdSplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func srdWriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeEvalDir writes results.json, report.md and the plots into dir.
func writeEvalDir(dir string, res *retrieval.Result) error {
	var js strings.Builder
	if err := srdWriteJSON(&js, res); err != nil {
		return err
	}
	var md strings.Builder
	if err := retrieval.FormatMarkdown(&md, res); err != nil {
		return err
	}
	files := map[string][]byte{"results.json": []byte(js.String()), "report.md": []byte(md.String())}
	plots, err := retrieval.Plots(res)
	if err != nil {
		return err
	}
	for _, p := range plots {
		files[p.Name+".png"] = p.PNG
		files[p.Name+".svg"] = p.SVG
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b := files[name]
		if err := atomicfile.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
