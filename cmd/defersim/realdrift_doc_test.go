package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestRealDriftDocResults pins docs/real-drift.md's Results to the runs its
// Commands section gives: the two strategy tables are the rows report.md
// prints now (the baseline-eager run, and each keying pair with its
// name-keyed member as baseline), and the drift table's stale-warm,
// malformed and search counts of each keying are the metrics in
// results.json. The page's tables were written from these runs by hand;
// nothing compared them since.
func TestRealDriftDocResults(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 400 sessions three times with bootstrap intervals (-short)")
	}
	cats := shareddata.Path(t, "catalogs")
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "real-drift.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	scenario := filepath.Join("..", "..", "scenarios", "real-drift.yaml")
	tmp := t.TempDir()
	run := func(name string, args ...string) string {
		dir := filepath.Join(tmp, name)
		args = append([]string{"run", scenario, "--catalogs", cats, "-q", "-o", dir}, args...)
		if out, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%q: exit %d:\n%s", args, code, out)
		}
		return dir
	}
	rows := func(dir string, names ...string) []string {
		md, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(string(md), "\n") {
			for _, n := range names {
				if strings.HasPrefix(l, "| "+n+" ") {
					got = append(got, l)
				}
			}
		}
		if len(got) != len(names) {
			t.Fatalf("%s/report.md: %d rows for %q", dir, len(got), names)
		}
		return got
	}
	all := run("rd")
	want := rows(all, "eager (baseline)", "inline-name", "inline-fingerprint", "tools-array-name", "tools-array-fingerprint")
	want = append(want, rows(run("rd-inline", "--strategies", "inline-name,inline-fingerprint", "--baseline", "inline-name"), "inline-fingerprint")...)
	want = append(want, rows(run("rd-ta", "--strategies", "tools-array-name,tools-array-fingerprint", "--baseline", "tools-array-name"), "tools-array-fingerprint")...)
	for _, row := range want {
		if !strings.Contains(doc, "\n"+row+"\n") {
			t.Errorf("docs/real-drift.md lacks the row the run prints now:\n%s", row)
		}
	}

	res := readResultsFile(t, filepath.Join(all, "results.json"))
	for _, s := range res.Strategies {
		keying, ok := strings.CutPrefix(s.Name, "inline-")
		if !ok {
			continue
		}
		m := func(name string) string { return withCommas(int64(s.Metrics[name].Sum)) }
		var row string
		if keying == "name" {
			row = fmt.Sprintf("| name | %s | %s (all `missing_required`) | %s |", m("stale_warm_calls"), m("malformed_calls"), m("searches"))
		} else {
			row = fmt.Sprintf("| fingerprint | %s | %s | %s |", m("stale_warm_calls"), m("malformed_calls"), m("searches"))
		}
		if !strings.Contains(doc, "\n"+row) {
			t.Errorf("%s: docs/real-drift.md's drift table lacks %q", s.Name, row)
		}
	}
}

// withCommas writes n with thousands separators, as the docs write counts.
func withCommas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
