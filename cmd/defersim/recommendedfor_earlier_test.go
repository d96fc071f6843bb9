package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestRecommendedForOfEarlierResultsSaysByName pins that check and a
// re-rendered report, reading a results.json of an earlier build (its
// recommended_for assumptions without run_model and model_values), say
// that they compared the models by name only: before, a match was
// silent and a renamed preset (model: {preset: claude-sonnet-4.5, name:
// my-sonnet}) was warned of as another model with nothing saying why.
func TestRecommendedForOfEarlierResultsSaysByName(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions")
	}
	const note = "written by an earlier defersim, do not record how the run compared its model with it (strategy.a.recommended_for.run_model): only the names were compared here"
	for _, tc := range []struct {
		name, model string
		say         string // the start of the finding
	}{
		{"the same name", "claude-sonnet-4.5", "Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model claude-sonnet-4.5, the same model by name."},
		{"a renamed preset", "{preset: claude-sonnet-4.5, name: my-sonnet}", "Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model my-sonnet:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			yaml := "name: s\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: " + tc.model + "\nstrategies:\n  - eager\n" +
				"  - {name: a, base: claude-code-default, recommended_for: {model: claude-sonnet-4.5}}\n"
			if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			run := filepath.Join(dir, "run")
			if stdout, stderr, code := cliRun(t, "run", sc, "-o", run, "--catalogs", "embedded:catalog", "-q", "--no-report", "--bootstrap", "-1"); code != 0 || strings.Contains(stderr, "recommended_for") {
				t.Fatalf("run: exit %d, want 0 and no recommended_for warning\n%s%s", code, stdout, stderr)
			}
			// The results as an earlier build wrote them: no run_model,
			// no model_values, no model_preset.
			b, err := os.ReadFile(filepath.Join(run, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := report.DecodeResults(b)
			if err != nil {
				t.Fatal(err)
			}
			kept := res.Run.Assumptions[:0]
			for _, a := range res.Run.Assumptions {
				if !strings.HasSuffix(a.Name, ".run_model") && !strings.HasSuffix(a.Name, ".model_values") {
					kept = append(kept, a)
				}
			}
			res.Run.Assumptions, res.Run.ModelPreset = kept, ""
			if b, err = report.MarshalResults(res); err != nil {
				t.Fatal(err)
			}
			earlier := filepath.Join(dir, "earlier", "results.json")
			if err := os.MkdirAll(filepath.Dir(earlier), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(earlier, b, 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := cliRun(t, "check", "--baseline", earlier, earlier)
			if code != 0 {
				t.Fatalf("check: exit %d\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.say) || !strings.Contains(stdout, note) {
				t.Errorf("check says:\n%s\nwant %q and %q", stdout, tc.say, note)
			}
			if stdout, stderr, code := cliRun(t, "report", earlier, "-q"); code != 0 {
				t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
			}
			md, err := os.ReadFile(filepath.Join(dir, "earlier", "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), tc.say) || !strings.Contains(string(md), note) {
				t.Errorf("the re-rendered report.md does not say %q and %q", tc.say, note)
			}
		})
	}
}
