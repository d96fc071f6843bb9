package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestValuesDigest pins what recommended_for.model_values fingerprints: a
// model's prices, prompt cache and latency, each of which changes it, and
// not its name nor context window; ModelValueDiffs names exactly the keys
// that changed. The digest of an unchanged preset is fixed: snippets
// written by earlier builds record it, and a change of encoding would make
// every one of them warn.
func TestValuesDigest(t *testing.T) {
	base, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	const sonnet = "8331c58f8bc4" // the snippet golden of internal/recommend records it
	if got := base.ValuesDigest(); got != sonnet {
		t.Errorf("claude-sonnet-4.5's digest %s, want %s: the encoding or the preset changed", got, sonnet)
	}
	tests := []struct {
		name   string
		change func(*sim.Model)
		keys   []string // nil: the same digest
	}{
		{"name", func(m *sim.Model) { m.Name = "other" }, nil},
		{"context window", func(m *sim.Model) { m.ContextWindow++ }, nil},
		{"input price", func(m *sim.Model) { m.Pricing.InputPerMTok++ }, []string{"pricing.input_per_mtok"}},
		{"output price", func(m *sim.Model) { m.Pricing.OutputPerMTok++ }, []string{"pricing.output_per_mtok"}},
		{"cache kind and ttl", func(m *sim.Model) { m.Cache.Kind, m.Cache.TTLSeconds = "none", 1 }, []string{"cache.kind", "cache.ttl_s"}},
		{"write multiplier", func(m *sim.Model) { m.Cache.WriteMultiplier++ }, []string{"cache.write_multiplier"}},
		{"prefill", func(m *sim.Model) { m.Latency.PrefillTPS++ }, []string{"latency.prefill_tps"}},
		{"a request kind's term", func(m *sim.Model) { m.Latency.Kinds.ToolCall = 5 }, []string{"latency.kind_ms.tool_call"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := base
			tc.change(&m)
			if same := m.ValuesDigest() == base.ValuesDigest(); same != (tc.keys == nil) {
				t.Errorf("digest unchanged %t, want %t", same, tc.keys == nil)
			}
			var keys []string
			for _, d := range sim.ModelValueDiffs(base, m) {
				keys = append(keys, d.Key)
			}
			if diff := cmp.Diff(tc.keys, keys); diff != "" {
				t.Errorf("ModelValueDiffs keys (-want +got):\n%s", diff)
			}
		})
	}
}
