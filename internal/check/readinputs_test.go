package check

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadPairRefusesWhatIsNoRunsResults pins two inputs a CI job gets
// wrong: a run's output directory given for its results file (the message
// names the file inside, or says the run did not finish when there is
// none; it used to say "give the files in it"), and a results.json whose
// run section was cut or deleted by hand (it used to be compared, and
// every scenario setting was listed as differing from an empty value).
func TestReadPairRefusesWhatIsNoRunsResults(t *testing.T) {
	runs, err := defaultRuns()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	emptyDir := filepath.Join(dir, "interrupted")
	for _, d := range []string{runDir, emptyDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runDir, "results.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "run")
	noRun, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	noRunPath := filepath.Join(dir, "norun.json")
	if err := os.WriteFile(noRunPath, noRun, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		base     string
		want     []string // "" = comparable
		mustLack string
	}{
		{"the results file", runs[0], nil, ""},
		{"a run's directory", runDir, []string{filepath.Join(runDir, "results.json"), "is a directory"}, "give the files in it"},
		{"a directory without results.json", emptyDir, []string{"without a results.json", "--resume"}, ""},
		{"no run section", noRunPath, []string{"no run.scenario_fingerprint", "edited by hand"}, "cannot be compared"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadPair(tc.base, runs[1])
			if tc.want == nil {
				if err != nil {
					t.Fatalf("err %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatal("read, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if tc.mustLack != "" && strings.Contains(err.Error(), tc.mustLack) {
				t.Errorf("error says %q: %v", tc.mustLack, err)
			}
		})
	}
}
