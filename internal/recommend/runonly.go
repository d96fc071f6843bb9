package recommend

import (
	"fmt"
	"slices"
	"strings"
)

// RunOnly is what a scenario sets that a run of it applies and recommend
// does not: its rules take every server on the versions the traces name,
// with no permissions or routing descriptions, and its validation replays
// them so. (Its local servers recommend applies: Config.LocalServers.)
type RunOnly struct {
	// Scenario names the scenario ("default" when recommend read the
	// embedded one).
	Scenario string
	// Keys are the settings, as the scenario writes them
	// ("servers.github.upgrades", "permissions", "srd").
	Keys []string
	// DefaultLocal are the local servers of the embedded default scenario
	// when recommend read it for want of --scenario: a run without a
	// scenario applies them, recommend does not (the snippet goes into
	// the user's own scenario), and a note names those the catalogs hold.
	DefaultLocal []string
}

// warning names the settings of r, and what they mean for the validation's
// figures; "" when there are none.
func (r RunOnly) warning() string {
	if len(r.Keys) == 0 {
		return ""
	}
	keys := slices.Sorted(slices.Values(r.Keys))
	if len(keys) > 5 {
		keys = append(keys[:5], fmt.Sprintf("… (%d more)", len(keys)-5))
	}
	return fmt.Sprintf("scenario %s sets %s, which a run of it applies and recommend does not: its rules take every server "+
		"on the versions the traces name, with no permissions or routing descriptions, and its validation replays them so; "+
		"a run of that scenario with the snippet gives other figures than the validation's: compare the proposal there by run, "+
		"or recommend with a scenario without them", r.Scenario, strings.Join(keys, ", "))
}
