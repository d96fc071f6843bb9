package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/termsafe"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

func newTraceValidateCmd() *cobra.Command {
	var (
		catalogDirs  []string
		noCatalogs   bool
		maxUnres     float64
		scenarioPath string
		strategies   []string
	)
	c := &cobra.Command{
		Use:   "validate FILE... (- for stdin)",
		Short: "Check trace files against trace format v1",
		Long: `validate checks trace files (JSONL, plain or gzip) against trace format v1
(docs/trace-format.md) and prints every problem as "file:line: reason", then a
summary line. With catalogs, each session is resolved as run resolves it,
against the server versions it holds at each line (its session_start, then
each catalog_change): a tool_call of a tool the version in force does not
serve (rejected calls, which run does not replay, included), a call on a
version no catalog holds, a tool_search returning a tool no server of the
session serves there, and a session_start or catalog_change naming a server
version no catalog holds are problems too. The catalogs are those given with
--catalogs, else those "run --traces FILE" loads: the file's own catalog
(named in its session_start meta "catalog", or the TRACE.catalog directory
beside it); unless --no-catalogs. When it has none (nor a trace on stdin),
its tool names are not checked and validate says that run would stop and
why: pass --catalogs. Before the summary line, validate says what run would
do with the traces: the share of tool calls that would not resolve and of
sessions naming a server or version no catalog holds, and "run would stop:
…" when either is above the limit (--max-unresolved, run's default).
With --scenario, the catalogs are those "run SCENARIO --traces FILE" loads
and validate checks the scenario as that run does before replaying: names
that match no tool or server (a stop, or a warning when the catalogs are not
the scenario's own), upgrades to versions no catalog holds (a stop), and
never_defer/always_defer entries no version the sessions replay serves (a
warning); it replays the scenario's upgrades as run does, so a call of a
tool an upgrade's version no longer serves is unresolved, as run counts it
(unknown_tool_after_upgrade), and it says the upgrades that reach no
session; the limit is then the scenario's max_unresolved as run takes it.
When the files are the scenario's own traces and "run SCENARIO" alone
would load the scenario's catalogs instead, validate says so and how to
check that run (add --catalogs).
--strategies replaces the scenario's strategies as run's does (it needs
--scenario). Without --scenario, it says that none of this was checked.

Exit status: 0 when every file is valid, 1 when some file has problems,
2 when some file or catalog cannot be read, or when the files are
well-formed but run would stop on them (a file without a catalog, the
scenario, or calls past the limit): the summary line then begins
"well-formed, but run would stop:" and ends with why.
A FILE of - is read from stdin.
--format csv lists the problems (file, line, kind, reason), then a row of
kind run_would_stop with the reason when run would stop on the traces.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.JSON, cliout.CSV)
	cliout.AddJSONAlias(c, format)
	output := cliout.AddOutput(c, "the report")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		opts := traces.ValidateOptions{}
		if len(catalogDirs) > 0 && noCatalogs {
			return exitError{code: 2, msg: "--catalogs and --no-catalogs exclude each other"}
		}
		if len(strategies) > 0 && scenarioPath == "" {
			return exitError{code: 2, msg: "--strategies needs --scenario: it names the strategies of the scenario run would replay, whose never_defer/always_defer entries validate then checks; without a scenario no strategy's lists are checked"}
		}
		limit, err := givenMaxUnresolved(cmd, maxUnres)
		if err != nil {
			return err
		}
		var sc *scenarios.Scenario
		if scenarioPath != "" {
			if sc, err = scenarios.Load(scenarioPath); err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
		}
		var notes []catalog.Note
		var given *resolverFor
		var givenPaths, givenFrom string
		if len(catalogDirs) > 0 {
			srcs, from, err := traceCatalogs(args, catalogDirs, sc)
			if err == nil {
				given, notes, err = loadResolver(srcs, &opts)
			}
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			givenPaths, givenFrom = strings.Join(sourcePaths(srcs), ", "), from
		}
		rep := validateFiles(&cliout.Inputs{Stdin: cmd.InOrStdin()}, args, opts, given, len(catalogDirs) == 0 && !noCatalogs, sc)
		rep.CatalogNotes, rep.Catalog, rep.CatalogsFrom = notes, givenPaths, givenFrom
		check := rep.checkScenario(sc, scenarioPath, args, catalogDirs, strategies, limit, noCatalogs)
		if limit == nil && check.limit != nil {
			maxUnres = *check.limit // the scenario's max_unresolved, as run takes it
		}
		rep.predict(maxUnres, noCatalogs)
		rep.predictScenario(check)
		rep.setVerdict()
		out, err := cliout.Open(*output, cmd.OutOrStdout(), append(slices.Clone(args), append(catalogDirs, scenarioPath)...)...)
		if err != nil {
			return err
		}
		switch *format {
		case cliout.JSON:
			err = cliout.WriteJSON(out, rep)
		case cliout.CSV:
			err = rep.writeCSV(out)
		default:
			err = rep.writeText(out)
		}
		if err == nil {
			err = out.Commit()
		}
		if err != nil {
			return err
		}
		return rep.exit()
	}
	c.Flags().StringSliceVar(&catalogDirs, "catalogs", nil,
		"catalog directories, manifests or files whose tools tool_calls may name, loaded as run loads them (repeatable or comma-separated)")
	c.Flags().StringVar(&scenarioPath, "scenario", "", "scenario run would replay the traces under: its catalogs, names, upgrades and max_unresolved are checked as run checks them (default: none, and validate says what that leaves unchecked)")
	addStrategiesFlag(c, &strategies, "with --scenario, "+strategiesUsage+": the never_defer/always_defer entries checked are theirs")
	c.Flags().BoolVar(&noCatalogs, "no-catalogs", false, "do not check tool names against the traces' own catalogs: nor say whether run would stop")
	addMaxUnresolved(c, &maxUnres, "share of tool calls that may fail to resolve, and of sessions that may name a server or version no catalog holds, before run would stop (as run's --max-unresolved)")
	return c
}

// resolverFor is a resolver validate resolves calls with, and what its
// catalogs hold (for the prediction of what run does, runPrediction).
type resolverFor struct {
	r    *sim.CallResolver
	held runner.HeldServers
}

// loadResolver loads the catalog sources as run loads them
// (runner.LoadCatalogs) into opts, so that validate resolves each call as
// a run resolves it (sim.CallResolver: against the server version in
// force at the call). It returns the catalogs' notes, every one run warns
// of (catalog.Notes, as run's run.catalog_notes), when there are any.
func loadResolver(srcs []runner.Source, opts *traces.ValidateOptions) (*resolverFor, []catalog.Note, error) {
	cat, err := runner.LoadCatalogs(srcs)
	if err != nil {
		return nil, nil, fmt.Errorf("load catalogs: %w", err)
	}
	r := &resolverFor{r: sim.NewCallResolver(cat), held: runner.CatalogVersions(cat)}
	opts.Tools, opts.Resolver = cat, r.r
	return r, catalog.Notes(cat.All(), validation.SchemaCheck), nil
}

// validateReport is the outcome of validating several files.
type validateReport struct {
	// Valid says every file is well-formed and resolves (no problem);
	// Verdict says that and what run would do (verdictValid,
	// verdictInvalid, verdictRunWouldStop), as the summary line does.
	Valid    bool             `json:"valid"`
	Verdict  string           `json:"verdict"`
	Problems int              `json:"problems"`
	Files    []validateResult `json:"files"`
	// CatalogNotes are the notes of the --catalogs, every one run warns
	// of (catalog.Notes; validateNoteKinds): warnings, not problems of the
	// traces.
	CatalogNotes []catalog.Note `json:"catalog_notes,omitempty"`
	// Catalog and CatalogsFrom name the --catalogs every file was checked
	// against (absent without it: each file names its own, validateResult).
	Catalog      string `json:"catalog,omitempty"`
	CatalogsFrom string `json:"catalogs_from,omitempty"`
	// Run says what run would do with the traces (under --no-catalogs,
	// only that tool names were not checked).
	Run *runPrediction `json:"run,omitempty"`
	// Scenario says what run would say of the scenario's own entries
	// (--scenario), or what was not checked and why.
	Scenario *scenarioPrediction `json:"scenario"`

	// resolvers are the resolvers the files were checked with, each once.
	// resolved is, with --scenario, the resolution `run SCENARIO --traces
	// FILE...` counts, upgrades replayed (checkScenario), which the
	// prediction takes instead of theirs; resolveErr is the error that run
	// would stop on while reading the traces instead.
	resolvers  []*resolverFor
	resolved   *sim.Resolved
	resolveErr error
}

// validateResult is the outcome for one file.
type validateResult struct {
	File string `json:"file"`
	// Catalog is the catalog the file's tools were checked against when
	// it is the one run would load for it rather than --catalogs: its own
	// directory (traces.CatalogFor), or the default scenario's catalogs
	// when it has none; CatalogsFrom says which (runner.CatalogsFrom*).
	Catalog      string `json:"catalog,omitempty"`
	CatalogsFrom string `json:"catalogs_from,omitempty"`
	// CatalogNotes is validateReport.CatalogNotes of that catalog.
	CatalogNotes []catalog.Note `json:"catalog_notes,omitempty"`
	Valid        bool           `json:"valid"`
	Error        string         `json:"error,omitempty"`
	// ToolNamesChecked says the file was read and its tool names resolved
	// against catalogs (--catalogs, or those run loads for it): false
	// under --no-catalogs, when it cannot be read, and when it has no
	// catalog (run would stop on it: stop).
	ToolNamesChecked bool             `json:"tool_names_checked"`
	Counts           traces.Counts    `json:"counts"`
	Problems         []traces.Problem `json:"problems"`
	// joint: Catalog holds the catalogs of all the files validated
	// together, as run loads them for all its traces.
	joint bool
	// stop says why run would stop on the file's catalogs: it names none
	// (CatalogsFrom catalogsFromNone, runner.NoCatalogError).
	stop string
}

// validateFiles validates each file ("-" is stdin), with given the
// resolver of --catalogs (nil: none); own makes each file's tools checked
// against the catalogs `run [SCENARIO] --traces FILE` loads (runCatalog;
// sc nil: the default scenario).
func validateFiles(in *cliout.Inputs, paths []string, opts traces.ValidateOptions, given *resolverFor, own bool, sc *scenarios.Scenario) validateReport {
	rep := validateReport{Valid: true, Files: []validateResult{}}
	if given != nil {
		rep.resolvers = append(rep.resolvers, given)
	}
	// A session repeated across the files is a problem, as for run.
	var opened []string
	opts.Seen = traces.NewSessionSet()
	opts.Seen.Reread = func(i int) (io.ReadCloser, error) { return reopenTrace(opened[i]) }
	// run --traces A,B loads the catalogs of all its files together
	// (runner.RunCatalogs over every path): several files are checked
	// against those, as run resolves their calls. When they cannot be
	// loaded together, each file is checked alone, so that the file whose
	// catalog fails is named.
	var joint *fileCatalog
	var jointOpts traces.ValidateOptions
	if own && len(paths) > 1 {
		if jo, jc, err := runCatalog(paths, opts, own, sc); err == nil {
			jc.joint = true
			joint, jointOpts = &jc, jo
			rep.resolvers = append(rep.resolvers, jc.resolver)
		}
	}
	for i, p := range paths {
		var fopts traces.ValidateOptions
		var cr fileCatalog
		var err error
		if joint != nil {
			fopts, cr = jointOpts, *joint
			if i > 0 {
				cr.notes = nil // said once, with the first file
			}
		} else if fopts, cr, err = runCatalog([]string{p}, opts, own, sc); cr.resolver != nil {
			rep.resolvers = append(rep.resolvers, cr.resolver)
		}
		catErr := err != nil
		var probs []traces.Problem
		var counts traces.Counts
		name := cliout.Name(p)
		if err == nil {
			var f io.ReadCloser
			if f, name, err = in.Open(p); err == nil {
				opened = append(opened, p)
				probs, counts, err = traces.ValidateReader(f, name, fopts)
				f.Close()
			}
		}
		r := validateResult{File: name, Catalog: cr.dir, CatalogsFrom: cr.from, CatalogNotes: cr.notes, Counts: counts, Problems: probs, joint: cr.joint, stop: cr.stop}
		if r.Problems == nil {
			r.Problems = []traces.Problem{}
		}
		if err != nil {
			r.Error = err.Error()
			// The file is named once, by writeText; the error of its catalog
			// keeps what it says of the catalog.
			var pe *fs.PathError
			switch {
			case errors.As(err, &pe) && (!catErr || pe.Path == p):
				r.Error = pe.Op + ": " + pe.Err.Error()
			case catErr:
				r.Error = strings.TrimPrefix(r.Error, p+": ")
			}
		}
		r.Valid = err == nil && len(probs) == 0
		r.ToolNamesChecked = err == nil && fopts.Resolver != nil
		rep.Valid = rep.Valid && r.Valid
		rep.Problems += len(probs)
		rep.Files = append(rep.Files, r)
	}
	return rep
}

// fileCatalog is the catalog a file was checked against (runCatalog).
type fileCatalog struct {
	dir, from string
	notes     []catalog.Note
	resolver  *resolverFor
	joint     bool   // loaded for every file together
	stop      string // run would stop on the file's catalogs: why
}

// runCatalog returns opts with, when own is set, the catalogs `run
// [SCENARIO] --traces PATHS` loads as tool index (runner.RunCatalogs, with
// sc, or the default scenario when nil): the files' own catalogs, or the
// scenario's when none has one and it names catalogs on disk. A trace on stdin, which run does not read, is taken for a file
// without a catalog of its own.
func runCatalog(paths []string, opts traces.ValidateOptions, own bool, sc *scenarios.Scenario) (traces.ValidateOptions, fileCatalog, error) {
	if !own {
		return opts, fileCatalog{}, nil
	}
	srcs, from, err := traceCatalogs(paths, nil, sc)
	if noCatalog(err) {
		// run would stop on it (validateReport.predict): the tool names are
		// not checked, against catalogs no run would load.
		return opts, fileCatalog{from: catalogsFromNone, stop: err.Error()}, nil
	}
	if err != nil {
		return opts, fileCatalog{}, err
	}
	r, notes, err := loadResolver(srcs, &opts)
	if err != nil {
		return opts, fileCatalog{}, err
	}
	return opts, fileCatalog{dir: strings.Join(sourcePaths(srcs), ", "), from: from, notes: notes, resolver: r}, nil
}

// validateNoteKinds says, for every kind of catalog note run warns of
// (catalog.NoteKinds), what it means for run: validate warns of each
// (TestValidateWarnsOfEveryCatalogNoteKind pins that no kind lacks its
// words). The traces are not at fault, so none fails validation.
var validateNoteKinds = map[string]string{
	catalog.NoteSchemaMissing:   "run checks their calls against that schema, which any arguments pass, so none of their calls counts as malformed",
	catalog.NoteSchemaNull:      "run checks their calls against that schema, which any arguments pass, so none of their calls counts as malformed",
	catalog.NoteNoTools:         "a session naming one is offered none of its tools",
	catalog.NoteSchemaInvalid:   "run counts the calls they cannot check neither valid nor malformed",
	catalog.NoteBuildVariant:    "run replays each as a server of its own",
	catalog.NoteMetaContradicts: "run replays each catalog as its file lists it",
	catalog.NoteToolNameUnusual: "run counts their names as written",
	catalog.NoteVersionsMixed:   "run takes the last in that order as the latest",
}

// writeCatalogNotes writes each note as a warning line after prefix,
// naming up to five of its items.
func writeCatalogNotes(w io.Writer, prefix string, notes []catalog.Note) error {
	for _, n := range notes {
		items := n.Items[:min(len(n.Items), 5)]
		more := ""
		if k := n.Count - len(items); k > 0 {
			more = fmt.Sprintf(", … (%d more: defersim catalog stats --all-versions lists them)", k)
		}
		if _, err := fmt.Fprintf(w, "%swarning: %s: %s%s; %s\n",
			prefix, n.Text(), termsafe.String(strings.Join(items, ", ")), more, validateNoteKinds[n.Kind]); err != nil {
			return err
		}
	}
	return nil
}

func (rep validateReport) writeText(w io.Writer) error {
	var lines, events, sessions int64
	unreadable := 0
	if err := writeCatalogNotes(w, "catalogs: ", rep.CatalogNotes); err != nil {
		return err
	}
	for _, f := range rep.Files {
		if f.Error != "" {
			unreadable++
			if _, err := fmt.Fprintf(w, "%s: %s\n", f.File, f.Error); err != nil {
				return err
			}
		}
		if f.Catalog != "" || f.stop != "" {
			if err := writeCheckedAgainst(w, f); err != nil {
				return err
			}
			if err := writeCatalogNotes(w, f.File+": its catalog: ", f.CatalogNotes); err != nil {
				return err
			}
		}
		for _, p := range f.Problems {
			if _, err := fmt.Fprintln(w, p.String()); err != nil {
				return err
			}
		}
		// A file of another format has a problem per line: say again, after
		// them, where the one that says what to do is.
		if n := traces.AdvisedAt(f.Problems); n > 0 && len(f.Problems) > 1 && f.Counts.Events == 0 {
			if _, err := fmt.Fprintf(w, "%s: not a trace (%s, no event): line %d says what the file looks like and what to do\n",
				f.File, nouns.Count(len(f.Problems), "problem"), n); err != nil {
				return err
			}
		}
		if err := writeNoUser(w, f); err != nil {
			return err
		}
		lines += f.Counts.Lines
		events += f.Counts.Events
		sessions += f.Counts.Sessions
	}
	if err := rep.Scenario.writeText(w); err != nil {
		return err
	}
	if err := rep.Run.writeText(w); err != nil {
		return err
	}
	status := "valid"
	switch rep.Verdict {
	case verdictInvalid:
		status = "INVALID"
	case verdictRunWouldStop:
		status = "well-formed, but run would stop"
	}
	if _, err := fmt.Fprintf(w, "%s: %s (%d unreadable), %s, %s, %s, %s",
		status, nouns.Count(len(rep.Files), "file"), unreadable, nouns.Count(lines, "line"), nouns.Count(events, "event"),
		nouns.Count(sessions, "session"), nouns.Count(rep.Problems, "problem")); err != nil {
		return err
	}
	if rep.Verdict == verdictRunWouldStop {
		reason, _, _ := strings.Cut(rep.Run.Reason, "\n")
		if _, err := fmt.Fprintf(w, "; run would stop: %s", termsafe.String(reason)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeNoUser warns of the file's sessions without a user message
// (traces.Counts.NoUser), naming the first: not a problem of the format,
// but their first reply, which a run measures from the first user
// message, is not one.
func writeNoUser(w io.Writer, f validateResult) error {
	if f.Counts.NoUser == 0 || len(f.Counts.FirstNoUser) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "%s: warning: %d of %s %s no user message (first at line %d: %s): a run measures first reply from a session's first user message (docs/engine.md §5), "+
		"so their first-reply latency is not one; add the user messages the export left out, or leave those sessions out\n",
		f.File, f.Counts.NoUser, nouns.Count(f.Counts.Sessions, "session"), nouns.Form(f.Counts.NoUser, "has", "have"), f.Counts.FirstNoUser[0].Line, f.Counts.FirstNoUser[0].Reason)
	return err
}

// writeCSV lists every problem, and every unreadable file, one per row,
// then, when run would stop on the traces, a row of kind run_would_stop
// with run's reason (JSON run.stops and run.reason): a file of rows alone
// said nothing of it, so a CSV of well-formed traces run would stop on was
// its header alone, as a valid one's.
func (rep validateReport) writeCSV(w io.Writer) error {
	var rows [][]string
	for _, f := range rep.Files {
		if f.Error != "" {
			rows = append(rows, []string{f.File, "", "unreadable", f.Error})
		}
		for _, p := range f.Problems {
			rows = append(rows, []string{p.File, strconv.Itoa(p.Line), string(p.Kind), p.Reason})
		}
	}
	if rep.Run != nil && rep.Run.Stops {
		rows = append(rows, []string{"", "", verdictRunWouldStop, rep.Run.Reason})
	}
	return cliout.WriteCSV(w, []string{"file", "line", "kind", "reason"}, rows)
}
