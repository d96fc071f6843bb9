package main

import (
	"cmp"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/validation"
)

func newCatalogStatsCmd() *cobra.Command {
	var (
		counterList string
		top         int
		allVersions bool
		form        string
		outlierAt   int64
	)
	c := &cobra.Command{
		Use:   "stats PATH...",
		Short: "Token cost of catalogs: tools, bytes, tokens, estimator error",
		Long: `stats counts the tokens of MCP catalogs. PATH is a catalog file
(<server>@<version>[+variant].json), a directory of them or a manifest
(catalog.yaml / manifest.json). It counts each server's latest version
across every PATH given (not the latest of each PATH), and every file given
by name; --all-versions counts every version. When older versions were read
and not counted, the total says it covers the latest versions and a
"counted:" line lists, per server, the version counted and the others. A
server version read from two PATHs is counted once (stderr names it); with
other tools in each it is an error. Tokens are counted on each tool's
compact wire form (see docs/catalogs.md); the estimator error is measured
against o200k_base when it is among the counters.

--format csv writes one row per tool counted (server, version, tool, tokens
per counter, bytes, form, outlier) for a spreadsheet; --format json the
figures of the table.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON, cliout.CSV)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the statistics")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		out, err := cliout.Open(*output, cmd.OutOrStdout(), args...)
		if err != nil {
			return err
		}
		defer commitOutput(out, &err)
		counters, err := tokens.ParseList(counterList)
		if err != nil {
			return err
		}
		wf, err := catalog.ParseWireForm(form)
		if err != nil {
			return err
		}
		if top < 0 {
			return fmt.Errorf("--top must be 0 or more")
		}
		if outlierAt < 0 {
			return fmt.Errorf("--outlier-tokens must be 0 (name no tool) or more, not %d", outlierAt)
		}
		var read []*catalog.Server
		named := map[string]bool{}
		for _, p := range args {
			l, err := loadPath(p)
			if err != nil {
				return err
			}
			read = append(read, l.servers...)
			for _, s := range l.servers {
				if l.named {
					named[versionID(s)] = true
				}
			}
		}
		read, skipped, err := catalog.Distinct(read)
		if err != nil {
			return err
		}
		servers, older, unordered := chooseCounted(read, named, allVersions)
		servers = releaseOrder(servers)
		memo := make([]tokens.Counter, len(counters))
		for i, c := range counters {
			memo[i] = tokens.NewMemo(c)
		}
		opt := catalog.StatsOptions{Form: wf, Top: top, NotCounted: older, OutlierTokens: outlierAt}
		if top == 0 {
			opt.Top = -1
		}
		st := catalog.ComputeStatsWith(servers, memo, opt)
		st.InvalidSchemas = catalog.InvalidSchemas(servers, validation.SchemaCheck)
		st.Versionless, st.CountedOnce = catalog.Versionless(read), skipped
		printCatalogWarnings(cmd, st.Warnings)
		printEmptyServers(cmd, st.EmptyServers)
		printFirstWarnings(cmd, skipped, "server version read from more than one PATH with the same tools, counted once",
			"server versions read from more than one PATH with the same tools, counted once")
		printWarnings(cmd, st.InvalidSchemas,
			"tool has an inputSchema that fails its meta-schema (or does not compile): it cannot check calls, and run does not count calls it cannot check as malformed",
			"tools have an inputSchema that fails its meta-schema (or does not compile): it cannot check calls, and run does not count calls it cannot check as malformed")
		printWarnings(cmd, st.Outliers, "tool over --outlier-tokens: one tool can be most of the total", "tools over --outlier-tokens: one tool can be most of the total")
		printVersionless(cmd, st.Versionless)
		printFileChecks(cmd, read)
		printWarnings(cmd, unordered, "series with versions named by content hash: the one counted is the last by spelling (--all-versions counts every one)",
			"series with versions named by content hash: the one counted is the last by spelling (--all-versions counts every one)")
		switch *format {
		case cliout.JSON:
			return cliout.WriteJSON(out, st)
		case cliout.CSV:
			return writeStatsCSV(out, st)
		}
		return catalog.FormatStats(out, st)
	}
	f := c.Flags()
	f.StringVar(&counterList, "counters", "o200k_base,cl100k_base,bytes/3.5", "comma-separated counters: o200k_base, cl100k_base, bytes/N")
	f.IntVar(&top, "top", 10, "number of top tools to list (0 for none)")
	f.BoolVar(&allVersions, "all-versions", false, "for a directory or manifest, count every version, not just the latest (the total then adds up the versions of a server)")
	f.StringVar(&form, "form", string(catalog.FormAnthropic), "bytes counted per tool: anthropic, openai or mcp")
	f.Int64Var(&outlierAt, "outlier-tokens", catalog.DefaultOutlierTokens, "name on stderr (and in JSON outliers) every tool over this many tokens of the ranking counter (0 names none)")
	return c
}

// printCatalogWarnings writes each catalog warning to stderr, then their
// count (nothing with --quiet).
func printCatalogWarnings(cmd *cobra.Command, warnings []string) {
	printWarnings(cmd, warnings, `tool read as {"type":"object"} for want of an input schema`, `tools read as {"type":"object"} for want of an input schema`)
}

// printVersionless writes each server version without a version read
// beside versions of its server (catalog.Versionless), then their count.
func printVersionless(cmd *cobra.Command, found []string) {
	printWarnings(cmd, found, "file without @VERSION read as the oldest version of its server", "files without @VERSION read as the oldest version of their server")
}

// printEmptyServers writes each server version that serves no tools to
// stderr, then their count (nothing with --quiet).
func printEmptyServers(cmd *cobra.Command, empty []string) {
	printWarnings(cmd, empty, "server version serves no tools", "server versions serve no tools")
}

// printWarnings writes each warning to stderr, then how many there are,
// followed by one (for a single warning) or many (nothing with --quiet,
// nor without warnings).
func printWarnings(cmd *cobra.Command, warnings []string, one, many string) {
	if cliout.Quiet(cmd) || len(warnings) == 0 {
		return
	}
	w := cmd.ErrOrStderr()
	for _, m := range warnings {
		fmt.Fprintln(w, "defersim: warning:", termsafe.String(m)) // a file name may hold control characters
	}
	fmt.Fprintf(w, "defersim: warning: %s\n", nouns.CountAs(len(warnings), one, many))
}

// maxListed is how many warnings of one kind printFirstWarnings lists
// before it counts the rest (a directory given twice repeats every file).
const maxListed = 5

// printFirstWarnings is printWarnings listing only the first maxListed,
// then how many more; the count line counts them all.
func printFirstWarnings(cmd *cobra.Command, warnings []string, one, many string) {
	if cliout.Quiet(cmd) || len(warnings) <= maxListed {
		printWarnings(cmd, warnings, one, many)
		return
	}
	w := cmd.ErrOrStderr()
	for _, m := range warnings[:maxListed] {
		fmt.Fprintln(w, "defersim: warning:", termsafe.String(m))
	}
	fmt.Fprintf(w, "defersim: warning: … (%d more)\n", len(warnings)-maxListed)
	fmt.Fprintf(w, "defersim: warning: %s\n", nouns.CountAs(len(warnings), one, many))
}

// pathServers is what loadPath read from one PATH.
type pathServers struct {
	servers []*catalog.Server
	// named is true for a catalog file given by name: its version is
	// counted whatever else is read.
	named bool
}

// loadPath loads PATH: a file (named), a manifest or a directory (every
// version they hold).
func loadPath(path string) (pathServers, error) {
	st, err := os.Stat(path)
	if err != nil {
		return pathServers{}, err
	}
	var cat *catalog.Catalog
	switch {
	case st.IsDir():
		cat, err = catalog.LoadDir(path)
	case catalog.IsManifest(path):
		cat, err = catalog.LoadManifest(path)
	default:
		s, err := catalog.LoadFile(path)
		if err != nil {
			return pathServers{}, err
		}
		return pathServers{servers: []*catalog.Server{s}, named: true}, nil
	}
	if err != nil {
		return pathServers{}, err
	}
	return pathServers{servers: cat.All()}, nil
}

// versionID names one version of one series.
func versionID(s *catalog.Server) string { return s.Key() + "@" + s.Version }

// chooseCounted picks the versions stats counts among every distinct
// version read over all PATHs (in the order read): with allVersions every
// one; otherwise, per series, its latest version across everything given
// (not the latest of each PATH: a directory of old captures beside one of
// new ones would add up two versions of a server), plus any version given
// by name (named). The others are returned as not counted, and unordered
// says which series' "latest" is only the last by spelling.
func chooseCounted(read []*catalog.Server, named map[string]bool, allVersions bool) (counted, notCounted []*catalog.Server, unordered []string) {
	if allVersions {
		return read, nil, nil
	}
	cat := catalog.New(read...)
	for _, k := range cat.ServerNames() {
		if vs := cat.Versions[k]; cat.Unordered(k) {
			unordered = append(unordered, fmt.Sprintf("%s: %d versions named by content hash have no release order: counted is %s, the last by spelling, not the newest",
				k, len(vs), cat.Latest(k).Version))
		}
	}
	for _, s := range read {
		if named[versionID(s)] || cat.Latest(s.Key()) == s {
			counted = append(counted, s)
		} else {
			notCounted = append(notCounted, s)
		}
	}
	return counted, notCounted, unordered
}

// releaseOrder orders the server versions counted as the rows of every
// form: each series where it was first read (a directory reads them by
// key), its versions next to one another by catalog.CompareVersions (0.9.0
// before 0.10.0), whatever order the PATHs named them in.
func releaseOrder(servers []*catalog.Server) []*catalog.Server {
	first := map[string]int{}
	for i, s := range servers {
		if _, ok := first[s.Key()]; !ok {
			first[s.Key()] = i
		}
	}
	out := slices.Clone(servers)
	slices.SortStableFunc(out, func(a, b *catalog.Server) int {
		if c := cmp.Compare(first[a.Key()], first[b.Key()]); c != 0 {
			return c
		}
		return catalog.CompareVersions(a.Version, b.Version)
	})
	return out
}
