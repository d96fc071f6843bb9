package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/termsafe"
	"github.com/defersim/defersim/traces"
)

func newTraceStatsCmd() *cobra.Command {
	var (
		top         int
		skipBad     bool
		noCatalogs  bool
		catalogDirs []string
	)
	c := &cobra.Command{
		Use:   "stats FILE... (- for stdin)",
		Short: "Summarise traces: sessions, events, calls, openers, top tools",
		Long: `stats reads trace files (JSONL, plain or gzip) and prints, over all of
them: sessions, events by type, model requests, tool calls (by status),
distinct tools, tool calls and user turns per session, sessions with recorded
usage or timings, openers (the first tool called in each session) and the most
called tools. It also counts the tool calls the server's version in force at
the call does not serve, and the tool names searches return that no server
of the session serves there (what "defersim trace validate" flags), against
the catalogs "run --traces FILE..." loads, and names them: --catalogs when
given, else the traces' own (session_start meta "catalog", or TRACE.catalog
beside them); unless --no-catalogs. When the traces have none (nor a trace
on stdin), stats says that run would stop and why, and counts none.

A malformed line stops the command (exit status 1) unless --skip-bad is given;
"defersim trace validate" lists every problem. A FILE of - is read from
stdin. The JSON output is described in docs/cli.md.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the summary")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if top < 0 {
			return exitError{code: 2, msg: "--top must be 0 or more"}
		}
		if len(catalogDirs) > 0 && noCatalogs {
			return exitError{code: 2, msg: "--catalogs and --no-catalogs exclude each other"}
		}
		in := &cliout.Inputs{Stdin: cmd.InOrStdin()}
		var dirs []string
		var from, runStop string
		var unserved *unservedCounter
		if !noCatalogs {
			// A trace read from stdin has no place beside it to look; one
			// that cannot be opened is reported by the read, as without
			// catalogs.
			files := slices.DeleteFunc(slices.Clone(args), func(a string) bool {
				_, err := os.Stat(a)
				return a == cliout.Stdio || err != nil
			})
			var err error
			dirs, from, unserved, err = statsCatalogs(files, catalogDirs)
			switch {
			case noCatalog(err):
				// run would stop on it: no tool is counted as unserved
				// by catalogs no run would load.
				from, runStop = catalogsFromNone, err.Error()
			case err != nil:
				return exitError{code: 2, msg: err.Error()}
			}
		}
		rep, err := traceStats(in, args, traces.ReadOptions{SkipBad: skipBad}, unserved)
		if err != nil {
			return err
		}
		rep.CatalogsFrom, rep.RunStops = from, runStop
		if unserved != nil {
			rep.Catalogs, rep.UnservedCalls, rep.Unserved = dirs, unserved.total, unserved.tools()
			rep.SearchResults, rep.SearchResultsUnknown = unserved.results, unserved.unknown
		}
		out, err := cliout.Open(*output, cmd.OutOrStdout(), append(slices.Clone(args), catalogDirs...)...)
		if err != nil {
			return err
		}
		if *format == cliout.JSON {
			rep.Stats = rep.Stats.Truncate(top)
			if top > 0 && len(rep.Unserved) > top {
				rep.Unserved = rep.Unserved[:top]
			}
			err = cliout.WriteJSON(out, rep)
		} else {
			err = rep.writeText(out, top)
		}
		if err != nil {
			return err
		}
		return out.Commit()
	}
	f := c.Flags()
	f.IntVar(&top, "top", 10, "number of openers and top tools to list (0 for all)")
	f.BoolVar(&skipBad, "skip-bad", false, "skip malformed lines (counted in the output) instead of stopping")
	f.BoolVar(&noCatalogs, "no-catalogs", false, "do not look tool calls up in catalogs (neither --catalogs nor the traces' own)")
	f.StringSliceVar(&catalogDirs, "catalogs", nil,
		"catalog directories, manifests or files to look tool calls up in instead of the traces' own, as run's --catalogs (repeatable or comma-separated)")
	return c
}

// statsReport is the output of trace stats.
type statsReport struct {
	Files []string `json:"files"`
	// Skipped counts malformed lines skipped under --skip-bad, by kind;
	// FirstSkipped locates the first of each file (traces.MaxSkipRecords)
	// with their reasons (the text names inputnotes.MaxLocations).
	Skipped      int64                 `json:"skipped_lines"`
	SkipReasons  map[traces.Kind]int64 `json:"skip_reasons,omitempty"`
	FirstSkipped []traces.Problem      `json:"first_skipped,omitempty"`
	Stats        traces.Stats          `json:"stats"`
	// Catalogs are the catalogs `run --traces FILE...` loads for these files
	// (traceCatalogs), CatalogsFrom where they come from, worded as run's
	// catalogs assumption (runner.CatalogsFrom*); UnservedCalls counts the tool calls they do not serve at the server
	// version in force at the call (unservedCounter), Unserved the same
	// per tool (most such calls first, cut at --top).
	Catalogs     []string `json:"catalogs,omitempty"`
	CatalogsFrom string   `json:"catalogs_from,omitempty"`
	// RunStops says why `run --traces FILE...` would stop on the catalogs
	// (CatalogsFrom catalogsFromNone: the traces name none).
	RunStops      string             `json:"run_stops,omitempty"`
	UnservedCalls int                `json:"unserved_calls,omitempty"`
	Unserved      []traces.ToolCount `json:"unserved_tools,omitempty"`
	// SearchResults counts the tool names tool_search events return,
	// SearchResultsUnknown those no server of the session serves at its
	// version in force (run.resolution.search_results_unknown of a run).
	SearchResults        int `json:"search_results,omitempty"`
	SearchResultsUnknown int `json:"search_results_unknown,omitempty"`
	// Implausible counts lines with a count or duration beyond any real
	// session's (kept); FirstImplausible locates the first.
	Implausible      int64            `json:"implausible_values,omitempty"`
	FirstImplausible []traces.Problem `json:"first_implausible,omitempty"`
}

// statsCatalogs loads the catalogs a run of the trace files loads
// (traceCatalogs: given, else the files' own, else the default
// scenario's) and returns their paths, where they come from, and a counter
// of the calls they do not serve.
func statsCatalogs(paths, given []string) ([]string, string, *unservedCounter, error) {
	srcs, from, err := traceCatalogs(paths, given, nil)
	if err != nil {
		return nil, "", nil, err
	}
	cat, err := runner.LoadCatalogs(srcs)
	if err != nil {
		return nil, "", nil, fmt.Errorf("load catalogs: %w", err)
	}
	return sourcePaths(srcs), from, newUnservedCounter(cat), nil
}

// traceStats reads every file in turn; a session read before, in the same
// file or an earlier one, is a bad line (traces.SessionSet), as for run.
// unserved, when set, counts the calls the catalogs do not serve.
func traceStats(in *cliout.Inputs, paths []string, opts traces.ReadOptions, unserved *unservedCounter) (statsReport, error) {
	rep := statsReport{}
	var acc traces.StatsAccumulator
	opts.Seen = traces.NewSessionSet()
	opts.Seen.Reread = func(i int) (io.ReadCloser, error) { return reopenTrace(paths[i]) }
	for _, p := range paths {
		rep.Files = append(rep.Files, cliout.Name(p))
		if err := addFileStats(in, &acc, &rep, p, opts, unserved); err != nil {
			return rep, err
		}
	}
	rep.Stats = acc.Stats()
	return rep, nil
}

func addFileStats(in *cliout.Inputs, acc *traces.StatsAccumulator, rep *statsReport, path string, opts traces.ReadOptions, unserved *unservedCounter) error {
	f, name, err := in.Open(path)
	if err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	defer f.Close()
	// Count events as they are read: a session is never held whole.
	opts.OnEvent = func(s *traces.Session, ev *traces.Event, line int) {
		acc.Event(s, ev)
		if unserved != nil {
			unserved.event(s, ev, line)
		}
	}
	r, err := traces.NewReader(f, name, opts)
	if err != nil {
		return traceReadError(err)
	}
	defer r.Close()
	for s, err := range r.Sessions() {
		if err != nil {
			return traceReadError(err)
		}
		acc.Add(s)
		if unserved != nil {
			unserved.done(s)
		}
	}
	c := r.Counts()
	rep.Implausible += c.Implausible
	rep.FirstImplausible = append(rep.FirstImplausible, c.FirstImplausible...)
	rep.Skipped += c.Skipped
	rep.FirstSkipped = append(rep.FirstSkipped, c.FirstSkips...)
	for k, n := range c.SkipReasons {
		if rep.SkipReasons == nil {
			rep.SkipReasons = make(map[traces.Kind]int64)
		}
		rep.SkipReasons[k] += n
	}
	return nil
}

// reopenTrace opens path again to confirm a repeated session, if that
// reads the same bytes: a regular file, not stdin or a pipe.
func reopenTrace(path string) (io.ReadCloser, error) {
	if path != "-" {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return os.Open(path)
		}
	}
	return nil, fmt.Errorf("%s cannot be read twice", path)
}

// traceReadError maps a read error to an exit status: 1 for bad content,
// 2 for a file that cannot be opened.
func traceReadError(err error) error {
	var le *traces.LineError
	if errors.As(err, &le) {
		return exitError{code: 1, msg: err.Error()}
	}
	return exitError{code: 2, msg: err.Error()}
}

func (rep statsReport) writeText(w io.Writer, top int) error {
	if rep.Skipped > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(rep.SkipReasons)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, rep.SkipReasons[k]))
		}
		if _, err := fmt.Fprintf(w, "skipped %s (%s):\n", nouns.Count(rep.Skipped, "malformed line"), strings.Join(parts, ", ")); err != nil {
			return err
		}
		for _, l := range inputnotes.Locations(rep.Skipped, rep.FirstSkipped) {
			if _, err := fmt.Fprintf(w, "  %s\n", l); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	if rep.Implausible > 0 {
		if _, err := fmt.Fprintf(w, "warning: %s %s an implausible count or duration (first: %s)\n\n",
			nouns.Count(rep.Implausible, "line"), nouns.Form(rep.Implausible, "holds", "hold"), rep.FirstImplausible[0]); err != nil {
			return err
		}
	}
	if err := traces.WriteStatsText(w, rep.Stats, top); err != nil {
		return err
	}
	if rep.RunStops != "" {
		_, err := fmt.Fprintf(w, "\ncatalogs: none: tool names NOT checked; `run --traces FILE` would stop: %s\n", rep.RunStops)
		return err
	}
	if len(rep.Catalogs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\ncatalogs: %s: %s\n", rep.CatalogsFrom, termsafe.String(strings.Join(rep.Catalogs, ", "))); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "tool calls not served at their version in force: %d of %d\n", rep.UnservedCalls, rep.Stats.ToolCalls); err != nil {
		return err
	}
	for i, tc := range rep.Unserved {
		if top > 0 && i == top {
			break
		}
		if _, err := fmt.Fprintf(w, "  %s/%s  %d\n", termsafe.String(tc.Server), termsafe.String(tc.Tool), tc.Count); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "tool names returned by searches, not served at their version in force: %d of %d\n",
		rep.SearchResultsUnknown, rep.SearchResults)
	return err
}
