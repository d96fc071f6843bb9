package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenResults are the small fixed results the golden files pin: three
// strategies × 40 sessions from a seeded RNG.
func goldenResults(t *testing.T) *Results {
	t.Helper()
	p := syntheticPrices
	res, err := Build(syntheticOutcomes(3, 40, 42), syntheticInfo(), BuildOptions{Prices: &p})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); run go test -update if the change is intended:\n%s", name, diff)
	}
}

func TestGoldenSummaryTable(t *testing.T) {
	var b strings.Builder
	writeMarkdownTable(&b, buildTable(goldenResults(t)))
	checkGolden(t, "summary_table.golden.md", []byte(b.String()))
}

func TestGoldenMarkdownReport(t *testing.T) {
	links := []plotLink{{Name: PlotTokens, Title: "Tokens per session"}, {Name: PlotFirstReply, Title: "First-reply latency"}}
	checkGolden(t, "report.golden.md", markdownReport(goldenResults(t), links))
}

func TestGoldenTerminalSummary(t *testing.T) {
	var buf bytes.Buffer
	if err := Summary(&buf, goldenResults(t)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 5 {
		t.Errorf("summary has %d lines, want 5", n)
	}
	checkGolden(t, "summary.golden.txt", buf.Bytes())
}
