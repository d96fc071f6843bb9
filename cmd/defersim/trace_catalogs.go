package main

import (
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
)

// traceCatalogs returns the catalogs `run --traces PATHS [--catalogs
// GIVEN]` loads as tool index (runner.RunCatalogs over the default
// scenario), and where they come from (runner.CatalogsFrom*): GIVEN when
// set, else the traces' own, else the default scenario's. A trace on
// stdin, which run does not read, is taken for a file without a catalog
// of its own. `trace
// stats` and `trace validate` both resolve tools against these, so they
// name the catalogs a run would.
func traceCatalogs(paths, given []string) ([]runner.Source, string, error) {
	sc, err := scenarios.Default()
	if err != nil {
		return nil, "", err
	}
	ov := runner.Overrides{Catalogs: given}
	for _, p := range paths {
		if p == cliout.Stdio {
			continue
		}
		ov.Traces = append(ov.Traces, p)
	}
	return runner.RunCatalogs(sc, ov, embeddedData())
}

// sourcePaths are the paths the sources were named by.
func sourcePaths(srcs []runner.Source) []string {
	paths := make([]string, len(srcs))
	for i, s := range srcs {
		paths[i] = s.Path
	}
	return paths
}
