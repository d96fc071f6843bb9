package scenarios

import (
	"errors"
	"os"
	"testing"
)

// FuzzParseScenario: Parse never panics, every error is a located *Error,
// and every accepted scenario is valid and parses the same way twice.
func FuzzParseScenario(f *testing.F) {
	for _, file := range []string{"default.yaml", "example-custom.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{
		"strategies: [eager]\n",
		"strategies:\n  - name: x\n    base: anchor-e9-warm-capped\n    warm: {key: fingerprint}\nbaseline: x\n",
		"matrix: {base: claude-code-default, name: \"a-{injection}\", vary: {injection: [inline, tools-array]}}\n",
		"strategies:\n  - &e {name: a, trigger: {mode: never}}\n  - {<<: *e, name: b}\n",
		"model: {preset: gpt-5, cache: {step: 64}}\nparams: {select_prob: 1}\nstrategies: [codex-cli]\n",
		"servers: {gh: {upgrades: [{to: v2, at: 2026-05-01T00:00:00Z}]}}\nstrategies: [eager]\n",
		"sweep: {param: params.nudge_prob, from: 0, to: 0.5, step: 0.1}\nstrategies: [eager]\n",
		"strategies:\n  - name: odd\n    trigger: {mode: sometimes}\n",
		"a: &a [x, x]\nb: [*a, *a]\n",
		"strategies:\n  - name: r\n    base: eager\n    recommended_for: {model: gpt-4o, tokenizer: o200k_base, model_values: 0123456789ab}\n  - {name: s, base: r, warm: {max_tools: 2}}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml", "")
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *Error: %v", err, err)
			}
			return
		}
		if len(s.Strategies) == 0 {
			t.Fatal("accepted a scenario without strategies")
		}
		names := map[string]bool{}
		for _, st := range s.Strategies {
			if err := st.Validate(); err != nil {
				t.Fatalf("accepted an invalid strategy: %v", err)
			}
			if names[st.Name] {
				t.Fatalf("accepted duplicate name %q", st.Name)
			}
			names[st.Name] = true
		}
		if !names[s.Baseline] {
			t.Fatalf("baseline %q is not a strategy", s.Baseline)
		}
		if err := s.Model.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := s.Params.Validate(); err != nil {
			t.Fatal(err)
		}
		fp := s.Fingerprint()
		if len(fp) != 64 {
			t.Fatalf("fingerprint %q", fp)
		}
		again, err := Parse(data, "fuzz.yaml", "")
		if err != nil || again.Fingerprint() != fp {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}
