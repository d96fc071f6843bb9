package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// baseMismatch says how the growth base's traces (as runner.HashTraces
// describes them) and catalog differ from the inputs recorded in the
// results being projected (their run.inputs), "" when they are the same:
// the same trace contents (paths aside, in any order) and the same server
// versions with the same fingerprints.
func baseMismatch(recorded, traces []sim.Input, base *catalog.Catalog) string {
	var recTraces []sim.Input
	var recCatalogs []string
	for _, in := range recorded {
		switch in.Kind {
		case "trace":
			recTraces = append(recTraces, in)
		case "catalog":
			recCatalogs = append(recCatalogs, catalogItem(in.Server, in.Version, in.SHA256))
		}
	}
	var why []string
	if !slices.Equal(sortedHashes(recTraces), sortedHashes(traces)) {
		why = append(why, fmt.Sprintf("its traces are not the ones the results replayed (results: %s; growth base: %s)",
			describeTraces(recTraces), describeTraces(traces)))
	}
	var baseCatalogs []string
	for _, s := range base.All() {
		baseCatalogs = append(baseCatalogs, catalogItem(s.Name, s.Version, s.Fingerprint))
	}
	slices.Sort(recCatalogs)
	slices.Sort(baseCatalogs)
	if !slices.Equal(recCatalogs, baseCatalogs) {
		onlyRec, onlyBase := difference(recCatalogs, baseCatalogs), difference(baseCatalogs, recCatalogs)
		why = append(why, fmt.Sprintf("its catalogs are not the ones the results replayed (%s only in the results%s, %d only in the growth base%s)",
			nouns.Count(len(onlyRec), "server version"), firstOf(onlyRec), len(onlyBase), firstOf(onlyBase)))
	}
	return strings.Join(why, "; ")
}

func catalogItem(server, version, fingerprint string) string {
	return fmt.Sprintf("%s@%s (%.12s)", server, version, fingerprint)
}

func sortedHashes(ins []sim.Input) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.SHA256
	}
	slices.Sort(out)
	return out
}

// describeTraces names up to three trace files with the start of their
// hashes.
func describeTraces(ins []sim.Input) string {
	if len(ins) == 0 {
		return "no trace file"
	}
	var parts []string
	for i, in := range ins {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("… (%d files)", len(ins)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s sha256 %.12s", in.Path, in.SHA256))
	}
	return strings.Join(parts, ", ")
}

// difference lists the items of a (sorted) not in b (sorted).
func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func firstOf(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return ", first " + items[0]
}
