package check

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSONVerdictAgreesWithTheGate pins that check's JSON states the
// gate's verdict: a current run that fails only on a catalog version no
// session replayed exits 1 while its JSON said "regression": false, so a
// CI job reading the JSON saw a pass. "failed" is now true exactly when
// the gate fails (Report.Failed, exit status 1), with "fail_reasons";
// "regression" still says a check regressed.
func TestJSONVerdictAgreesWithTheGate(t *testing.T) {
	unreplayed := []Unreplayed{{Server: "srv", Versions: []string{"1.1.0"}, Replayed: []string{"1.0.0"}, Change: "1.0.0 → 1.0.0,1.1.0"}}
	tests := []struct {
		name        string
		regressions int
		unreplayed  []Unreplayed
		allow       bool
		failed      bool
		reasons     []string
	}{
		{"pass", 0, nil, false, false, []string{}},
		{"regression only", 2, nil, false, true, []string{FailRegression}},
		{"unreplayed only", 0, unreplayed, false, true, []string{FailUnreplayed}},
		{"both", 1, unreplayed, false, true, []string{FailRegression, FailUnreplayed}},
		{"unreplayed allowed", 0, unreplayed, true, false, []string{}},
		{"unreplayed allowed, regression", 1, unreplayed, true, true, []string{FailRegression}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{BaselinePath: "b.json", CurrentPath: "c.json", Summary: Summary{Rows: 24, Regressions: tc.regressions},
				Unreplayed: tc.unreplayed, AllowUnreplayed: tc.allow}
			if r.Failed() != tc.failed {
				t.Errorf("Failed() = %v, want %v", r.Failed(), tc.failed)
			}
			var buf bytes.Buffer
			if err := WriteJSON(&buf, r); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Failed      *bool    `json:"failed"`
				FailReasons []string `json:"fail_reasons"`
				Regression  bool     `json:"regression"`
			}
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Failed == nil || *got.Failed != tc.failed {
				t.Errorf("failed = %v, want %v\n%s", got.Failed, tc.failed, buf.Bytes())
			}
			if diff := cmp.Diff(tc.reasons, got.FailReasons); diff != "" {
				t.Errorf("fail_reasons (-want +got):\n%s", diff)
			}
			if got.Regression != (tc.regressions > 0) {
				t.Errorf("regression = %v with %d regressions", got.Regression, tc.regressions)
			}
		})
	}
}
