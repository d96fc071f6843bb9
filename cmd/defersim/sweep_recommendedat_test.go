package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestSweepRecommendedForSaysItsValues pins that a sweep's warning of a
// strategy recommended for another setup names the values it holds at:
// swept over model.pricing.input_per_mtok=3:6:3, a strategy recommended
// for claude-sonnet-4.5's own values (input 3) is replayed with other
// values at 6 only, and the one warning line said "this run replays it
// with model claude-sonnet-4.5 with other values" without saying at which
// value. It now starts with the value's label, "at
// model.pricing.input_per_mtok=6: ", and "at every value: " when it holds at
// each.
func TestSweepRecommendedForSaysItsValues(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded sessions four times")
	}
	m, err := presets.Model("claude-sonnet-4.5")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sc := filepath.Join(dir, "rf.yaml")
	yaml := "name: rf\nseed: 42\ntraces: [embedded:trace.jsonl.gz]\nmodel: claude-sonnet-4.5\n" +
		"strategies:\n  - eager\n" +
		"  - {name: a, base: claude-code-default, recommended_for: {model: claude-sonnet-4.5, model_values: \"" + m.ValuesDigest() + "\"}}\n"
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	const finding = "Strategy a was recommended for model claude-sonnet-4.5 (its recommended_for) and this run replays it with model claude-sonnet-4.5 with other values (pricing.input_per_mtok, not 3)"
	for _, tc := range []struct{ name, values, where string }{
		{"one value", "3:6:3", "at model.pricing.input_per_mtok=6: "},
		{"every value", "6:9:3", "at every value: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cliRun(t, "sweep", sc, "--catalogs", "embedded:catalog", "-q", "--bootstrap", "-1",
				"--param", "model.pricing.input_per_mtok="+tc.values, "-o", filepath.Join(dir, tc.name), "--format", "csv")
			if code != 0 {
				t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
			}
			var got []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.Contains(l, "Strategy a was recommended") {
					got = append(got, l)
				}
			}
			if want := "defersim: warning: " + tc.where + finding; len(got) != 1 || !strings.HasPrefix(got[0], want) {
				t.Errorf("warnings %q, want one starting %q", got, want)
			}
		})
	}
}
