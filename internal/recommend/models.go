package recommend

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// modelsNote says, when the sessions record more than one model, that the
// proposal prices them all as one (model): each model's prices, cache and
// latency would weigh the rules differently. "" for one model or none.
func modelsNote(models map[string]int, model string) string {
	if len(models) < 2 {
		return ""
	}
	names := make([]string, 0, len(models))
	for m := range models {
		names = append(names, m)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(models[b], models[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, m := range names {
		label := fmt.Sprintf("%q", m)
		if m == "" {
			label = "none recorded"
		}
		parts[i] = fmt.Sprintf("%s in %d", label, models[m])
	}
	return fmt.Sprintf("the sessions record %d models (%s sessions): the proposal and its validation price every session as %s; "+
		"to weigh the rules by each model's own prices, cache and latency, recommend each model's sessions apart (--model chooses the preset)",
		len(names), strings.Join(parts, ", "), model)
}
