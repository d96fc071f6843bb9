package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepAndRecommendNameUnresolvedCalls pins that sweep and recommend,
// replaying with --allow-unresolved traces whose calls the catalogs do not
// resolve past the limit, say so as run and plan do: in their printed
// output, in their document (sweep.json notes, recommend --format json
// notes) and in recommend's snippet, naming the tools. Over the tau2
// airline sessions (92 calls of get_flight_status, which no catalog
// defines) both printed a clean-looking table without a word of it.
func TestSweepAndRecommendNameUnresolvedCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	// The same catalog without the calendar server, whose count_events is
	// the trace's most called tool.
	partial := catalogWithout(t, cat, "calendar")
	const words = "did not resolve against the run's catalogs, more than its limit of 1.0% (replayed with --allow-unresolved)"
	const tool = "calendar/count_events (unknown server"
	for _, inputs := range []struct {
		name string
		cats string
		want bool
	}{{"all servers", cat, false}, {"calendar missing", partial, true}} {
		t.Run(inputs.name, func(t *testing.T) {
			dir := t.TempDir()
			snippet := filepath.Join(dir, "snippet.yaml")
			sweepDir := filepath.Join(dir, "sweep")
			for _, tc := range []struct {
				cmd  string
				args []string
				doc  func(stdout string) []byte // the JSON document holding notes
				text []string                   // the same command printing text
			}{
				{"sweep", []string{"sweep", "--param", "params.search_exec_ms=0:100:100", "--strategies", "eager,claude-code-default",
					"--traces", trace, "--catalogs", inputs.cats, "--allow-unresolved", "-o", sweepDir, "--bootstrap", "-1"},
					fileDoc(t, filepath.Join(sweepDir, "sweep.json")), nil},
				{"recommend", []string{"recommend", trace, "--catalogs", inputs.cats, "--allow-unresolved", "--format", "json",
					"--bootstrap", "-1", "--test-share", "0.5", "-o", snippet},
					func(s string) []byte { return []byte(s) },
					[]string{"recommend", trace, "--catalogs", inputs.cats, "--allow-unresolved", "--bootstrap", "-1", "--test-share", "0.5"}},
			} {
				t.Run(tc.cmd, func(t *testing.T) {
					out, errs, code := cliRun(t, tc.args...)
					if code != 0 {
						t.Fatalf("exit %d\n%s%s", code, out, errs)
					}
					var doc struct {
						Notes []string `json:"notes"`
					}
					if err := json.Unmarshal(tc.doc(out), &doc); err != nil {
						t.Fatalf("document: %v", err)
					}
					joined := strings.Join(doc.Notes, "\n")
					if got := strings.Contains(joined, words) && strings.Contains(joined, tool); got != inputs.want {
						t.Errorf("document notes name the unresolved calls: %v, want %v:\n%s", got, inputs.want, joined)
					}
					text := out
					if tc.text != nil {
						if text, errs, code = cliRun(t, tc.text...); code != 0 {
							t.Fatalf("text: exit %d\n%s%s", code, text, errs)
						}
					}
					if got := strings.Contains(text, "note: ") && strings.Contains(text, words) && strings.Contains(text, tool); got != inputs.want {
						t.Errorf("printed output names the unresolved calls: %v, want %v:\n%s", got, inputs.want, text)
					}
					if tc.cmd == "recommend" {
						data, err := os.ReadFile(snippet)
						if err != nil {
							t.Fatal(err)
						}
						if got := strings.Contains(string(data), "# note: over all ") && strings.Contains(string(data), tool); got != inputs.want {
							t.Errorf("snippet names the unresolved calls: %v, want %v:\n%s", got, inputs.want, data)
						}
					}
				})
			}
		})
	}
}

// catalogWithout copies the catalog directory cat without the files of
// server (server@VERSION.json) into a new directory, which it returns; it
// fails the test when cat holds no such file.
func catalogWithout(t *testing.T, cat, server string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "catalog")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(cat, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), server+"@") {
			dropped++
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if dropped == 0 {
		t.Fatalf("the catalog %s has no %s server", cat, server)
	}
	return out
}
