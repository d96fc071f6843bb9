package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// withoutPaths is info less the paths it names its inputs by: the
// inputs' paths, the routing descriptions' source (their SHA-256 covers
// their content) and the paths of the catalogs assumption. Two runs of
// the same inputs read at other paths (shards on machines that mount
// the data elsewhere) replay the same: every number of their results is
// equal.
func withoutPaths(info sim.RunInfo) sim.RunInfo {
	info.Inputs = slices.Clone(info.Inputs)
	for i := range info.Inputs {
		info.Inputs[i].Path = ""
	}
	if info.SRD != nil && !info.SRD.Embedded {
		srd := *info.SRD
		srd.Source = ""
		info.SRD = &srd
	}
	info.Assumptions = slices.Clone(info.Assumptions)
	for i, a := range info.Assumptions {
		if a.Name != "catalogs" {
			continue
		}
		for _, from := range []string{CatalogsFromFlag, CatalogsFromScenario, CatalogsFromTraces} {
			if strings.HasPrefix(a.Value, from+": ") {
				info.Assumptions[i].Value = from
			}
		}
	}
	return info
}

// inputsDiff names the first input of a and b, in order, whose content
// differs, paths aside ("" when none does).
func inputsDiff(a, b []sim.Input) string {
	if len(a) != len(b) {
		return fmt.Sprintf("trace and catalog inputs (%s and %d)", nouns.Count(len(a), "file"), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Path, y.Path = "", ""
		if x != y {
			return fmt.Sprintf("trace and catalog inputs (%s %s and %s hold other contents)", a[i].Kind, a[i].Path, b[i].Path)
		}
	}
	return ""
}
