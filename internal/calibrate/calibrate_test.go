package calibrate

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces/gen"
	"github.com/defersim/defersim/traces/importers"
)

// recorded generates sessions "recorded" by an eager runtime: usage and
// timings with decode at 60 tokens/s and a log-normal time to first token
// that does not depend on the prompt.
func recorded(t *testing.T) (string, string) {
	t.Helper()
	p := gen.Defaults()
	p.Sessions, p.Recorded, p.Drift.Servers = 60, true, 0
	g, err := gen.New(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, gen.TraceFile), filepath.Join(dir, gen.CatalogDir)
}

func config(t *testing.T, trace, cat, model string) Config {
	t.Helper()
	c, err := runner.LoadCatalogs(runner.PathSources(cat))
	if err != nil {
		t.Fatal(err)
	}
	m, err := presets.Model(model)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Traces: []string{trace}, Catalog: c, Model: m, Params: presets.DefaultParams(), FitShare: 0.7, Seed: 1}
}

func TestCalibrateGenerated(t *testing.T) {
	trace, cat := recorded(t)
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5"))
	if err != nil {
		t.Fatal(err)
	}
	o := res.Overhead
	if o == nil || o.After == nil || o.Before == nil {
		t.Fatalf("no overhead fit: %v", res.Problems)
	}
	if !(o.After.InputMedianAbsRelErr < o.Before.InputMedianAbsRelErr && o.After.InputP90AbsRelErr < 0.01) {
		t.Errorf("held-out prompt error: before median %.4f, after median %.4f p90 %.4f",
			o.Before.InputMedianAbsRelErr, o.After.InputMedianAbsRelErr, o.After.InputP90AbsRelErr)
	}
	l := res.Latency
	if l == nil {
		t.Fatalf("no latency fit: %v", res.Problems)
	}
	if d := l.Latency.DecodeTPS; math.Abs(d-60)/60 > 0.15 {
		t.Errorf("decode %.1f tokens/s, the generator's is 60", d)
	}
	if l.HeldOut.MedianAbsRel >= l.HeldOutBefore.MedianAbsRel {
		t.Errorf("held-out latency error %.3f not below the preset's %.3f", l.HeldOut.MedianAbsRel, l.HeldOutBefore.MedianAbsRel)
	}
	// The snippet is a valid scenario fragment carrying the fitted values.
	doc := "name: calibrated\nstrategies: [eager]\n" + string(Snippet(res))
	sc, err := scenarios.Parse([]byte(doc), "calibrated.yaml", "")
	if err != nil {
		t.Fatalf("snippet does not parse: %v\n%s", err, doc)
	}
	if sc.Model.Latency != l.Latency || sc.Params.RequestOverheadTokens != o.RequestOverheadTokens ||
		sc.Params.MessageOverheadTokens != o.MessageOverheadTokens || sc.Model.Pricing.InputPerMTok != 3 {
		t.Errorf("parsed snippet: latency %+v, params %+v, pricing %+v", sc.Model.Latency, sc.Params, sc.Model.Pricing)
	}
}

func TestCalibrateBadConfig(t *testing.T) {
	for _, c := range []Config{{FitShare: 0}, {FitShare: 1}, {FitShare: 0.5, Loss: "l2"}, {FitShare: 0.5, Split: "x"}} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// importTau2 imports one tau2 results file with the leaderboard's tool listing.
func importTau2(t *testing.T, elems ...string) (string, string) {
	t.Helper()
	src := shareddata.Path(t, elems...)
	tools := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "task-data", "tools-data.json")
	out := filepath.Join(t.TempDir(), "tau2.jsonl.gz")
	if _, err := importers.Run(importers.Request{Format: "tau2", Inputs: []string{src}, Out: out, ToolFiles: []string{tools}}); err != nil {
		t.Fatal(err)
	}
	return out, out + ".catalog"
}

// TestTau2Telecom: the gpt-4o telecom run records usage and timestamps per
// request. Fitted on 70% of its 20 sessions, the prompt overhead must bring
// the held-out median error under 1% and the latency fit must beat the
// preset on held-out requests (docs/calibrate.md has the figures).
func TestTau2Telecom(t *testing.T) {
	trace, cat := importTau2(t, "sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json")
	res, err := Run(context.Background(), config(t, trace, cat, "gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 20 || res.WithUsage != res.Requests {
		t.Errorf("%d sessions, %d of %d requests with usage", res.Sessions, res.WithUsage, res.Requests)
	}
	if o := res.Overhead; o == nil || o.After.InputMedianAbsRelErr > 0.01 || o.After.InputMedianAbsRelErr >= o.Before.InputMedianAbsRelErr {
		t.Errorf("overhead fit: %+v", o)
	}
	if l := res.Latency; l == nil || l.HeldOut.MedianAbsRel >= l.HeldOutBefore.MedianAbsRel {
		t.Errorf("latency fit: %+v", l)
	}
}

// TestTau2Airline: the gpt-oss airline run has timestamps but no usage:
// only latency is fitted, on the replay's token split.
func TestTau2Airline(t *testing.T) {
	trace, cat := importTau2(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "submissions",
		"gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json")
	res, err := Run(context.Background(), config(t, trace, cat, "gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Overhead != nil || res.WithUsage != 0 || !strings.Contains(strings.Join(res.Problems, "\n"), "no model request has recorded token usage") {
		t.Errorf("overhead %v, %d requests with usage, problems %v", res.Overhead, res.WithUsage, res.Problems)
	}
	if l := res.Latency; l == nil || l.Split != SplitReplay || l.HeldOut.Requests == 0 {
		t.Errorf("latency fit: %+v", l)
	}
}
