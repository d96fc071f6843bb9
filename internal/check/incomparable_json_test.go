package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestIncomparableJSONHasTheTextsFacts pins the JSON refusal
// (`check --format json` on files that cannot be compared): "comparable"
// false, the text's first line as "verdict", every reason with its line,
// details and remedy as the text states them, and the remedies in the
// text's order under "what to do:" (a reason without one left out).
func TestIncomparableJSONHasTheTextsFacts(t *testing.T) {
	inc := &Incomparable{Reasons: []Reason{
		{What: "their strategy sets", Line: "strategy sets differ: only in baseline: b", Remedy: "pass --strategies a to check the strategies both files hold"},
		{What: "their scenarios", Line: "scenario fingerprint f vs g", Details: []string{"seed: 1 vs 2", "model: m vs n"}},
		{What: "their trace files", Line: "trace files differ: 1 file in baseline, 1 in current, 0 in common by content", Remedy: "pass --allow traces"},
	}}
	var buf bytes.Buffer
	if err := WriteIncomparableJSON(&buf, "base.json", "-", inc); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Baseline, Current string
		Comparable        *bool
		Verdict           string
		Reasons           []struct {
			What, Line string
			Details    []string
			Remedy     *string
		}
		Remedies []string
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	text := inc.Error()
	if got.Comparable == nil || *got.Comparable {
		t.Errorf("comparable %v, want false", got.Comparable)
	}
	if got.Baseline != "base.json" || got.Current != "-" {
		t.Errorf("paths %q, %q", got.Baseline, got.Current)
	}
	if want := "results cannot be compared: the two files differ in their strategy sets, their scenarios and their trace files"; got.Verdict != want {
		t.Errorf("verdict %q, want %q", got.Verdict, want)
	}
	if len(got.Reasons) != len(inc.Reasons) {
		t.Fatalf("%d reasons, want %d", len(got.Reasons), len(inc.Reasons))
	}
	for i, r := range got.Reasons {
		want := inc.Reasons[i]
		if r.What != want.What || r.Line != want.Line || strings.Join(r.Details, "|") != strings.Join(want.Details, "|") {
			t.Errorf("reason %d %+v, want %+v", i, r, want)
		}
		if r.Details == nil {
			t.Errorf("reason %d: details null, want a list", i)
		}
		if (r.Remedy == nil) != (want.Remedy == "") {
			t.Errorf("reason %d: remedy %v, want %q (absent when none)", i, r.Remedy, want.Remedy)
		}
	}
	if _, after, _ := strings.Cut(text, "\nwhat to do:\n  "); strings.Join(got.Remedies, "\n  ") != after {
		t.Errorf("remedies %q, want the text's %q", got.Remedies, after)
	}
}
