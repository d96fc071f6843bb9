package scenarios

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/sim/presets"
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
	// ModelValues is the digest of the model's prices, prompt cache and
	// latency recommend priced with (sim.Model.ValuesDigest: 12 hex
	// digits): a run whose model has other values warns though it has the
	// same name. "" in snippets of earlier builds: then only the name is
	// compared, and the warning says so.
	ModelValues string `yaml:"model_values,omitempty" json:"model_values,omitempty"`
}

// modelValuesDigit is a digit of a recorded model_values digest.
func modelValuesDigit(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f'
}

// recommendedFor decodes a strategy entry's recommended_for mapping: a
// model, required, a tokenizer, which must be a registered counter, and
// model_values, which must be a digest as recommend writes it.
func (d *decoder) recommendedFor(n *yaml.Node, field string) (RecommendedFor, error) {
	var r RecommendedFor
	if err := d.decode(n, reflect.ValueOf(&r).Elem(), field); err != nil {
		return r, err
	}
	if strings.TrimSpace(r.Model) == "" {
		return r, d.errAt(n, field+".model", "missing: the model recommend priced the strategy with (the snippet writes it)")
	}
	// One model, one name: a vendor's spelling is its preset's name, so
	// that runs compare it as they compare recorded models
	// (presets.SameModel); a name of no preset must be this file's own
	// model's, as recommend writes for a model written out in full.
	switch p, ok := presets.ResolveModel(r.Model); {
	case ok:
		r.Model = p
	case !strings.EqualFold(strings.TrimSpace(r.Model), strings.TrimSpace(d.modelName)):
		return r, d.errAt(mappingValue(n, "model"), field+".model", "unknown model %q: neither a model preset (%s) nor this scenario's model (%s)",
			r.Model, strings.Join(presets.ModelNames(), ", "), d.modelName)
	}
	if r.Tokenizer != "" {
		if _, err := tokens.ByName(r.Tokenizer); err != nil {
			return r, d.errAt(n, field+".tokenizer", "%v", err)
		}
	}
	if v := mappingValue(n, "model_values"); v != n && (len(r.ModelValues) != 12 || strings.IndexFunc(r.ModelValues, func(c rune) bool { return !modelValuesDigit(c) }) >= 0) {
		return r, d.errAt(v, field+".model_values",
			"%q is not a model values digest: 12 lowercase hex digits, as defersim recommend writes it (delete the key to compare the model by name only)", r.ModelValues)
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

// mappingValue is the value node of key in mapping n (n itself when it
// has none), to point an error at the key's own line.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return n
}
