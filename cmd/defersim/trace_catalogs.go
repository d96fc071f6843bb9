package main

import (
	"errors"

	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// traceCatalogs returns the catalogs `run [SCENARIO] --traces PATHS
// [--catalogs GIVEN]` loads as tool index (runner.RunCatalogs over sc,
// the default scenario when nil), and where they come from
// (runner.CatalogsFrom*): GIVEN when set, else the traces' own, else
// those of a scenario naming catalogs on disk; when there are none, the
// runner.NoCatalogError run stops on. A trace on stdin, which run does
// not read, is taken for a file without a catalog of its own. `trace
// stats` and `trace validate` both resolve tools against these, so they
// name the catalogs a run would, or say that it would stop.
func traceCatalogs(paths, given []string, sc *scenarios.Scenario) ([]runner.Source, string, error) {
	defaulted := sc == nil
	if defaulted {
		var err error
		if sc, err = scenarios.Default(); err != nil {
			return nil, "", err
		}
	}
	ov := runner.Overrides{Catalogs: given}
	for _, p := range paths {
		if p == cliout.Stdio {
			continue
		}
		ov.Traces = append(ov.Traces, p)
	}
	srcs, from, err := runner.RunCatalogs(sc, ov, embeddedData())
	if err == nil && from == runner.CatalogsFromScenario && (defaulted || len(ov.Traces) == 0) {
		// Only stdin, or no file at all: no trace names a catalog, and run
		// would stop as on a file without one. (A scenario file naming
		// catalogs on disk chose those for the traces given.)
		return nil, "", runner.NoCatalogError{Sample: sc.Catalogs}
	}
	return srcs, from, err
}

// catalogsFromNone is the catalogs_from of trace stats and trace validate
// when the traces name no catalog and --catalogs is not given: run would
// stop (runner.NoCatalogError).
const catalogsFromNone = "none"

// noCatalog reports whether err is the runner.NoCatalogError run stops on.
func noCatalog(err error) bool {
	var nc runner.NoCatalogError
	return errors.As(err, &nc)
}

// sourcePaths are the paths the sources were named by.
func sourcePaths(srcs []runner.Source) []string {
	paths := make([]string, len(srcs))
	for i, s := range srcs {
		paths[i] = s.Path
	}
	return paths
}
