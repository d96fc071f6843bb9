package scenarios

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecommendedForKey pins (and its model cases pin a misspelt model
// that loaded and then warned on every run, and a vendor's spelling that
// warned as another model) the strategy key recommend's snippet records
// what it chose the strategy for with: a pasted snippet said the model
// only in its free-text description, so nothing could tell a run that
// replays it with another. The key is read per strategy, inherited by the
// strategies based on it (they keep its lists), refused when its model is
// missing, its tokenizer unknown or a key misspelt (file, line, reason),
// and leaves the fingerprint as it was: it changes nothing replayed.
func TestRecommendedForKey(t *testing.T) {
	const head = "traces: [t.jsonl]\ncatalogs: [c/]\n"
	tests := []struct {
		name    string
		doc     string
		want    map[string]RecommendedFor
		wantErr string
	}{
		{"model and tokenizer", `strategies:
  - name: r
    base: eager
    recommended_for: {model: gpt-4o, tokenizer: o200k_base}
  - eager
`, map[string]RecommendedFor{"r": {Model: "gpt-4o", Tokenizer: "o200k_base"}}, ""},
		{"based on it, and a matrix over it", `strategies:
  - name: r
    base: claude-code-default
    recommended_for: {model: claude-sonnet-4.5}
  - {name: s, base: r, warm: {max_tools: 4}}
  - {name: t, base: r, recommended_for: {model: gpt-4o}}
  - {name: u, base: eager}
matrix: {base: r, name: "r-{warm.max_tools}", vary: {warm.max_tools: [2]}}
`, map[string]RecommendedFor{"r": {Model: "claude-sonnet-4.5"}, "s": {Model: "claude-sonnet-4.5"}, "t": {Model: "gpt-4o"}, "r-2": {Model: "claude-sonnet-4.5"}}, ""},
		{"none", "strategies: [eager]\n", nil, ""},
		// A vendor's spelling of a preset is the preset (what runs compare).
		{"dashed and dated spelling", "strategies:\n  - name: r\n    base: eager\n    recommended_for: {model: claude-sonnet-4-5-20250929}\n",
			map[string]RecommendedFor{"r": {Model: "claude-sonnet-4.5"}}, ""},
		// A model renamed or written out in full: the file's own name is known.
		{"the file's own model", "model: {preset: gpt-4o, name: my-model}\n" +
			"strategies:\n  - name: r\n    base: eager\n    recommended_for: {model: my-model}\n",
			map[string]RecommendedFor{"r": {Model: "my-model"}}, ""},
		{"misspelt model", "strategies:\n  - name: r\n    base: eager\n    recommended_for:\n      model: claude-sonet-4.5\n",
			nil, `s.yaml:7: strategies[0].recommended_for.model: unknown model "claude-sonet-4.5": neither a model preset`},
		{"no model", "strategies:\n  - name: r\n    base: eager\n    recommended_for: {tokenizer: o200k_base}\n",
			nil, "s.yaml:6: strategies[0].recommended_for.model: missing"},
		{"unknown tokenizer", "strategies:\n  - name: r\n    base: eager\n    recommended_for: {model: gpt-4o, tokenizer: nope}\n",
			nil, "s.yaml:6: strategies[0].recommended_for.tokenizer:"},
		{"misspelt key", "strategies:\n  - name: r\n    base: eager\n    recommended_for:\n      modle: gpt-4o\n",
			nil, "s.yaml:7: strategies[0].recommended_for.modle: unknown key"},
		{"not a mapping", "strategies:\n  - name: r\n    base: eager\n    recommended_for: gpt-4o\n",
			nil, "s.yaml:6: strategies[0].recommended_for"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(head+tc.doc), "s.yaml", "")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v: want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sc.RecommendedFor); diff != "" {
				t.Errorf("recommended_for (-want +got):\n%s", diff)
			}
		})
	}
	with, err := Parse([]byte(head+"strategies:\n  - name: r\n    base: eager\n    recommended_for: {model: gpt-4o}\n"), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	without, err := Parse([]byte(head+"strategies:\n  - name: r\n    base: eager\n"), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	if with.Fingerprint() != without.Fingerprint() {
		t.Error("recommended_for changed the fingerprint: it changes nothing replayed")
	}
}

// TestRecommendedForModelValuesKey pins the decoding of model_values,
// the digest of the values recommend priced with: kept as written when it
// is 12 lowercase hex digits, optional (snippets of earlier builds load),
// and otherwise refused at its line, as every key of the entry.
func TestRecommendedForModelValuesKey(t *testing.T) {
	const head = "traces: [t.jsonl]\ncatalogs: [c/]\nstrategies:\n  - name: r\n    base: eager\n    recommended_for:\n      model: gpt-4o\n"
	tests := []struct {
		name, line string
		want       RecommendedFor
		wantErr    string
	}{
		{"a digest", "      model_values: 0123456789ab\n", RecommendedFor{Model: "gpt-4o", ModelValues: "0123456789ab"}, ""},
		{"absent", "", RecommendedFor{Model: "gpt-4o"}, ""},
		{"upper case", "      model_values: 0123456789AB\n", RecommendedFor{}, `s.yaml:8: strategies[0].recommended_for.model_values: "0123456789AB" is not a model values digest`},
		{"too short", "      model_values: 0123\n", RecommendedFor{}, "s.yaml:8: strategies[0].recommended_for.model_values:"},
		{"empty", "      model_values: \"\"\n", RecommendedFor{}, "s.yaml:8: strategies[0].recommended_for.model_values:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(head+tc.line), "s.yaml", "")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v: want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sc.RecommendedFor["r"]); diff != "" {
				t.Errorf("recommended_for (-want +got):\n%s", diff)
			}
		})
	}
}
