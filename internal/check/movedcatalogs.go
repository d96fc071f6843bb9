package check

import (
	"strings"

	"github.com/defersim/defersim/report"
)

// catalogsAssumption is the assumption that names the catalog paths a run
// read (runner: "--catalogs: cat/a, cat/b" or "scenario: …").
const catalogsAssumption = "catalogs"

// catalogsMoved reports whether the two runs read the same catalog files
// by content (the same SHA-256s, as many of each) while naming them
// differently: the catalogs assumption then differs by its paths alone.
func catalogsMoved(base, cur *report.Results) bool {
	return inputDiff(base, cur, "catalog") == "" &&
		assumptionMap(base.Run.Assumptions)[catalogsAssumption] != assumptionMap(cur.Run.Assumptions)[catalogsAssumption]
}

// withCatalogsMoved rewrites the catalogs assumption's line of a
// structural diff as a move when catalogsMoved: the same catalogs read
// from another path are not a change of input, as run.inputs' "moved"
// lines say of each file.
func withCatalogsMoved(lines []string, base, cur *report.Results) []string {
	if !catalogsMoved(base, cur) {
		return lines
	}
	prefix := "run.assumptions[" + catalogsAssumption + "].value: "
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			lines[i] = prefix + "moved (same content): " + rest
		}
	}
	return lines
}
