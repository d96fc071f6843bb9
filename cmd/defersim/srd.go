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

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/retrieval"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

func newSRDCmd() *cobra.Command {
	c := &cobra.Command{Use: "srd", Short: "Lint server-level routing descriptions and evaluate routed tool search"}
	c.AddCommand(newSRDLintCmd(), newSRDEvalCmd())
	return c
}

func newSRDLintCmd() *cobra.Command {
	var catalogs string
	c := &cobra.Command{
		Use:   "lint FILE...",
		Short: "Check SRD files against the rules in docs/srd.md",
		Long: `lint reads SRD files (YAML or JSON; a directory stands for its .yaml,
.yml and .json files) and checks them on their own and against each other;
with --catalogs, tool groups must name tools the server serves. Every problem
is printed as "file:line: field: reason", then a summary line.

Exit status: 0 when every SRD is clean, 1 when there are problems, 2 when a
file or the catalogs cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srds, probs, err := srd.LoadPaths(args)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			opt := srd.LintOptions{}
			if catalogs != "" {
				cat, err := catalog.LoadDir(catalogs)
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				opt.Catalog = cat
			}
			probs = append(probs, srd.Lint(srds, opt)...).Sort()
			return writeLint(cmd.OutOrStdout(), len(srds), probs)
		},
	}
	c.Flags().StringVar(&catalogs, "catalogs", "", "catalog directory the tool groups are checked against")
	return c
}

func writeLint(w io.Writer, n int, probs srd.Problems) error {
	var sb strings.Builder
	for _, p := range probs {
		sb.WriteString(p.String() + "\n")
	}
	if len(probs) == 0 {
		fmt.Fprintf(&sb, "%d SRDs, no problems\n", n)
	} else {
		fmt.Fprintf(&sb, "%d SRDs, %d problems\n", n, len(probs))
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return err
	}
	if len(probs) > 0 {
		return exitError{code: 1}
	}
	return nil
}

func newSRDEvalCmd() *cobra.Command {
	var (
		set, data, catalogs, srdSpec, outDir, rankers, counter string
		k, curveK, retries, resamples, maxM, limit             int
		seed                                                   uint64
		domainWeight, matchFloor                               float64
		hardDomains                                            int
		lead                                                   bool
		domainText                                             string
		asJSON                                                 bool
	)
	c := &cobra.Command{
		Use:   "eval --set NAME|FILE",
		Short: "Measure flat vs routed tool search on labelled queries",
		Long: `eval runs tool search on a labelled set with every ranker, flat and routed
(weighted and hard-filtered), on the same queries, and reports domain
recall@k, tool top-1 and recall@k, MRR, searches until found (the query,
then --retries keyword retries on the tool's name, then select:) and tokens
of the schemas the searches returned, with paired bootstrap intervals.

Sets: ` + strings.Join(retrieval.SetNames(), ", ") + `, or a hard-set YAML file
(see docs/retrieval.md). The public sets are read from --data (default: the
shared data folder found above the working directory); the hard sets use the
catalogs in --catalogs (default DATA/catalogs). --srd picks the routing
descriptions: a directory or file, "none", or (empty) the ones shipped for the
set. With -o, results.json, report.md and the recall@k plots (PNG, SVG) are
written to the directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if set == "" {
				return fmt.Errorf("--set is required (one of %s, or a file)", strings.Join(retrieval.SetNames(), ", "))
			}
			if data == "" {
				data = shareddata.Find()
			}
			src := retrieval.Sources{Data: data, Catalogs: catalogs}
			var cat *catalog.Catalog
			if retrieval.IsCatalogSet(set) {
				var err error
				if cat, err = src.LoadCatalog(); err != nil {
					return err
				}
			}
			s, err := retrieval.LoadNamed(set, src, cat)
			if err != nil {
				return err
			}
			s = s.Head(limit)
			srds, err := retrieval.LoadSRDs(srdSpec, s, cat)
			if err != nil {
				return err
			}
			ropt := routed.DefaultOptions()
			ropt.DomainWeight, ropt.MatchFloor, ropt.HardDomains, ropt.ToolText = domainWeight, matchFloor, hardDomains, routed.ToolText(domainText)
			ropt.Lead = lead
			arms, err := retrieval.Arms(srdSplitList(rankers), search.Factories(), srds, ropt)
			if err != nil {
				return err
			}
			opt := retrieval.DefaultEvalOptions()
			opt.K, opt.CurveK, opt.Retries, opt.Resamples, opt.MaxM, opt.Seed = k, curveK, retries, resamples, maxM, seed
			opt.Domains = srds
			if opt.Counter, err = tokens.ByName(counter); err != nil {
				return err
			}
			res, err := retrieval.Evaluate(s, arms, opt)
			if err != nil {
				return err
			}
			if outDir != "" {
				if err := outguard.Check([]string{set, data, catalogs, srdSpec}, filepath.Join(outDir, "results.json"), filepath.Join(outDir, "report.md")); err != nil {
					return err
				}
				if err := writeEvalDir(outDir, res); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return srdWriteJSON(out, res)
			}
			return retrieval.FormatMarkdown(out, res)
		},
	}
	f := c.Flags()
	f.StringVar(&set, "set", "", "labelled set: a name or a hard-set file")
	f.StringVar(&data, "data", "", "real-data folder (default: ../shared/data found from the working directory)")
	f.StringVar(&catalogs, "catalogs", "", "catalog directory of the hard sets (default DATA/catalogs)")
	f.StringVar(&srdSpec, "srd", "", `SRD directory or file, "none", or empty for the SRDs shipped for the set`)
	f.StringVar(&rankers, "rankers", "bm25,regex,substring", "comma-separated base rankers: "+strings.Join(srdRankerNames(), ", "))
	f.StringVar(&counter, "counter", "o200k_base", "tokenizer for returned schemas: o200k_base, cl100k_base, bytes/N")
	f.IntVar(&k, "k", 5, "results per search")
	f.IntVar(&curveK, "curve-k", 10, "largest k of the recall@k curves")
	f.IntVar(&retries, "retries", 1, "keyword retries after a miss before select:")
	f.IntVar(&resamples, "resamples", 1000, "bootstrap resamples")
	f.IntVar(&maxM, "max-m", 5000, "queries per bootstrap resample (m-out-of-n above this; 0: all)")
	f.Uint64Var(&seed, "seed", 1, "bootstrap seed")
	f.IntVar(&limit, "limit", 0, "evaluate at most this many queries, spread evenly over the set (0: all)")
	def := routed.DefaultOptions()
	f.Float64Var(&domainWeight, "domain-weight", def.DomainWeight, "routed: weight of the domain score in a tool's score, 0..1")
	f.Float64Var(&matchFloor, "match-floor", def.MatchFloor, "routed: least share of the domain boost a tool gets, 0..1")
	f.BoolVar(&lead, "lead", def.Lead, "routed: put the best tool of the best domain first")
	f.IntVar(&hardDomains, "hard-domains", def.HardDomains, "routed-hard: domains kept by the filter")
	f.StringVar(&domainText, "domain-text", string(def.ToolText), "routed: tool text in a domain's document: none, names or full")
	f.BoolVar(&asJSON, "json", false, "print the JSON result instead of Markdown")
	f.StringVarP(&outDir, "out", "o", "", "directory for results.json, report.md and plots")
	return c
}

func srdRankerNames() []string {
	return slices.Sorted(maps.Keys(search.Factories()))
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
