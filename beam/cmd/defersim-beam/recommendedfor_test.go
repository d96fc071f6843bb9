package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestSummaryWarnsRecommendedForAsRun pins that defersim-beam warns of a
// strategy pasted from defersim recommend for another model as defersim
// run does, in the same words, and is silent, as run is, on one recorded
// for the run's model under another name (a renamed preset): no test ran
// defersim-beam on a recommended_for scenario, whose comparison run makes
// where the model's preset is known and results.json records
// (strategy.NAME.recommended_for.run_model).
func TestSummaryWarnsRecommendedForAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds defersim and defersim-beam and runs a Beam pipeline")
	}
	bin, trace, catalog := beamFixture(t, 6)
	run := defersimBinary(t)
	digest := func(name string) string {
		m, err := presets.Model(name)
		if err != nil {
			t.Fatal(err)
		}
		return m.ValuesDigest()
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.yaml")
	yaml := "name: s\nseed: 7\nmodel: {preset: claude-sonnet-4.5, name: my-sonnet}\nstrategies:\n  - eager\n" +
		"  - name: for-gpt\n    base: claude-code-default\n    recommended_for:\n      model: \"gpt-4o\"\n      tokenizer: \"o200k_base\"\n" +
		"      model_values: \"" + digest("gpt-4o") + "\" # its prices, cache and latency\n" +
		"  - name: for-sonnet\n    base: claude-code-default\n    recommended_for:\n      model: \"claude-sonnet-4.5\"\n      tokenizer: \"o200k_base\"\n" +
		"      model_values: \"" + digest("claude-sonnet-4.5") + "\" # its prices, cache and latency\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{sc, "--traces", trace, "--catalogs", catalog, "--no-report", "--bootstrap", "-1", "-q"}
	_, runErr, runCode := runCommand(t, run, append([]string{"run", "-o", filepath.Join(dir, "run")}, args...)...)
	_, beamErr, beamCode := runCommand(t, bin, append([]string{"--out", filepath.Join(dir, "beam")}, args...)...)
	if runCode != 0 || beamCode != 0 {
		t.Fatalf("exit status: run %d, defersim-beam %d\nrun:\n%s\ndefersim-beam:\n%s", runCode, beamCode, runErr, lastLines([]byte(beamErr), 15))
	}
	// warnings are the recommended_for warnings of stderr, without the
	// program's name.
	warnings := func(stderr, program string) []string {
		var ws []string
		for _, l := range strings.Split(stderr, "\n") {
			if w, ok := strings.CutPrefix(l, program+": warning: "); ok && strings.Contains(w, "(its recommended_for)") {
				ws = append(ws, w)
			}
		}
		return ws
	}
	ran, beamed := warnings(runErr, "defersim"), warnings(beamErr, "defersim-beam")
	if len(ran) != 1 || !strings.HasPrefix(ran[0], "Strategy for-gpt was recommended for model gpt-4o (its recommended_for) and this run replays it with model my-sonnet:") {
		t.Fatalf("defersim run's recommended_for warnings %q, want one, of for-gpt", ran)
	}
	if strings.Join(beamed, "\n") != strings.Join(ran, "\n") {
		t.Errorf("defersim-beam warns %q, defersim run %q", beamed, ran)
	}
}
