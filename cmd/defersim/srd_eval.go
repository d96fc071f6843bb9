package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/embeddings"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/internal/progress"
	"github.com/defersim/defersim/internal/retrieval"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/tokens"
)

func newSRDEvalCmd() *cobra.Command {
	var (
		set, data, catalogs, srdSpec, outDir, rankers, counter string
		modes, split, perQuery, baselines                      string
		embURL, embModel, embCache, embKeyEnv                  string
		k, curveK, retries, resamples, maxM, limit             int
		seed                                                   uint64
		domainWeight, matchFloor                               float64
		hardDomains                                            int
		lead                                                   bool
		domainText                                             string
		format                                                 *cliout.Format
	)
	c := &cobra.Command{
		Use:   "eval --set NAME|FILE",
		Short: "Measure flat vs routed tool search on labelled queries",
		Long: `eval runs tool search on a labelled set with every ranker and mode
(flat; routed, weighted and hard-filtered; fused) on the same tasks, and
reports per need domain, server and tool recall@k and MRR, and per task
tool top-1, task recall@k (every need within k), searches until every need
is found (the query, then --retries keyword retries on the tool's name, then
select:) and tokens of the schemas the searches returned, with paired
bootstrap intervals over tasks.

` + wrapHelp("", "Sets: "+strings.Join(retrieval.SetNames(), ", ")+`, or a hard-set YAML file
(see docs/retrieval.md). The public sets are read from --data (default: the
shared data folder found above the working directory); the hard sets use the
catalogs in --catalogs (default DATA/catalogs). --srd picks the routing
descriptions: a directory or file, "none", or (empty) the ones shipped for the
set. With -o, results.json, report.md and the recall@k plots (PNG, SVG) are
written to the directory.`, helpWidth),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if set == "" {
				return fmt.Errorf("--set is required (one of %s, or a file)", strings.Join(retrieval.SetNames(), ", "))
			}
			if err := srdKnobsRead(cmd, srdSplitList(modes)); err != nil {
				return err
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
			if cat != nil {
				if note := retrieval.UnorderedNote(cat); note != "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "defersim: warning: catalogs: %s (results.json source)\n", note)
				}
			}
			srds, err := retrieval.LoadSRDs(srdSpec, s, cat)
			if err != nil {
				return err
			}
			if s, err = s.Split(split); err != nil {
				return err
			}
			s = s.Head(limit)
			ropt := routed.DefaultOptions()
			ropt.DomainWeight, ropt.MatchFloor, ropt.HardDomains, ropt.ToolText = domainWeight, matchFloor, hardDomains, routed.ToolText(domainText)
			ropt.Lead = lead
			emb, extra, err := embeddingRankers(embURL, embModel, embCache, embKeyEnv, srds)
			if err != nil {
				return err
			}
			for _, r := range srdSplitList(rankers) {
				if slices.Contains(retrieval.EmbeddingRankers(), r) && emb == nil {
					return fmt.Errorf("ranker %s needs an embeddings endpoint: give --embeddings-url and --embeddings-model", r)
				}
			}
			arms, err := retrieval.BuildArms(retrieval.ArmConfig{
				Rankers: srdSplitList(rankers), Modes: srdSplitList(modes),
				Bases: retrieval.BaseRankers(srds, extra), Set: srds, Routed: ropt, Fused: routed.FusedOptions(),
			})
			if err != nil {
				return err
			}
			opt := retrieval.DefaultEvalOptions()
			opt.K, opt.CurveK, opt.Retries, opt.Resamples, opt.MaxM, opt.Seed = k, curveK, retries, resamples, maxM, seed
			opt.Domains, opt.SRDSource = srds, retrieval.SRDSource(srdSpec, srds)
			opt.Baselines = srdSplitList(baselines)
			if emb != nil {
				opt.Prefetch = func(texts []string) error { _, err := emb.Embed(texts); return err }
			}
			if opt.Counter, err = tokens.ByName(counter); err != nil {
				return err
			}
			prog := newReporter(cmd, progress.Config{Label: "srd eval", Verb: "scored", Noun: "queries", One: "query", Total: int64(len(s.Queries))})
			opt.Progress = func(n int) { prog.Update(int64(n), int64(n)) }
			var res *retrieval.Result
			if perQuery != "" {
				err = atomicfile.Write(perQuery, 0o644, func(f *os.File) error {
					opt.PerQuery = f
					res, err = retrieval.Evaluate(s, arms, opt)
					return err
				})
			} else {
				res, err = retrieval.Evaluate(s, arms, opt)
			}
			if err != nil {
				prog.Abort()
				return err
			}
			prog.Finish()
			if emb != nil && emb.Err() != nil {
				return emb.Err()
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
			cliout.WarnDeprecated(cmd, cmd.ErrOrStderr())
			if *format == cliout.JSON {
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
	f.StringVar(&rankers, "rankers", "bm25,bm25f", "comma-separated base rankers: "+strings.Join(srdRankerNames(), ", "))
	f.StringVar(&modes, "modes", strings.Join(retrieval.Modes(), ","), "comma-separated arm modes: "+strings.Join(retrieval.Modes(), ", "))
	f.StringVar(&split, "split", retrieval.SplitAll, "queries to evaluate: all, tune (the tuning part: FNV-1a of the query id ≡ 0 mod 5) or report (the rest)")
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
	f.StringVar(&perQuery, "per-query", "", "write one JSON line per task and arm (each need's ranks, the ranked tools and domains, every search and what it returned) to this file")
	f.StringVar(&embURL, "embeddings-url", "", "OpenAI-compatible embeddings endpoint (base URL or .../embeddings) for the dense and hybrid rankers; none: no network")
	f.StringVar(&embModel, "embeddings-model", "", "embedding model name sent to the endpoint")
	f.StringVar(&embCache, "embeddings-cache", "", "embeddings cache folder (default: the user cache folder's defersim/embeddings)")
	f.StringVar(&embKeyEnv, "embeddings-key-env", "", "name of an environment variable holding a bearer token for the endpoint")
	f.StringVar(&baselines, "baselines", "bm25/flat,bm25/routed", "comma-separated arms every arm is also compared with (paired differences)")
	f.StringVarP(&outDir, "out", "o", "", "directory for results.json, report.md and plots")
	format = cliout.AddFormat(c, cliout.Markdown, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	return c
}

// srdKnobsRead refuses a routing flag given on the command line that no
// arm of modes reads: the routed knobs set the routed and routed-hard
// arms (the fused arm has its own, docs/srd.md), --hard-domains only the
// routed-hard one.
func srdKnobsRead(cmd *cobra.Command, modes []string) error {
	if len(modes) == 0 {
		modes = retrieval.Modes()
	}
	for _, k := range []struct {
		flag    string
		readers []string
	}{
		{"domain-weight", []string{retrieval.ModeRouted, retrieval.ModeRoutedHard}},
		{"match-floor", []string{retrieval.ModeRouted, retrieval.ModeRoutedHard}},
		{"lead", []string{retrieval.ModeRouted, retrieval.ModeRoutedHard}},
		{"domain-text", []string{retrieval.ModeRouted, retrieval.ModeRoutedHard}},
		{"hard-domains", []string{retrieval.ModeRoutedHard}},
	} {
		if !cmd.Flags().Changed(k.flag) || slices.ContainsFunc(modes, func(m string) bool { return slices.Contains(k.readers, m) }) {
			continue
		}
		return fmt.Errorf("--%s sets the %s arms, and --modes %s has none (the fused arm has its own settings, docs/srd.md): it would change nothing",
			k.flag, strings.Join(k.readers, " and "), strings.Join(modes, ","))
	}
	return nil
}

func srdRankerNames() []string {
	return append(slices.Sorted(maps.Keys(retrieval.BaseRankers(nil, nil))), "dense and hybrid (with --embeddings-url)")
}

// embeddingRankers builds the embeddings client and the dense and hybrid
// base rankers when an endpoint is given; without one it returns nothing
// and nothing touches the network.
func embeddingRankers(url, model, cache, keyEnv string, srds *srd.Set) (*embeddings.Client, map[string]sim.RankerFactory, error) {
	if url == "" {
		if model != "" {
			return nil, nil, fmt.Errorf("--embeddings-model needs --embeddings-url")
		}
		return nil, nil, nil
	}
	if cache == "" {
		cache = embeddings.DefaultDir()
	}
	o := embeddings.Options{URL: url, Model: model, CacheDir: cache}
	if keyEnv != "" {
		o.APIKey = os.Getenv(keyEnv)
		if o.APIKey == "" {
			return nil, nil, fmt.Errorf("--embeddings-key-env: %s is not set", keyEnv)
		}
	}
	c, err := embeddings.New(o)
	if err != nil {
		return nil, nil, err
	}
	return c, retrieval.EmbeddingBases(c, srds), nil
}
