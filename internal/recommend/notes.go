package recommend

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// otherModelsNote says, when sessions of models (runner.RecordedModels;
// beyond, runner.OtherModels) were recorded with another model than priced,
// how many and which, that the rules and the validation price and time
// them as priced, and how to recommend them as recorded: "them" for one
// model, "apart" only when there is something to set them apart from, as
// the run's note words it (report.ReplayApart); "" when no session records
// another model.
func otherModelsNote(models []sim.RecordedModel, beyond *sim.OtherModels, priced string) string {
	other, total, list := report.OtherModels(models, beyond)
	if other == 0 {
		return ""
	}
	one, apart := report.ReplayApart(models, beyond, other, total)
	own, them := "a model's own", "its sessions"
	if one {
		own, them = "its own", "them"
	}
	return fmt.Sprintf("%d of %s %s recorded with another model than the one recommend prices with (%s); "+
		"the rules and the validation price and time them as %s (its prices, prompt cache and latency), not as recorded; "+
		"to weigh the rules by %s, recommend %s%s %s", other, nouns.Count(int(total), "session"), wasWere(int(other)), list, priced,
		own, them, apart, report.ReplayAs(models))
}

// notExactNote says how many calls use tools whose schema the import
// marked approximate or missing, and that their token counts — the tools
// column, and the rules and budget priced from it — are approximate ("" when
// every resolved call's schema is exact).
func notExactNote(res *sim.ResolutionInfo, l *Learnt) string {
	n := res.SchemaApproximate + res.SchemaMissing
	if n == 0 {
		return ""
	}
	var classes []string
	if res.SchemaApproximate > 0 {
		classes = append(classes, fmt.Sprintf("approximate (%d)", res.SchemaApproximate))
	}
	if res.SchemaMissing > 0 {
		classes = append(classes, fmt.Sprintf("missing (%d, priced as the stand-in {\"type\":\"object\"})", res.SchemaMissing))
	}
	return fmt.Sprintf("over all %s (%d learnt from, %d held out): %d of %s (%.1f%%) use tools whose schema the import marked %s: %s; "+
		"their tokens, and the decisions, budget and validation priced from them, are approximate — give the exact schemas (trace import --tools) before relying on them",
		nouns.Count(l.Usage.Sessions+l.HeldOut, "session"), l.Usage.Sessions, l.HeldOut, n, nouns.Count(int(res.Calls), "tool call"), 100*float64(n)/float64(max(res.Calls, 1)),
		strings.Join(classes, " or "), report.ResolutionNotExact(res, 5))
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// unreplayedEntriesWarning says the proposal's entries that no catalog
// version the training sessions are replayed on serves, in run's words
// (report.UnreplayedEntryLine), five then how many more.
func unreplayedEntriesWarning(entries []sim.UnreplayedEntry) string {
	var lines []string
	for i, u := range entries {
		if i == 5 {
			lines = append(lines, fmt.Sprintf("… (%d more: JSON entries_unreplayed)", len(entries)-5))
			break
		}
		lines = append(lines, report.UnreplayedEntryLine(u))
	}
	return "the proposal names " + report.UnreplayedEntriesWarning + ": " + strings.Join(lines, "; ") +
		"; a run of these sessions replays the lists without them (docs/scenarios.md#strategies)"
}
