package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReportListsModels pins that the import report lists the models of the
// sessions written with their session counts, the most sessions first then
// by name, at most MaxReportedModels and the rest counted, in the same
// order whatever order the sessions came in; it used to list none, so a
// user learned only at run which model a file records.
func TestReportListsModels(t *testing.T) {
	var many []string // twelve models: m00 in 12 sessions … m11 in 1
	var manyWant []ModelSessions
	for i := range 12 {
		m := fmt.Sprintf("m%02d", i)
		for range 12 - i {
			many = append(many, m)
		}
		if i < MaxReportedModels {
			manyWant = append(manyWant, ModelSessions{Model: m, Sessions: 12 - i})
		}
	}
	for _, tc := range []struct {
		name           string
		sessions       []string // the model of each session written
		want           []ModelSessions
		omitted, oSess int
		text           []string // lines of the text report, runs of spaces as one
	}{
		{"one model", []string{"gpt-4.1-mini", "gpt-4.1-mini"}, []ModelSessions{{"gpt-4.1-mini", 2}}, 0, 0,
			[]string{"models (model: sessions):\n gpt-4.1-mini 2\n"}},
		{"ties by name, none recorded", []string{"b", "", "a", "b", "a", ""},
			[]ModelSessions{{"", 2}, {"a", 2}, {"b", 2}}, 0, 0,
			[]string{"\n (none recorded) 2\n a 2\n b 2\n"}},
		{"more than the bound", many, manyWant, 2, 3,
			[]string{"\n m00 12\n", "\n m09 3\n … 2 more models 3\n"}},
		{"no session", nil, []ModelSessions{}, 0, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first []ModelSessions
			for pass, order := range [][]string{tc.sessions, reversed(tc.sessions)} {
				r := NewReport("test")
				for _, m := range order {
					r.Model(m)
				}
				r.Finish()
				if diff := cmp.Diff(tc.want, r.Models); diff != "" {
					t.Errorf("pass %d: Models differ (-want +got):\n%s", pass, diff)
				}
				if r.ModelsOmitted != tc.omitted || r.ModelsOmittedSessions != tc.oSess {
					t.Errorf("pass %d: omitted %d models in %d sessions, want %d in %d", pass, r.ModelsOmitted, r.ModelsOmittedSessions, tc.omitted, tc.oSess)
				}
				if pass == 1 && !cmp.Equal(first, r.Models) {
					t.Errorf("the order the sessions came in changed the list: %v, then %v", first, r.Models)
				}
				first = r.Models
				var b bytes.Buffer
				if err := r.WriteText(&b); err != nil {
					t.Fatal(err)
				}
				// Columns are aligned with runs of spaces: compare with one.
				text := regexp.MustCompile(` +`).ReplaceAllString(b.String(), " ")
				for _, w := range tc.text {
					if !strings.Contains(text, w) {
						t.Errorf("pass %d: text lacks %q:\n%s", pass, w, b.String())
					}
				}
				if len(tc.sessions) == 0 && strings.Contains(b.String(), "models (") {
					t.Errorf("text lists models of no session:\n%s", b.String())
				}
			}
		})
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
