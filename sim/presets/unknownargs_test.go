package presets

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// TestRenamedParameterIsAnUnknownArgument pins issue 16's unknown
// arguments in the replay: a session loads list_issues, the server renames
// per_page to perPage under it, and the model, still seeing the old schema
// (name-keyed warm set), calls again. The recorded arguments were made for
// the new schema; a model seeing the old one sends per_page. The served
// schema does not define it: left open, it ignores the argument (an
// ignored argument, a silent failure, neither valid nor malformed); closed
// (additionalProperties: false), it rejects the call (malformed,
// unknown_property). A fingerprint-keyed set searches again instead.
func TestRenamedParameterIsAnUnknownArgument(t *testing.T) {
	const (
		v1     = `{"name":"list_issues","description":"List issues.","inputSchema":{"type":"object","properties":{"repo":{"type":"string"},"per_page":{"type":"integer"}},"required":["repo"]}}`
		open   = `{"name":"list_issues","description":"List issues.","inputSchema":{"type":"object","properties":{"repo":{"type":"string"},"perPage":{"type":"integer"}},"required":["repo"]}}`
		closed = `{"name":"list_issues","description":"List issues.","inputSchema":{"type":"object","properties":{"repo":{"type":"string"},"perPage":{"type":"integer"}},"required":["repo"],"additionalProperties":false}}`
	)
	cat := testCatalog(t, testServer{"gh", "1", []string{v1}}, testServer{"gh", "2", []string{open}}, testServer{"gh", "3", []string{closed}})
	name := mustStrategy(t, "codex-cli")
	name.Search = sim.Search{Mode: "select"}
	fp := name
	fp.Name, fp.Warm.Key = "codex-fingerprint", "fingerprint"
	e := testEngine(t, cat, []sim.Strategy{name, fp}, nil)
	names := []string{"stale_warm_calls", "stale_valid_calls", "ignored_arguments", "malformed_calls", "malformed_unknown_property", "searches"}
	for _, tc := range []struct {
		to         string
		name, fpky map[string]float64
	}{
		{"2", map[string]float64{"stale_warm_calls": 1, "ignored_arguments": 1, "searches": 1},
			map[string]float64{"searches": 2}},
		{"3", map[string]float64{"stale_warm_calls": 1, "malformed_calls": 1, "malformed_unknown_property": 1, "searches": 1},
			map[string]float64{"searches": 2}},
	} {
		out := e.ReplayNeed(need([]traces.ServerRef{{Name: "gh", Version: "1"}},
			userSay("list them"), callTool("gh", "list_issues", `{"repo":"r","per_page":5}`), answer(),
			upgrade("gh", tc.to),
			userSay("more"), callTool("gh", "list_issues", `{"repo":"r","perPage":50}`), answer()))
		for i, want := range []map[string]float64{tc.name, tc.fpky} {
			full := map[string]float64{}
			for _, n := range names {
				full[n] = want[n]
			}
			if d := cmp.Diff(full, metricsOf(out[i], names...)); d != "" {
				t.Errorf("upgrade to %s, %s (-want +got):\n%s", tc.to, []string{"name", "fingerprint"}[i], d)
			}
		}
	}
}
