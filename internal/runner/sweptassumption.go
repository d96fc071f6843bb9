package runner

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
)

// statedAs names the assumption that states a yaml key of the model or
// params under another name than the key less its "model." or "params."
// prefix.
var statedAs = map[string]string{
	"model.name":                    "model",
	"model.pricing.input_per_mtok":  "price.input_per_mtok",
	"model.pricing.output_per_mtok": "price.output_per_mtok",
	"model.cache.lookback":          "cache.lookback_blocks", // the entry's name before cache keys were named after their yaml key
}

// assumptionOf names the assumption that states key, a dotted yaml key of
// the model or params ("params.cache_warm_start", "model.latency.prefill_tps");
// "" for any other key (a strategy's parameters are stated under
// strategies[].parameters, not as assumptions).
func assumptionOf(key string) string {
	if name, ok := statedAs[key]; ok {
		return name
	}
	for _, root := range []string{"model.", "params."} {
		if rest, ok := strings.CutPrefix(key, root); ok {
			return rest
		}
	}
	return ""
}

// markSwept makes the assumption stating the key a sweep point set say
// that the sweep set it, not the scenario: its source is prefixed with the
// point. Nothing changes without a point, or for a strategy key.
func markSwept(as []sim.Assumption, p *sim.SweepPoint, scenario string) {
	if p == nil {
		return
	}
	name := assumptionOf(p.Param)
	if name == "" {
		return
	}
	for i := range as {
		if as[i].Name == name {
			as[i].Source = fmt.Sprintf("sweep point %s (set by defersim sweep in place of scenario %q's value); %s", p, scenario, as[i].Source)
		}
	}
}
