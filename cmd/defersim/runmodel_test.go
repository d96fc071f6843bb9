package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces/importers"
)

// TestRunModelIsTheScenarioModelKey pins that `run --model NAME` writes
// the results.json a scenario whose model: names it writes, byte for byte:
// the default scenario with --model against default.yaml with its model
// line changed, and a user's scenario without a model with --model against
// the same file with the model line (README's two-line scenario). run had
// no --model: a team replaying its own gpt-4o logs had to write the file.
// When the file writes another model, --model replaces it and says so on
// stderr, naming both; the same preset, otherwise spelt, is no news.
func TestRunModelIsTheScenarioModelKey(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the embedded default (-short)")
	}
	def, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "default.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const defModel = "\nmodel: claude-sonnet-4.5\n"
	if !bytes.Contains(def, []byte(defModel)) {
		t.Fatalf("default.yaml no longer writes%q", defModel)
	}
	const own = "name: mine\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager, codex-cli]\n"
	tests := []struct {
		name    string
		flagged string // the scenario run with --model ("" the default)
		model   string
		written string // the scenario whose model: names it
		stderr  string // the note --model gives; "" none
	}{
		{"default scenario", "", "gpt-4o", string(bytes.Replace(def, []byte(defModel), []byte("\nmodel: gpt-4o\n"), 1)), ""},
		{"two-line scenario", own, "gpt-4o", own + "model: gpt-4o\n", ""},
		{"a scenario's other model", own + "model: claude-opus-4.5\n", "gpt-4.1", own + "model: gpt-4.1\n",
			"defersim: note: --model gpt-4.1 replaces the scenario's model, claude-opus-4.5 ("},
		{"the same model otherwise spelt", own + "model: gpt-4o\n", "gpt-4o-2024-08-06", own + "model: gpt-4o\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(sub, text string) string {
				p := filepath.Join(dir, sub, "s.yaml") // same base name: the same scenario name
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			args := []string{"run", "--model", tc.model, "--bootstrap", "200", "--no-report", "-o", filepath.Join(dir, "flag")}
			if tc.flagged != "" {
				args = append(args, write("flagged", tc.flagged))
			}
			_, errs, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("run --model: exit %d\n%s", code, errs)
			}
			if tc.stderr == "" && strings.Contains(errs, "--model") {
				t.Errorf("--model noted where it changed nothing of the file's:\n%s", errs)
			}
			if !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errs)
			}
			_, errs, code = cliRun(t, "run", write("written", tc.written), "--bootstrap", "200", "--no-report", "-o", filepath.Join(dir, "file"))
			if code != 0 {
				t.Fatalf("run with model: in the file: exit %d\n%s", code, errs)
			}
			a, b := fileDoc(t, filepath.Join(dir, "flag", "results.json"))(""), fileDoc(t, filepath.Join(dir, "file", "results.json"))("")
			if !bytes.Equal(a, b) {
				t.Errorf("results.json of --model %s differs from the scenario's model: %s", tc.model, tc.model)
			}
			if !bytes.Contains(a, []byte(`"model": "`+strings.TrimSuffix(tc.model, "-2024-08-06")+`"`)) {
				t.Errorf("results.json does not name the model %s", tc.model)
			}
		})
	}
}

// TestModelFlagRefusesUnknownNames pins that run, sweep and plan --growth
// refuse a --model no preset holds, with the close name and the list, and
// before replaying anything.
func TestModelFlagRefusesUnknownNames(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "-o", filepath.Join(dir, "run")},
		{"sweep", "--param", "params.nudge_prob=0:0.2:0.1", "-o", filepath.Join(dir, "sweep")},
	} {
		t.Run(args[0], func(t *testing.T) {
			_, errs, code := cliRun(t, append(args, "--model", "gpt4o")...)
			if code == 0 || !strings.Contains(errs, `--model: unknown model preset "gpt4o"`) || !strings.Contains(errs, `did you mean "gpt-4o"?`) {
				t.Errorf("exit %d:\n%s", code, errs)
			}
			if _, err := os.Stat(args[len(args)-1]); err == nil {
				t.Errorf("a refused --model left %s", args[len(args)-1])
			}
		})
	}
}

// TestRunSuggestsTheRecordedModel pins that run, replaying sessions
// recorded with a model preset other than the run's, suggests --model with
// that preset, and that following it prices them as recorded: the 200
// tau-bench sessions record gpt-4o; the note used to name only a scenario
// file.
func TestRunSuggestsTheRecordedModel(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and replays the shared tau-bench sessions (-short)")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "tau.jsonl.gz")
	req := importers.Request{Format: "tau-bench", Out: trace,
		Inputs: []string{shareddata.Path(t, "sessions", "tau-bench", "historical_trajectories", "gpt-4o-airline.json")}}
	if _, err := importers.Run(req); err != nil {
		t.Fatal(err)
	}
	const other = `200 of 200 sessions were recorded with another model than the run's ("gpt-4o" in 200)`
	const suggest = "To see them as recorded, replay them with --model gpt-4o (or under a scenario whose model: names it)."
	tests := []struct {
		model string // --model; "" none
		note  bool   // the note on another model, with its suggestion
	}{{"", true}, {"gpt-4o", false}, {"gpt-4.1", true}}
	for _, tc := range tests {
		t.Run("model="+tc.model, func(t *testing.T) {
			out := filepath.Join(dir, "run-"+tc.model)
			args := []string{"run", "--traces", trace, "--strategies", "eager,codex-cli", "--bootstrap", "-1", "--no-report", "-o", out}
			if tc.model != "" {
				args = append(args, "--model", tc.model)
			}
			stdout, errs, code := cliRun(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			if got := strings.Contains(stdout, other) && strings.Contains(stdout, suggest); got != tc.note {
				t.Errorf("note with the suggestion = %v, want %v:\n%s", got, tc.note, stdout)
			}
			scenarioModel := bytes.Contains(fileDoc(t, filepath.Join(out, "results.json"))(""), []byte(`"scenario_model": true`))
			if scenarioModel == tc.note {
				t.Errorf("results.json recorded_models scenario_model true = %v with --model %q", scenarioModel, tc.model)
			}
		})
	}
}
