package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecommendSmallSample pins what recommend says about a sample of one
// session, in every output: it printed "learnt from 1 sessions" and
// "Proposed … on 1 sessions", and decided as if the shares of one session
// were known. Now the counts read in the singular, every form marks the
// uncertain decisions and warns, the exit status stays 0, and
// --fail-on-uncertain exits 1 once the outputs are written.
func TestRecommendSmallSample(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions")
	}
	trace, cat := genData(t, "1")
	dir := t.TempDir()
	snippet := filepath.Join(dir, "snippet.yaml")
	base := []string{"recommend", trace, "--catalogs", cat, "--bootstrap", "-1", "--test-share", "0"}
	text, errs, code := cliRun(t, append(base, "-o", snippet)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, text, errs)
	}
	yaml, err := os.ReadFile(snippet)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"learnt from 1 session (0 held apart for validation, seed ", "\nuncertain: ", "\nwarning: ",
		" decisions are uncertain: learnt from 1 session, ", "no session was held apart for validation (1 session, --test-share 0): ",
		"give --test-share above 0", "never-defer)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"# defersim recommend: 1 training session, 0 held out;", `on 1 session: `, "# uncertain: ", "# warning: "} {
		if !strings.Contains(string(yaml), want) {
			t.Errorf("snippet lacks %q:\n%s", want, yaml)
		}
	}
	if strings.Contains(text+string(yaml), "1 sessions") {
		t.Errorf("says \"1 sessions\":\n%s\n%s", text, yaml)
	}

	out, errs, code := cliRun(t, append(base, "--format", "json")...)
	if code != 0 {
		t.Fatalf("json: exit %d\n%s%s", code, out, errs)
	}
	var doc struct {
		Uncertain int      `json:"uncertain_decisions"`
		Warnings  []string `json:"warnings"`
		Spread    struct {
			Low       int64 `json:"low"`
			High      int64 `json:"high"`
			Uncertain bool  `json:"uncertain"`
		} `json:"budget_spread"`
		Tools []struct {
			Uncertain   bool `json:"uncertain"`
			Uncertainty *struct {
				Low, High, Threshold float64
				Settle               int `json:"sessions_to_settle"`
			} `json:"uncertainty"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tool := range doc.Tools {
		if tool.Uncertain {
			n++
			if u := tool.Uncertainty; u == nil || u.Threshold < u.Low || u.Threshold > u.High || u.Settle < 2 {
				t.Errorf("uncertain tool's uncertainty %+v", u)
			}
		}
	}
	// Warnings: the uncertain decisions, the uncertain mode (one session
	// bounds the budget nowhere near the catalog), no held-out session,
	// the always-defer entries only newer versions than the session's
	// serve, and the session's older catalog versions (TestVersionGapWarns).
	if n == 0 || n != doc.Uncertain || len(doc.Warnings) != 5 {
		t.Errorf("%d uncertain tools, uncertain_decisions %d, warnings %q", n, doc.Uncertain, doc.Warnings)
	}
	if sp := doc.Spread; !sp.Uncertain || sp.Low >= sp.High {
		t.Errorf("budget_spread %+v: want an uncertain mode between two bounds", sp)
	}
	if !strings.Contains(errs, "defersim: warning: no session was held apart") {
		t.Errorf("--format json: stderr does not warn:\n%s", errs)
	}

	md, _, code := cliRun(t, append(base, "--format", "markdown")...)
	if code != 0 || !strings.Contains(md, "> **Warning:** ") || !strings.Contains(md, "- **uncertain:** ") || !strings.Contains(md, "| uncertain |") {
		t.Errorf("markdown (exit %d) does not mark the uncertain decisions:\n%s", code, md)
	}
	csv, _, code := cliRun(t, append(base, "--format", "csv")...)
	if code != 0 || !strings.Contains(strings.SplitN(csv, "\n", 2)[0], ",uncertain,") || !strings.Contains(csv, ",true,") {
		t.Errorf("csv (exit %d) does not mark the uncertain decisions:\n%s", code, csv)
	}

	failed := filepath.Join(dir, "failed.yaml")
	out, errs, code = cliRun(t, append(base, "--fail-on-uncertain", "-o", failed)...)
	if code != 1 || !strings.Contains(errs, " decisions are uncertain, and the mode (the catalog's size is within the budget's bounds), and no training session used the catalog version priced of ") ||
		!strings.HasSuffix(strings.TrimSpace(errs), "(--fail-on-uncertain)") {
		t.Errorf("--fail-on-uncertain: exit %d, want 1\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(failed); err != nil {
		t.Errorf("--fail-on-uncertain wrote no snippet: %v", err)
	}
}
