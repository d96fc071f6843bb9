package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// writeTinyResults writes a results.json for two strategies × three sessions.
func writeTinyResults(t *testing.T, dir string) string {
	t.Helper()
	o := &sim.Outcomes{
		Strategies: []sim.Strategy{{Name: "eager"}, {Name: "lazy"}},
		SessionIDs: []string{"a", "b", "c"},
		Values:     make([][sim.NumMetrics][]float64, 2),
	}
	for s := range o.Values {
		for m := range sim.NumMetrics {
			o.Values[s][m] = []float64{1, 2, float64(3 + s)}
		}
	}
	res, err := report.Build(o, sim.RunInfo{Scenario: "tiny", ScenarioFingerprint: "tiny-fingerprint", Baseline: "eager"}, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "results.json")
	if err := report.WriteResults(path, res); err != nil {
		t.Fatal(err)
	}
	return path
}

func runReportCmd(args ...string) (string, error) {
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"report"}, args...))
	err := root.Execute()
	return out.String(), err
}

func TestReportCmd(t *testing.T) {
	src := t.TempDir()
	path := writeTinyResults(t, src)

	out, err := runReportCmd(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, filepath.Join(src, report.HTMLFile)) || !strings.Contains(out, "Cheapest:") {
		t.Errorf("output %q", out)
	}
	for _, f := range []string{report.HTMLFile, report.MarkdownFile, filepath.Join(report.PlotsDir, report.PlotTokens+".png")} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			t.Error(err)
		}
	}

	dst := filepath.Join(t.TempDir(), "elsewhere")
	if _, err := runReportCmd(path, "-o", dst); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(src, report.HTMLFile))
	b, err := os.ReadFile(filepath.Join(dst, report.HTMLFile))
	if err != nil || !bytes.Equal(a, b) {
		t.Errorf("report rendered into -o differs from the one next to results.json (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dst, report.ResultsFile)); err != nil {
		t.Errorf("results.json not copied next to the report: %v", err)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema_version": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runReportCmd(bad); err == nil || !strings.Contains(err.Error(), "schema_version 9") {
		t.Errorf("bad schema: %v", err)
	}
	if _, err := runReportCmd(); err == nil {
		t.Error("no argument accepted")
	}
}
