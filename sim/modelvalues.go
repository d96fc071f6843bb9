package sim

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// modelValuesVersion heads the canonical form ValuesDigest hashes: a
// change of the form changes it, and so every digest.
const modelValuesVersion = "defersim model values 1\n"

// modelValues are the values of a model that price and time a request:
// its prices, prompt cache and latency, not its name (another spelling of
// the same values is the same model) nor its context window (which counts
// overflows, not costs).
type modelValues struct {
	Pricing Pricing     `json:"pricing"`
	Cache   CacheConfig `json:"cache"`
	Latency Latency     `json:"latency"`
}

// ValuesDigest is a short, deterministic fingerprint of the values that
// price and time m's requests (pricing, cache, latency; not its name nor
// context window): the first 12 hex digits of the SHA-256 of their
// canonical JSON. Equal digests: the same prices, cache and latency.
// defersim recommend records it as recommended_for.model_values.
func (m Model) ValuesDigest() string {
	b, err := json.Marshal(modelValues{m.Pricing, m.Cache, m.Latency})
	if err != nil {
		// Plain numbers and strings always encode.
		panic(fmt.Sprintf("sim: encoding model values: %v", err))
	}
	sum := sha256.Sum256(append([]byte(modelValuesVersion), b...))
	return hex.EncodeToString(sum[:])[:12]
}

// ModelValueDiff is one value ValuesDigest covers that differs between two
// models: its scenario key under model: ("pricing.input_per_mtok") and
// each model's value ("" when unset).
type ModelValueDiff struct {
	Key, A, B string
}

// ModelValueDiffs lists, sorted by key, the values ValuesDigest covers
// that differ between a and b: none when their digests are equal.
func ModelValueDiffs(a, b Model) []ModelValueDiff {
	fa, fb := flatValues(a), flatValues(b)
	var out []ModelValueDiff
	for k, va := range fa {
		if vb := fb[k]; va != vb {
			out = append(out, ModelValueDiff{Key: k, A: va, B: vb})
		}
	}
	for k, vb := range fb {
		if _, ok := fa[k]; !ok {
			out = append(out, ModelValueDiff{Key: k, B: vb})
		}
	}
	slices.SortFunc(out, func(x, y ModelValueDiff) int { return cmp.Compare(x.Key, y.Key) })
	return out
}

// flatValues is m's modelValues as key → value, the keys dotted as a
// scenario's model: keys are.
func flatValues(m Model) map[string]string {
	b, err := json.Marshal(modelValues{m.Pricing, m.Cache, m.Latency})
	if err != nil {
		panic(fmt.Sprintf("sim: encoding model values: %v", err))
	}
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		panic(fmt.Sprintf("sim: decoding model values: %v", err))
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok {
			for k, c := range sub {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, c)
			}
			return
		}
		out[prefix] = fmt.Sprint(v)
	}
	walk("", tree)
	return out
}
