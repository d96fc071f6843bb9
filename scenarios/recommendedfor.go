package scenarios

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/tokens"
)

// recommendedForKey is the strategy entry key recording what defersim
// recommend chose the strategy for (RecommendedFor).
const recommendedForKey = "recommended_for"

// RecommendedFor is what defersim recommend chose a strategy's lists and
// budget for, as its snippet writes it (docs/scenarios.md#strategies): a
// run of the strategy with another model or tokenizer replays choices
// those did not make, and its findings say so. It changes nothing in the
// replay, and is not in the fingerprint.
type RecommendedFor struct {
	// Model names the model whose prices, prompt cache and latency priced
	// the rules (run's results.json run.model).
	Model string `yaml:"model" json:"model"`
	// Tokenizer names the counter that counted the schemas the budget was
	// sized on (params.tokenizer; "" when not recorded).
	Tokenizer string `yaml:"tokenizer,omitempty" json:"tokenizer,omitempty"`
}

// recommendedFor decodes a strategy entry's recommended_for mapping: a
// model, required, and a tokenizer, which must be a registered counter.
func (d *decoder) recommendedFor(n *yaml.Node, field string) (RecommendedFor, error) {
	var r RecommendedFor
	if err := d.decode(n, reflect.ValueOf(&r).Elem(), field); err != nil {
		return r, err
	}
	if strings.TrimSpace(r.Model) == "" {
		return r, d.errAt(n, field+".model", "missing: the model recommend priced the strategy with (the snippet writes it)")
	}
	if r.Tokenizer != "" {
		if _, err := tokens.ByName(r.Tokenizer); err != nil {
			return r, d.errAt(n, field+".tokenizer", "%v", err)
		}
	}
	return r, nil
}

// recordRecommended records r as what the strategy called name was
// recommended for; a strategy based on one with a record inherits it
// (from: the base's name), as it keeps the lists and budget chosen for it.
func (d *decoder) recordRecommended(name, from string, r *RecommendedFor) {
	if r == nil {
		inherited, ok := d.recommended[from]
		if !ok || from == "" {
			return
		}
		r = &inherited
	}
	if d.recommended == nil {
		d.recommended = map[string]RecommendedFor{}
	}
	d.recommended[name] = *r
}
