package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobsModelFlagAsRun pins that recommend and calibrate take --model
// with a --scenario as run does (Scenario.UseModel): a param the file's
// model leaves unread but --model's reads is not refused (they refused it,
// naming the file's cache.kind none, while run accepted it), the same param
// without --model is refused by all three, and the note that --model
// replaces the model the file wrote is printed where run prints it (they
// printed none).
func TestJobsModelFlagAsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	const rest = "strategies: [eager, codex-cli]\n"
	const nocache = "model: {name: local, context_window: 128000, pricing: {input_per_mtok: 1, output_per_mtok: 2}, " +
		"latency: {overhead_ms: 100, prefill_tps: 1000, decode_tps: 50}, cache: {kind: none}}\n" +
		rest + "params: {cache_warm_start: 0.5}\n"
	const unread = "s.yaml:3: params.cache_warm_start: 0.5 changes nothing: the model's cache.kind is none"
	tests := []struct {
		name    string
		file    string
		model   string // --model; "" none
		refused string // substring of the refusal; "" none
		note    string // substring of the note on --model; "" none
	}{
		{"a param --model's model reads", nocache, "gpt-4o", "",
			`defersim: note: --model gpt-4o replaces the scenario's model, an inline model "local" (`},
		{"the same param without --model", nocache, "", unread, ""},
		{"another preset", "model: claude-opus-4.5\n" + rest, "gpt-4.1", "",
			"defersim: note: --model gpt-4.1 replaces the scenario's model, claude-opus-4.5 ("},
		{"the same preset otherwise spelt", "model: gpt-4o\n" + rest, "gpt-4o-2024-08-06", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sc := filepath.Join(dir, "s.yaml")
			if err := os.WriteFile(sc, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"run", sc, "--traces", trace, "--catalogs", cat, "--bootstrap", "-1", "--no-report", "-o", filepath.Join(dir, "run")},
				{"recommend", trace, "--scenario", sc, "--catalogs", cat, "--bootstrap", "-1", "-o", filepath.Join(dir, "rec.yaml")},
				{"calibrate", trace, "--scenario", sc, "--catalogs", cat, "--fit-on", "even", "-o", filepath.Join(dir, "cal.yaml")},
			} {
				if tc.model != "" {
					args = append(args, "--model", tc.model)
				}
				_, errs, code := cliRun(t, args...)
				switch {
				case tc.refused != "" && (code == 0 || !strings.Contains(errs, tc.refused)):
					t.Errorf("%s: exit %d, want a refusal with %q:\n%s", args[0], code, tc.refused, errs)
				case tc.refused == "" && code != 0:
					t.Errorf("%s: exit %d\n%s", args[0], code, errs)
				}
				if tc.note == "" && strings.Contains(errs, "note: --model") {
					t.Errorf("%s: --model noted where it changed nothing of the file's:\n%s", args[0], errs)
				}
				if tc.note != "" && strings.Count(errs, tc.note) != 1 {
					t.Errorf("%s: stderr does not note once %q:\n%s", args[0], tc.note, errs)
				}
			}
		})
	}
}
