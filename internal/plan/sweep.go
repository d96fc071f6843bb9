package plan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// SweepConfig is one sweep.
type SweepConfig struct {
	Scenario  *scenarios.Scenario
	Spec      SweepSpec
	Overrides runner.Overrides
	Embedded  fs.FS
	// Dir receives DIR/<param>=<value>/results.json per value and the plots.
	Dir       string
	Metrics   []string
	Bootstrap int
	// BootstrapMemory limits each run's bootstrap (runner.Config's).
	BootstrapMemory int64
	Workers         int
	// Registry names the components strategies may use (nil: the
	// runner's default), to tell which strategies read a swept key.
	Registry *sim.Registry
	// Progress, when set, is called after each value with the number
	// replayed so far.
	Progress func(done int)
	// Validator checks the stale-schema calls of every point's replay
	// (runner.Config.Validator; nil = the JSON Schema validator).
	Validator sim.ArgValidator
	// perPoint replays a strategy.* sweep once per value, as other
	// parameters are (the tests compare the two).
	perPoint bool
}

// SweepResult is what a sweep produced.
type SweepResult struct {
	Points []Point
	// Plots are the PNG paths of the sweep plots.
	Plots []string
	// Rows flatten the points, one per point and strategy; a row's
	// Unchanged says its outcomes are the previous point's.
	Rows []SeriesRow
	// Unchanged lists the strategies the swept values left identical at
	// every value, with why where that can be derived.
	Unchanged []Unchanged
	// AppliesTo names the strategies the swept key applies to: they read
	// it and, for a strategy.* key, took one of its values.
	AppliesTo []string
	// Constant lists the others, with why: a strategy.* value is not set
	// on them (they keep their own), and no key changes their outcomes.
	Constant []Unchanged
	// Notes say which strategies do not read the swept key, or could not
	// take a value, and how many tool calls the replays left out as
	// unresolved (--allow-unresolved).
	Notes []string
	// Inputs are the input problems of the traces and catalogs every
	// point replayed (the last point's).
	Inputs inputnotes.Notes
}

// Point is one replay of a sweep or growth series.
type Point struct {
	X           float64         `json:"x"`
	Label       string          `json:"label"`
	ResultsPath string          `json:"results"`
	Notes       []string        `json:"notes,omitempty"`
	Results     *report.Results `json:"-"`
	// Inputs are the input problems of the point's replay.
	Inputs inputnotes.Notes `json:"-"`
	// Fills counts what the replay's traces record and what fill-in
	// parameters stood in for (fillReason).
	Fills Fills `json:"-"`
	// Skipped counts the sessions the point failed to replay (its
	// results' run.counts.sessions_skipped); Failures are the sessions
	// with the first lines of their errors, as `defersim run` lists them
	// (SkippedSessions).
	Skipped  int64     `json:"sessions_skipped,omitempty"`
	Failures []Failure `json:"-"`
}

// Sweep replays the scenario at each value and writes each results file,
// then the sweep plot of every metric. A strategy.* sweep reads the
// traces once for every value (runner.RunShared); its results are those
// of one replay per value. A strategy.* key that no strategy
// of the run reads, or that no strategy can take at any value, is an
// error; the strategies whose outcomes no value changes are flagged, with
// the reason where it can be derived.
func Sweep(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	if err := cfg.Spec.Check(); err != nil {
		return nil, err
	}
	// Select the strategies first, so that presets named on the command
	// line get the swept value too.
	base := *cfg.Scenario
	base.Strategies = append([]sim.Strategy(nil), cfg.Scenario.Strategies...)
	ov := cfg.Overrides
	if len(ov.Strategies) > 0 {
		if err := base.SelectStrategies(ov.Strategies); err != nil {
			return nil, err
		}
		ov.Strategies = nil
	}
	reg := cfg.Registry
	if reg == nil {
		var err error
		if reg, err = runner.DefaultRegistry(); err != nil {
			return nil, err
		}
	}
	notRead, readers := notReading(base.Strategies, cfg.Spec.Param, reg)
	if why := modelParamUnread(&base, cfg.Spec.Param, reg); why != "" {
		return nil, fmt.Errorf("sweep %s changes nothing at any value: %s", cfg.Spec.Param, why)
	}
	values := cfg.Spec.Values()
	scs := make([]*scenarios.Scenario, len(values))
	type refusal struct{ strategy, why string }
	refused := make([][]refusal, len(values))
	set := map[string]bool{}      // strategies the value was set on at some point
	notSet := map[string]string{} // why, for those it never was
	for i, v := range values {
		sc, skipped, err := applyValue(&base, cfg.Spec.Param, v, notRead)
		if err != nil {
			return nil, err
		}
		scs[i] = sc
		for _, st := range base.Strategies {
			if why, ok := skipped[st.Name]; ok {
				refused[i] = append(refused[i], refusal{st.Name, why})
				if _, seen := notSet[st.Name]; !seen {
					notSet[st.Name] = fmt.Sprintf("%v: %s", v, why)
				}
			} else if notRead[st.Name] == "" {
				set[st.Name] = true
			}
		}
	}
	// A point notes the strategies that took other values but not this
	// one; those that never took one (or do not read the key) are noted
	// once, for the whole sweep, below.
	pointNotes := make([][]string, len(values))
	for i, rs := range refused {
		for _, r := range rs {
			if set[r.strategy] && notRead[r.strategy] == "" {
				pointNotes[i] = append(pointNotes[i], fmt.Sprintf("%s not set on %s: %s", cfg.Spec.Param, r.strategy, r.why))
			}
		}
	}
	for i, n := range zeroNotes(cfg.Spec.Param, values, reg) {
		pointNotes[i] = append(pointNotes[i], n)
	}
	res := &SweepResult{}
	if strings.HasPrefix(cfg.Spec.Param, "strategy.") {
		valid := 0
		for _, st := range base.Strategies {
			switch {
			case notRead[st.Name] != "":
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s (read by %s)", st.Name, notRead[st.Name], strings.Join(readers, ", ")))
			case !set[st.Name]:
				res.Notes = append(res.Notes, fmt.Sprintf("%s: %s is not set at any value (first refusal at %s)", st.Name, cfg.Spec.Param, notSet[st.Name]))
			default:
				valid++
				delete(notSet, st.Name)
			}
		}
		if valid == 0 {
			return nil, fmt.Errorf("sweep %s is valid for no strategy of this run:\n  %s", cfg.Spec.Param, strings.Join(res.Notes, "\n  "))
		}
		// A value that no strategy reading the key can take would be a
		// point of strategies all at their own values, labelled with it.
		for i, v := range values {
			no := map[string]bool{}
			for _, r := range refused[i] {
				no[r.strategy] = true
			}
			took := false
			for _, st := range base.Strategies {
				took = took || (!no[st.Name] && notRead[st.Name] == "")
			}
			if !took {
				var why []string
				for _, r := range refused[i] {
					why = append(why, r.strategy+": "+r.why)
				}
				return nil, fmt.Errorf("sweep %s = %v is valid for no strategy of this run that reads it:\n  %s", cfg.Spec.Param, v, strings.Join(why, "\n  "))
			}
		}
	}
	strategyKey := strings.HasPrefix(cfg.Spec.Param, "strategy.")
	for _, st := range base.Strategies {
		switch {
		case notRead[st.Name] != "":
			res.Constant = append(res.Constant, Unchanged{st.Name, notRead[st.Name]})
		case strategyKey && !set[st.Name]:
			res.Constant = append(res.Constant, Unchanged{st.Name, "not set at any value: " + notSet[st.Name]})
		default:
			res.AppliesTo = append(res.AppliesTo, st.Name)
		}
	}
	var traces []runner.Source // every point replays the same traces
	dirs := map[string]string{}
	rcs := make([]runner.Config, len(values))
	labels := make([]string, len(values))
	for i, v := range values {
		rc, err := runner.FromScenario(scs[i], ov, cfg.Embedded)
		if err != nil {
			return nil, err
		}
		if traces == nil {
			var release func()
			if traces, release, err = runner.Rereadable(rc.Traces); err != nil {
				return nil, err
			}
			defer release()
		}
		rc.Traces = traces
		rc.Bootstrap, rc.Workers, rc.BootstrapMemory = cfg.Bootstrap, cfg.Workers, cfg.BootstrapMemory
		rc.Validator = cfg.Validator
		rc.SweepPoint = &sim.SweepPoint{Param: cfg.Spec.Param, Value: v}
		label := rc.SweepPoint.String()
		name := fileSafe(label)
		if prev, ok := dirs[name]; ok {
			return nil, fmt.Errorf("sweep %s: values %s and %s would share the directory %s", cfg.Spec.Param, prev, label, name)
		}
		dirs[name] = label
		rcs[i], labels[i] = rc, label
	}
	add := func(i int, pt Point) {
		pt.Notes = pointNotes[i]
		res.Points = append(res.Points, pt)
		if cfg.Progress != nil {
			cfg.Progress(len(res.Points))
		}
	}
	dir := func(i int) string { return filepath.Join(cfg.Dir, fileSafe(labels[i])) }
	var err error
	if strings.HasPrefix(cfg.Spec.Param, "strategy.") && !cfg.perPoint {
		// Every point replays the same traces with the same inputs but
		// its strategies: one replay serves them all (runner.RunShared).
		err = runner.RunShared(ctx, rcs, func(i int, out *runner.Output) error {
			pt, err := writePoint(out, dir(i), values[i], labels[i])
			if err == nil {
				add(i, pt)
			}
			return err
		})
		var re *runner.RunError
		if errors.As(err, &re) {
			err = fmt.Errorf("%s: %w", labels[re.Index], re.Err)
		}
	} else {
		for i := range rcs {
			var pt Point
			if pt, err = runPoint(ctx, rcs[i], dir(i), values[i], labels[i]); err != nil {
				break
			}
			add(i, pt)
		}
	}
	if err != nil {
		return nil, err
	}
	if res.Plots, err = plotPoints(cfg.Spec.Param, res.Points, cfg.Metrics, cfg.Dir); err != nil {
		return nil, err
	}
	if len(res.Points) > 0 {
		last := res.Points[len(res.Points)-1]
		res.Inputs = last.Inputs
		// Every point replays the same traces against the same catalogs:
		// calls --allow-unresolved let through are left out of every one.
		if w := report.UnresolvedPastLimit(last.Results); w != "" {
			if tools := report.UnresolvedTools(last.Results, 5); tools != "" {
				w = fmt.Sprintf("%s, so no point counts what they cost: %s", w, tools)
			}
			res.Notes = append(res.Notes, w)
		}
		// The sessions every point priced as a model they do not record.
		if f := report.ModelFinding(&last.Results.Run); f != "" {
			res.Notes = append(res.Notes, f)
		}
	}
	res.Rows = Rows(res.Points)
	markRepeats(res.Rows, res.Points)
	constant := map[string]bool{}
	for _, c := range res.Constant {
		constant[c.Strategy] = true
	}
	for i := range res.Rows {
		res.Rows[i].Constant = constant[res.Rows[i].Strategy]
	}
	res.Unchanged = unchangedStrategies(res.Points, cfg.Spec, notRead, notSet, windowTriggers(base.Strategies, cfg.Spec.Param, reg))
	return res, nil
}

// runPoint replays rc and writes its results.json into dir.
func runPoint(ctx context.Context, rc runner.Config, dir string, x float64, label string) (Point, error) {
	out, err := runner.Run(ctx, rc)
	if err != nil {
		return Point{}, fmt.Errorf("%s: %w", label, err)
	}
	return writePoint(out, dir, x, label)
}

// writePoint writes a point's results.json into dir.
func writePoint(out *runner.Output, dir string, x float64, label string) (Point, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Point{}, err
	}
	path := filepath.Join(dir, "results.json")
	if err := report.WriteResults(path, out.Results); err != nil {
		return Point{}, err
	}
	pt := Point{X: x, Label: label, ResultsPath: path, Results: out.Results, Inputs: out.InputNotes(),
		Skipped: out.Info.Counts.SessionsSkipped}
	if out.Run != nil {
		pt.Failures = failuresOf(out.Run.FailedSessions, out.Run.Failures)
		if out.Run.State != nil {
			pt.Fills = fillsOf(out.Run.State)
		}
	}
	return pt, nil
}

// plotPoints draws one sweep plot per metric and returns the PNG paths.
func plotPoints(param string, points []Point, metrics []string, dir string) ([]string, error) {
	xs := make([]float64, len(points))
	rs := make([]*report.Results, len(points))
	for i, p := range points {
		xs[i], rs[i] = p.X, p.Results
	}
	var out []string
	for _, m := range metrics {
		if err := report.SweepPlot(param, xs, rs, m, dir); err != nil {
			return nil, fmt.Errorf("sweep plot %s: %w", m, err)
		}
		out = append(out, filepath.Join(dir, report.SweepPlotName(param, m)+".png"))
	}
	return out, nil
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-', r == '=', r == '+':
			return r
		}
		return '-'
	}, s)
}
