package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

func TestRenderWritesSelfContainedReport(t *testing.T) {
	res := sampleResults(t, 3, 40)
	res.Strategies[2].Name = `odd<b>"name"</b>|*x*`
	res.Run.Assumptions = append(res.Run.Assumptions, testAssumption("note", `<script>alert(1)</script>`))
	res.Run.Fidelity = &sim.Fidelity{Strategy: "eager", Requests: 120, InputMedianAbsRelErr: 0.0123, InputP90AbsRelErr: 0.05}
	dir := t.TempDir()
	if err := Render(res, dir, RenderOptions{WriteResults: true}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	h := string(html)
	for _, bad := range []string{"http://", "https://", "<script", "<b>"} {
		if strings.Contains(h, bad) {
			t.Errorf("report.html contains %q", bad)
		}
	}
	for _, want := range []string{"data:image/png;base64,", "&lt;b&gt;", "&lt;script&gt;", "anchor-e0-count30",
		"Assumptions and parameters", "Fidelity", "1.23%", "traces/synthetic.jsonl.gz", "truncated session", "o200k_base"} {
		if !strings.Contains(h, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if n := strings.Count(h, "<img "); n != 6 {
		t.Errorf("report.html has %d images, want 6", n)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(md), "<b>") || !strings.Contains(string(md), `\|`) {
		t.Error("report.md does not escape a strategy name")
	}
	for _, f := range figures(res) {
		for _, ext := range []string{".png", ".svg"} {
			if _, err := os.Stat(filepath.Join(dir, PlotsDir, f.Name+ext)); err != nil {
				t.Error(err)
			}
		}
		if !strings.Contains(string(md), "plots/"+f.Name+".png") {
			t.Errorf("report.md does not link %s", f.Name)
		}
	}
	back, err := ReadResults(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	// Re-rendering from the saved results gives the same report.
	dir2 := t.TempDir()
	if err := Render(back, dir2, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	// Every file, not report.html alone: docs/report.md says re-rendering
	// gives identical files, report.md and the plots included.
	for _, name := range append([]string{HTMLFile, MarkdownFile}, plotFiles(res)...) {
		first, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		again, err := os.ReadFile(filepath.Join(dir2, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(first) {
			t.Errorf("%s re-rendered from results.json differs", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir2, ResultsFile)); !os.IsNotExist(err) {
		t.Error("results.json written without WriteResults")
	}
}

// plotFiles returns the paths, under a report's directory, of the plots
// Render draws for res.
func plotFiles(res *Results) []string {
	var names []string
	for _, f := range figures(res) {
		for _, ext := range []string{".png", ".svg"} {
			names = append(names, filepath.Join(PlotsDir, f.Name+ext))
		}
	}
	return names
}

func TestRenderRejectsBadResults(t *testing.T) {
	if err := Render(nil, t.TempDir(), RenderOptions{}); err == nil {
		t.Error("nil results rendered")
	}
	if err := Render(&Results{SchemaVersion: 1}, t.TempDir(), RenderOptions{}); err == nil {
		t.Error("results without strategies rendered")
	}
}

// TestHTMLNumbersFormattedOnce pins one number formatter for every number
// the page writes: prices computed as input × multiplier once showed
// "cache read 0.30000000000000004", and counts had no separators.
func TestHTMLNumbersFormattedOnce(t *testing.T) {
	res := sampleResults(t, 2, 40)
	res.Prices.CacheRead = 3 * 0.1 // 0.30000000000000004
	res.Prices.CacheWrite = 3 * 1.25
	res.Run.Counts.LinesRead = 1234567
	res.Strategies[1].Parameters.Trigger.Percent = 0.1 + 0.2
	html, err := htmlReport(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := string(html)
	if strings.Contains(text, "0.30000000000000004") {
		t.Error("report.html writes float noise (0.30000000000000004)")
	}
	for _, want := range []string{"cache read 0.3,", "cache write 3.75,", "1,234,567", "trigger.percent=0.3"} {
		if !strings.Contains(text, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`[^0-9a-f]\d+\.\d{7,}`).FindString(text); m != "" {
		t.Errorf("report.html writes a number with 7 or more decimals: %q", m)
	}
}
