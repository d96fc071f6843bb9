package scenarios

import (
	"strings"
	"testing"
)

// TestUseModelIsTheFilesModelKey pins that --model NAME (UseModel) gives
// the scenario a `model: NAME` line would: the same model, preset name and
// fingerprint — so that check sees a run under another model as another
// run — and that it says which model of the file it replaced ("" when the
// file writes none, or writes the same preset).
func TestUseModelIsTheFilesModelKey(t *testing.T) {
	const rest = "strategies: [eager, codex-cli]\n"
	tests := []struct {
		name     string
		file     string // the scenario --model is given with
		model    string
		replaced string // substring of what UseModel says it replaced; "" none
	}{
		{"no model in the file", rest, "gpt-4o", ""},
		{"a vendor's spelling", rest, "gpt-4o-2024-08-06", ""},
		{"another preset", "model: claude-sonnet-4.5\n" + rest, "gpt-4o", "claude-sonnet-4.5 (s.yaml:1: model)"},
		{"the same preset", "model: gpt-4o\n" + rest, "gpt-4o", ""},
		{"the same preset, spelt otherwise", "model: gpt-4o\n" + rest, "gpt-4o-2024-08-06", ""},
		{"a preset with values of its own", "model: {preset: gpt-4o, context_window: 64000}\n" + rest, "gpt-4o", "gpt-4o with values of its own (s.yaml:1: model)"},
		{"an inline model", "model: {name: mine, context_window: 32000, pricing: {input_per_mtok: 1, output_per_mtok: 2}, latency: {overhead_ms: 100, prefill_tps: 1000, decode_tps: 50}, cache: {kind: none}}\n" + rest,
			"gpt-4.1", `an inline model "mine" (s.yaml:1: model)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(tc.file), "s.yaml", "")
			if err != nil {
				t.Fatal(err)
			}
			before := sc.Fingerprint()
			replaced, err := sc.UseModel(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			if tc.replaced == "" && replaced != "" || !strings.Contains(replaced, tc.replaced) {
				t.Errorf("replaced = %q, want %q", replaced, tc.replaced)
			}
			written := strings.Replace(tc.file, "strategies:", "model: "+tc.model+"\nstrategies:", 1)
			if strings.HasPrefix(tc.file, "model:") {
				written = "model: " + tc.model + "\n" + rest
			}
			want, err := Parse([]byte(written), "s.yaml", "")
			if err != nil {
				t.Fatal(err)
			}
			if sc.Model != want.Model || sc.ModelPreset != want.ModelPreset {
				t.Errorf("model %+v (preset %q), want %+v (preset %q)", sc.Model, sc.ModelPreset, want.Model, want.ModelPreset)
			}
			if got := sc.Fingerprint(); got != want.Fingerprint() {
				t.Errorf("fingerprint %.12s, want the file's %.12s", got, want.Fingerprint())
			}
			if _, wrote := sc.lines["model"]; wrote {
				t.Error("the model's line is still the file's")
			}
			if same := sc.Fingerprint() == before; same != (tc.replaced == "" && strings.Contains(tc.file, "model: gpt-4o\n")) {
				t.Errorf("fingerprint unchanged = %v by --model %s on %q", same, tc.model, tc.file)
			}
		})
	}
}

// TestUseModelRefusesAnUnknownName pins that --model names a preset, with
// the close name and the list, as a scenario's model: does.
func TestUseModelRefusesAnUnknownName(t *testing.T) {
	sc, err := Parse([]byte("strategies: [eager]\n"), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	before := sc.Model
	_, err = sc.UseModel("gpt4o")
	if err == nil {
		t.Fatal("--model gpt4o accepted")
	}
	for _, want := range []string{"--model", `unknown model preset "gpt4o"`, "claude-sonnet-4.5", `did you mean "gpt-4o"?`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if sc.Model != before {
		t.Error("a refused --model changed the model")
	}
}
