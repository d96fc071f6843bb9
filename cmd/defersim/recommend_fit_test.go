package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withModels rewrites the gzip trace in so that the k-th session_start
// records models[k] (cycling), into a plain trace it returns.
func withModels(t *testing.T, in string, models []string) string {
	t.Helper()
	var b strings.Builder
	k := 0
	for l := range bytes.Lines(gunzip(t, in)) {
		var ev map[string]any
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatal(err)
		}
		if ev["type"] == "session_start" {
			ev["model"] = models[k%len(models)]
			k++
		}
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	out := filepath.Join(t.TempDir(), "models.jsonl")
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRecommendNamesEveryRecordedModel pins that recommend's stderr warning
// on sessions recorded with other models than the one it prices with names
// them all with their sessions, the most first, five then how many more,
// as run's note does (runner.RecordedModels, report.OtherModels): it named
// the first session's model alone ("the traces record model "m-a", which
// has no preset"), and the note counted nothing but a second model. The
// sessions of the priced model in a vendor spelling are not counted.
func TestRecommendNamesEveryRecordedModel(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "30")
	var models []string
	for _, c := range []struct {
		model string
		n     int
	}{{"m-a", 8}, {"m-c", 5}, {"m-b", 6}, {"m-d", 4}, {"claude-sonnet-4-5-20250929", 1}, {"m-e", 3}, {"m-g", 1}, {"m-f", 2}} {
		for range c.n {
			models = append(models, c.model)
		}
	}
	mixed := withModels(t, trace, models)
	const want = `29 of 30 sessions were recorded with another model than the one recommend prices with ` +
		`("m-a" in 8, "m-b" in 6, "m-c" in 5, "m-d" in 4, "m-e" in 3, … (2 more models)); ` +
		`the rules and the validation price and time them as claude-sonnet-4.5`
	var first string
	for i := range 2 {
		out, errs, code := cliRun(t, "recommend", mixed, "--catalogs", cat, "--model", "claude-sonnet-4.5",
			"--format", "json", "--bootstrap", "-1", "--test-share", "0.3")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errs)
		}
		if !strings.Contains(errs, "defersim: warning: "+want) {
			t.Errorf("stderr does not name every model with its sessions, want %q:\n%s", want, errs)
		}
		var doc struct {
			Notes  []string `json:"notes"`
			Models []struct {
				Model    string `json:"model"`
				Sessions int    `json:"sessions"`
				Scenario bool   `json:"scenario_model"`
			} `json:"recorded_models"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(doc.Notes, "\n"), want) {
			t.Errorf("JSON notes lack %q: %q", want, doc.Notes)
		}
		if got := fmt.Sprint(doc.Models); got != "[{m-a 8 false} {m-b 6 false} {m-c 5 false} {m-d 4 false} {m-e 3 false} {m-f 2 false} {claude-sonnet-4-5-20250929 1 true} {m-g 1 false}]" {
			t.Errorf("recorded_models = %s", got)
		}
		var warnings []string // the progress line carries a time
		for l := range strings.Lines(errs) {
			if strings.HasPrefix(l, "defersim: warning: ") {
				warnings = append(warnings, l)
			}
		}
		if got := strings.Join(warnings, ""); i == 0 {
			first = got
		} else if got != first {
			t.Errorf("warnings differ between two runs:\n%s\n---\n%s", first, got)
		}
	}
}

// TestRecommendCountsUnresolvedFitSessions pins that the calls of the
// sessions recommend learns from are held to the unresolved limit and
// named, not only the held-out sessions' (the validation's): with
// --test-share 0 a catalog missing the trace's most called server gave a
// clean proposal (exit 0, no note); with held-out sessions the note
// counted theirs alone.
func TestRecommendCountsUnresolvedFitSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "20")
	partial := catalogWithout(t, cat, "calendar")
	const tool = "calendar/count_events (unknown server"
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		where string // "stderr": the refusal; "notes": the note
		want  string
	}{
		{"no held-out, refused", []string{"--test-share", "0"}, 2, "stderr", "the sessions (20 learnt from, 0 held out): "},
		{"no held-out, allowed", []string{"--test-share", "0", "--allow-unresolved"}, 0, "notes", "over all 20 sessions (20 learnt from, 0 held out): "},
		{"held-out, allowed", []string{"--test-share", "0.5", "--allow-unresolved"}, 0, "notes", "over all 20 sessions ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"recommend", trace, "--catalogs", partial, "--format", "json", "--bootstrap", "-1"}, tc.args...)
			out, errs, code := cliRun(t, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, errs)
			}
			got := errs
			if tc.where == "notes" {
				var doc struct {
					Notes []string `json:"notes"`
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil {
					t.Fatal(err)
				}
				got = strings.Join(doc.Notes, "\n")
			}
			if !strings.Contains(got, tc.want) || !strings.Contains(got, tool) {
				t.Errorf("%s lacks %q and %q:\n%s", tc.where, tc.want, tool, got)
			}
			// recommend has no --max-unresolved and reads no scenario
			// limit: its refusal must not suggest raising one.
			if tc.where == "stderr" && strings.Contains(got, "max-unresolved") {
				t.Errorf("the refusal suggests a flag recommend does not have:\n%s", got)
			}
		})
	}
}
