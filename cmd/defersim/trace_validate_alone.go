package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// aloneCatalogs returns the catalogs `run SCENARIO` alone loads when the
// traces validated are the scenario's own traces and that run loads other
// catalogs than `run SCENARIO --traces FILE...`, which validate checks
// (the traces' own catalogs displace the scenario's there: runner.
// RunCatalogs); nil otherwise. The two runs replay the same sessions, so
// a user who means the first was told that the second would stop (an
// upgrade to a version only the scenario's catalogs hold) or pass.
func aloneCatalogs(sc *scenarios.Scenario, traces []string) []string {
	if len(sc.Catalogs) == 0 || !sameFiles(sc.Traces, traces) {
		return nil
	}
	with, _, err := runner.RunCatalogs(sc, runner.Overrides{Traces: traces}, embeddedData())
	if err != nil {
		return nil
	}
	alone, from, err := runner.RunCatalogs(sc, runner.Overrides{}, embeddedData())
	if err != nil || from != runner.CatalogsFromScenario || slices.Equal(sourcePaths(with), sourcePaths(alone)) {
		return nil
	}
	return sourcePaths(alone)
}

// sameFiles reports whether a and b name the same set of files.
func sameFiles(a, b []string) bool {
	set := func(paths []string) []string {
		out := make([]string, 0, len(paths))
		for _, p := range paths {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			out = append(out, filepath.Clean(p))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(set(a), set(b))
}

// writeAloneText says that `run SCENARIO` alone loads other catalogs than
// those checked, and how to check that run.
func (p *scenarioPrediction) writeAloneText(w io.Writer) error {
	if len(p.AloneCatalogs) == 0 {
		return nil
	}
	cats := strings.Join(p.AloneCatalogs, ",")
	_, err := fmt.Fprintf(w, "scenario %s: checked as run %s --traces FILE would run it, over the traces' own catalogs; "+
		"run %s alone replays the same traces over its catalogs (%s): to check that run, add --catalogs %s\n",
		p.File, p.File, p.File, strings.Join(p.AloneCatalogs, ", "), cats)
	return err
}
