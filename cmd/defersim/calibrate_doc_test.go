package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestCalibrateDocOutput pins the two worked examples of docs/calibrate.md
// — the import and calibrate commands on the shared tau2 runs, what
// calibrate prints and the scenario it writes — to what they do now. The
// airline example had drifted: it lacked the warning on a fit on little
// data and the note on the 35 held-out calls that do not resolve, both
// printed since. `go test ./cmd/defersim -run TestCalibrateDocOutput
// -update` rewrites the calibrate quotes.
func TestCalibrateDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	doc, text := docPage(t, "calibrate.md")
	t.Chdir(t.TempDir())
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, nil)

	// The prose compares the kind terms with one overhead for every
	// request (--kinds=false): those figures are recomputed here from the
	// traces the commands above imported.
	page := docProse(text)
	pct := func(v float64, prec int) string { return fmt.Sprintf("%.*f%%", prec, 100*v) }
	for _, tc := range []struct {
		name  string
		args  []string
		quote func(e calibrateDocEval) string
	}{
		{"telecom", []string{"data/tau2-telecom.jsonl.gz"}, func(e calibrateDocEval) string {
			return fmt.Sprintf("(`--kinds=false`) gives %s and %s", pct(e.Requests.Median, 1), pct(e.Requests.P90, 1))
		}},
		{"airline", []string{"data/tau2-airline.jsonl.gz", "--model", "gpt-4o"}, func(e calibrateDocEval) string {
			return fmt.Sprintf("(`--kinds=false`) the held-out median error is %s and p90 %s (KS %.3f)",
				pct(e.Requests.Median, 0), pct(e.Requests.P90, 0), e.RequestKS)
		}},
		{"airline first replies", []string{"data/tau2-airline.jsonl.gz", "--model", "gpt-4o"}, func(e calibrateDocEval) string {
			return fmt.Sprintf("the first replies' median error falls from %s", pct(e.FirstReply.Median, 1))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "one.json")
			args := append([]string{"calibrate", "--fit-on", "even", "--allow-unresolved", "--kinds=false", "--json", out, "-o", filepath.Join(t.TempDir(), "one.yaml")}, tc.args...)
			if stdout, code := runCLI(t, args...); code != 0 {
				t.Fatalf("calibrate --kinds=false: exit %d\n%s", code, stdout)
			}
			var cal struct {
				Models []struct {
					HeldOut calibrateDocEval `json:"held_out_latency"`
				} `json:"models"`
			}
			readJSON(t, out, &cal)
			if len(cal.Models) != 1 {
				t.Fatalf("%d model groups", len(cal.Models))
			}
			if want := tc.quote(cal.Models[0].HeldOut); !strings.Contains(page, want) {
				t.Errorf("docs/calibrate.md does not say %q", want)
			}
		})
	}
}

// calibrateDocEval is the part of calibrate's held-out evaluation the
// page's prose quotes.
type calibrateDocEval struct {
	Requests struct {
		Median float64 `json:"median_abs_rel_err"`
		P90    float64 `json:"p90_abs_rel_err"`
	} `json:"requests"`
	RequestKS  float64 `json:"request_ks"`
	FirstReply struct {
		Median float64 `json:"median_abs_rel_err"`
	} `json:"first_reply"`
}
