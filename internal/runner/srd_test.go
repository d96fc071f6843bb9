package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/sim"
)

// TestOwnSRDsChangeRoutedResults pins issue 15's criterion for a user's
// routing descriptions: with testdata/srd-default (SRDs of six of the
// embedded default's servers, five v1 and one v0.1) the routed strategy's
// results differ from those over the embedded set (which describes none of
// these servers), results.json names the set (count, hash, servers
// described), the report names it, and a strategy that reads no SRD is
// unchanged.
func TestOwnSRDsChangeRoutedResults(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`
name: srd
seed: 3
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
params: {select_prob: 0}
strategies:
  - claude-code-default
  - name: routed
    base: claude-code-default
    search: {mode: routed, k: 3}
    directory: {format: by-domain}
`), "srd.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	run := func(srd []string) *Output {
		t.Helper()
		return runScenario(t, sc, Overrides{SRD: srd})
	}
	embedded := run(nil)
	own := run([]string{filepath.Join("testdata", "srd-default")})

	e, o := embedded.Results.Run.SRD, own.Results.Run.SRD
	if e == nil || !e.Embedded || e.ServersDescribed != 0 || e.Servers != 10 {
		t.Errorf("embedded set = %+v, want the embedded set describing none of the 10 servers", e)
	}
	if o == nil || o.Embedded || o.Count != 6 || o.ServersDescribed != 6 || len(o.SHA256) != 64 ||
		!strings.Contains(o.Source, "srd-default") || strings.Join(o.UsedBy, ",") != "routed" {
		t.Errorf("own set = %+v, want 6 SRDs from srd-default describing 6 servers, read by routed", o)
	}
	for _, s := range []string{"claude-code-default", "routed"} {
		a, b := embedded.Results.Strategy(s), own.Results.Strategy(s)
		same := a.OutcomeDigest == b.OutcomeDigest
		if want := s == "claude-code-default"; same != want {
			t.Errorf("%s: outcomes the same with both SRD sets = %v, want %v", s, same, want)
		}
	}
	ea := embedded.Results.Strategy("routed").Metrics[sim.Metrics[sim.MSearchMisses].Name].Sum
	oa := own.Results.Strategy("routed").Metrics[sim.Metrics[sim.MSearchMisses].Name].Sum
	t.Logf("routed search misses: %v over the embedded SRDs, %v over srd-default", ea, oa)

	found := false
	for _, f := range report.Findings(own.Results) {
		found = found || (strings.Contains(f, "srd-default") && strings.Contains(f, "6 SRDs"))
	}
	if !found {
		t.Errorf("the report's findings do not name the SRD set: %q", report.Findings(own.Results))
	}
	found = false
	for _, f := range report.Findings(embedded.Results) {
		found = found || strings.Contains(f, "the embedded routing descriptions")
	}
	if !found {
		t.Errorf("the report does not say the embedded set was used: %q", report.Findings(embedded.Results))
	}
}

// TestOwnSRDsAreLinted pins that a user's SRD naming a tool the run's
// catalogs do not serve stops the run with the file and line.
func TestOwnSRDsAreLinted(t *testing.T) {
	dir := t.TempDir()
	bad := "srd_version: 1\nserver_id: maps\ndomain: places\ndisplay_name: Maps\nintent_triggers: [route]\n" +
		"disambiguation:\n  - {domain: other, differs: x}\npriority: 5\ntool_groups:\n  g: [no_such_tool]\n"
	writeFile(t, filepath.Join(dir, "maps.yaml"), bad)
	sc, err := scenarios.Parse([]byte("name: x\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n"), "x.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, Overrides{SRD: []string{dir}}, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "maps.yaml:") || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("err = %v, want the lint problem with file and line", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
