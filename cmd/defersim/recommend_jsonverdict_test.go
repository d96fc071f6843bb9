package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestRecommendJSONStatesTheProposalsUncertainty pins that `recommend
// --format json` says what the CSV's last two columns say of the proposal
// as a whole: proposal_uncertain and proposal_uncertain_reasons, equal to
// the CSV's and to the exit status of --fail-on-uncertain (1 exactly when
// uncertain). The JSON had the per-tool and mode fields only, so a reader
// of it had to re-derive what --fail-on-uncertain exits on (a version no
// session used is in neither).
func TestRecommendJSONStatesTheProposalsUncertainty(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	seen := map[bool]bool{}
	// One session is uncertain; 400 at 51% confidence are not.
	for _, tc := range []struct{ sessions, confidence string }{{"1", "0.95"}, {"400", "0.51"}} {
		t.Run(tc.sessions, func(t *testing.T) {
			trace, cat := genData(t, tc.sessions)
			base := []string{"recommend", trace, "--catalogs", cat, "--bootstrap", "-1", "--test-share", "0", "-q", "--confidence", tc.confidence}
			out, errs, code := cliRun(t, append(base, "--format", "json")...)
			if code != 0 {
				t.Fatalf("json: exit %d\n%s", code, errs)
			}
			var doc struct {
				Uncertain *bool     `json:"proposal_uncertain"`
				Reasons   *[]string `json:"proposal_uncertain_reasons"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Uncertain == nil || doc.Reasons == nil {
				t.Fatalf("the JSON lacks proposal_uncertain or proposal_uncertain_reasons (null): %v %v", doc.Uncertain, doc.Reasons)
			}
			out, errs, code = cliRun(t, append(base, "--format", "csv")...)
			if code != 0 {
				t.Fatalf("csv: exit %d\n%s", code, errs)
			}
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) < 2 {
				t.Fatalf("csv: %d records, %v", len(recs), err)
			}
			n := len(recs[0])
			if flag, reasons := recs[1][n-2], recs[1][n-1]; flag != strconv.FormatBool(*doc.Uncertain) || reasons != strings.Join(*doc.Reasons, ";") {
				t.Errorf("csv says %s, %q; json %t, %q", flag, reasons, *doc.Uncertain, *doc.Reasons)
			}
			if *doc.Uncertain != (len(*doc.Reasons) > 0) {
				t.Errorf("proposal_uncertain %t with reasons %q", *doc.Uncertain, *doc.Reasons)
			}
			_, errs, code = cliRun(t, append(base, "--format", "json", "--fail-on-uncertain")...)
			if want := map[bool]int{false: 0, true: 1}[*doc.Uncertain]; code != want {
				t.Errorf("--fail-on-uncertain: exit %d, want %d (proposal_uncertain %t)\n%s", code, want, *doc.Uncertain, errs)
			}
			seen[*doc.Uncertain] = true
		})
	}
	if !seen[true] || !seen[false] {
		t.Errorf("proposal_uncertain seen %v: the test needs a certain and an uncertain proposal", seen)
	}
}
