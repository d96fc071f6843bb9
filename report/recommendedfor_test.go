package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestRecommendedForModel pins the one comparison of recommended_for's
// model with a run's: a scenario that kept the model's name and changed
// its prices, cache or latency replayed lists priced on other values
// without a warning; with model_values recorded it is another model,
// named by the keys that differ when the record was the preset's own
// values. Another spelling, or identical values under another name, is
// the same model; without model_values only names are compared.
func TestRecommendedForModel(t *testing.T) {
	sonnet, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	gpt, err := presets.Model("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	digest := sonnet.ValuesDigest()
	renamed := sonnet
	renamed.Name = "house-model"
	pricier := sonnet
	pricier.Pricing.InputPerMTok *= 2
	slower := sonnet
	slower.Latency.Kinds.Repeat = 40
	slower.Cache.TTLSeconds = 3600
	tests := []struct {
		name, rec, values string
		run               sim.Model
		preset            string
		want              string // "": the same model; else a prefix of the answer
	}{
		{"the preset", "claude-sonnet-4.5", digest, sonnet, "claude-sonnet-4.5", ""},
		{"its values under another name", "claude-sonnet-4.5", digest, renamed, "", ""},
		{"its values, no preset named", "claude-sonnet-4.5", digest, sonnet, "", ""},
		{"another price", "claude-sonnet-4.5", digest, pricier, "claude-sonnet-4.5", "model claude-sonnet-4.5 with other values (pricing.input_per_mtok, not 3)"},
		{"another cache and latency", "claude-sonnet-4.5", digest, slower, "claude-sonnet-4.5",
			"model claude-sonnet-4.5 with other values (cache.ttl_s, not 300; latency.kind_ms.repeat, not unset)"},
		{"values not the preset's", "claude-sonnet-4.5", "0123456789ab", sonnet, "claude-sonnet-4.5",
			"model claude-sonnet-4.5 with other values (prices, prompt cache or latency other than those of model_values 0123456789ab)"},
		{"another model", "claude-sonnet-4.5", digest, gpt, "gpt-4o", "model gpt-4o"},
		{"no values, same name", "claude-sonnet-4.5", "", pricier, "claude-sonnet-4.5", ""},
		{"no values, renamed preset", "claude-sonnet-4.5", "", renamed, "claude-sonnet-4.5", ""},
		{"no values, renamed and no preset known", "claude-sonnet-4.5", "", renamed, "", "model house-model"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RecommendedForModel(tc.rec, tc.values, tc.run, tc.preset)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
				t.Errorf("RecommendedForModel = %q, want %q", got, tc.want)
			}
		})
	}
}
