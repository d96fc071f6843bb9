package check

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
)

// TestCSVVerdictAgreesWithTheGate pins that `check --format csv` states
// the gate's verdict: the CSV held the checks' rows only, so a CI job
// reading the file could not tell a pass from a fail, and a catalog
// version no session replayed (which has no row) failed the gate with
// every row "ok". Every row now ends with failed and fail_reasons, the
// same on each row and equal to the JSON's "failed" and "fail_reasons";
// the file stays rectangular (every record as wide as the header).
func TestCSVVerdictAgreesWithTheGate(t *testing.T) {
	unreplayed := []Unreplayed{{Server: "srv", Versions: []string{"1.1.0"}, Replayed: []string{"1.0.0"}, Change: "1.0.0 → 1.0.0,1.1.0"}}
	tests := []struct {
		name        string
		regressions int
		unreplayed  []Unreplayed
		allow       bool
		reasons     string
	}{
		{"pass", 0, nil, false, ""},
		{"regression only", 1, nil, false, "regression"},
		{"unreplayed only", 0, unreplayed, false, "unreplayed"},
		{"both", 1, unreplayed, false, "regression;unreplayed"},
		{"unreplayed allowed", 0, unreplayed, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status := OK
			if tc.regressions > 0 {
				status = Regressed
			}
			r := &Report{BaselinePath: "b.json", CurrentPath: "c.json", Summary: Summary{Rows: 2, Regressions: tc.regressions},
				Rows: []Row{
					{Strategy: "a", Rule: Rule{Metric: "cost_usd", Stat: "mean"}, Unit: "USD", Paired: true, Status: status},
					{Strategy: "b", Rule: Rule{Metric: "cost_usd", Stat: "mean"}, Unit: "USD", Paired: true, Status: OK},
				},
				Unreplayed: tc.unreplayed, AllowUnreplayed: tc.allow}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, r); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll() // fails on a ragged record
			if err != nil {
				t.Fatalf("the CSV does not parse: %v\n%s", err, buf.String())
			}
			if len(recs) != 1+len(r.Rows) {
				t.Fatalf("%d records, want the header and %d rows:\n%s", len(recs), len(r.Rows), buf.String())
			}
			head := recs[0]
			if n := len(head); head[n-2] != "failed" || head[n-1] != "fail_reasons" {
				t.Fatalf("header %v does not end with failed, fail_reasons", head)
			}
			for i, rec := range recs[1:] {
				n := len(rec)
				if rec[n-2] != strconv.FormatBool(r.Failed()) || rec[n-1] != tc.reasons {
					t.Errorf("row %d ends %q, %q; want %v, %q (Failed, FailReasons)", i+1, rec[n-2], rec[n-1], r.Failed(), tc.reasons)
				}
			}
			if r.Failed() != (tc.reasons != "") {
				t.Errorf("Failed() = %v with reasons %q", r.Failed(), tc.reasons)
			}
		})
	}
}
