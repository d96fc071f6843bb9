package calibrate

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// recorded generates sessions "recorded" by an eager runtime: usage and
// timings with decode at 60 tokens/s and a log-normal time to first token
// (recorded as ttft_ms) that does not depend on the prompt. They are
// generated once per test binary; tests only read them.
func recorded(t *testing.T) (string, string) {
	t.Helper()
	genOnce.Do(func() {
		p := gen.Defaults()
		p.Sessions, p.Recorded, p.Drift.Servers = 60, true, 0
		g, err := gen.New(p)
		if err != nil {
			genErr = err
			return
		}
		if genDir, genErr = os.MkdirTemp("", "calibrate-test-"); genErr != nil {
			return
		}
		_, genErr = g.WriteDir(genDir, gen.WriteOptions{})
	})
	if genErr != nil {
		t.Fatal(genErr)
	}
	return filepath.Join(genDir, gen.TraceFile), filepath.Join(genDir, gen.CatalogDir)
}

var (
	genOnce sync.Once
	genDir  string
	genErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if genDir != "" {
		os.RemoveAll(genDir)
	}
	os.Exit(code)
}

func config(t *testing.T, trace, cat, model string, fitOn FitOn) Config {
	t.Helper()
	c, err := runner.LoadCatalogs(runner.PathSources(cat))
	if err != nil {
		t.Fatal(err)
	}
	m, err := presets.Model(model)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Data: Data{Traces: []string{trace}, FitOn: fitOn, Seed: 1}, Catalog: c, Model: m, Params: presets.DefaultParams()}
}

// noNegativeRate fails when a calibrated rate is not positive and finite or
// the overhead is negative (issue 16: one fit had a negative prefill rate).
func noNegativeRate(t *testing.T, l *LatencyFit) {
	t.Helper()
	lat := l.Latency
	for _, v := range []float64{lat.PrefillTPS, lat.CachedPrefillTPS, lat.DecodeTPS} {
		if !(v > 0) || math.IsInf(v, 0) || v > MaxRateTPS {
			t.Errorf("rate %v in %+v", v, lat)
		}
	}
	if !(lat.OverheadMs >= 0) {
		t.Errorf("overhead %v", lat.OverheadMs)
	}
}

// TestCalibrateGenerated: on generated sessions that record time to first
// token, the fit separates it from decoding and recovers the generator's
// 60 tokens/s; the prompt overhead fit brings held-out token error under 1%.
func TestCalibrateGenerated(t *testing.T) {
	trace, cat := recorded(t)
	res, err := Run(context.Background(), config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitShare, Share: 0.7}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 1 {
		t.Fatalf("%d model groups", len(res.Models))
	}
	mf := res.Models[0]
	o := mf.Overhead
	if o == nil || o.After == nil || o.Before == nil {
		t.Fatalf("no overhead fit: %v", mf.Problems)
	}
	if !(o.After.InputMedianAbsRelErr < o.Before.InputMedianAbsRelErr && o.After.InputP90AbsRelErr < 0.01) {
		t.Errorf("held-out prompt error: before median %.4f, after median %.4f p90 %.4f",
			o.Before.InputMedianAbsRelErr, o.After.InputMedianAbsRelErr, o.After.InputP90AbsRelErr)
	}
	l := mf.Latency
	if l == nil || mf.HeldOut == nil {
		t.Fatalf("no latency fit: %v", mf.Problems)
	}
	noNegativeRate(t, l)
	if !l.TTFT {
		t.Error("every request records ttft_ms, yet TTFT was not fitted separately")
	}
	if d := l.Latency.DecodeTPS; math.Abs(d-60)/60 > 0.05 {
		t.Errorf("decode %.1f tokens/s, the generator's is 60", d)
	}
	ev := mf.HeldOut
	if ev.TTFT == nil || ev.Requests.MedianAbsRel >= ev.RequestsBefore.MedianAbsRel {
		t.Errorf("held-out latency: %+v", ev)
	}
	if l.Latency.JitterCV != 0 {
		t.Errorf("jitter %v written without Jitter", l.Latency.JitterCV)
	}
}

func TestCalibrateBadConfig(t *testing.T) {
	for _, c := range []Config{
		{Data: Data{FitOn: FitOn{Kind: FitShare}}},
		{Data: Data{FitOn: FitOn{Kind: FitShare, Share: 1}}},
		{Data: Data{FitOn: FitOn{Kind: FitAll}}}, // nothing held out
		{Data: Data{FitOn: FitOn{Kind: "most"}}},
		{Data: Data{FitOn: FitOn{Kind: FitEven}}, Loss: "l2"},
		{Data: Data{FitOn: FitOn{Kind: FitEven}}, Split: "x"},
		{Data: Data{FitOn: FitOn{Kind: FitEven}}, Residuals: "relative"},
	} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestParseFitOn(t *testing.T) {
	tests := []struct {
		in   string
		want FitOn
		err  bool
	}{
		{"0.7", FitOn{Kind: FitShare, Share: 0.7}, false},
		{"1", FitOn{Kind: FitAll}, false},
		{"even", FitOn{Kind: FitEven}, false},
		{" Odd ", FitOn{Kind: FitOdd}, false},
		{"all", FitOn{Kind: FitAll}, false},
		{"0", FitOn{}, true},
		{"1.5", FitOn{}, true},
		{"half", FitOn{}, true},
	}
	for _, tt := range tests {
		got, err := ParseFitOn(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseFitOn(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

// writeSessions writes n minimal sessions with ids s0..s(n-1).
func writeSessions(t *testing.T, path string, ids ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := traces.NewWriter(f, false)
	for _, id := range ids {
		if err := w.Write(&traces.Event{Type: traces.SessionStart, Session: id, T: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), StartFields: &traces.StartFields{Model: "claude-sonnet-4-5-20250929"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestRoles pins which sessions are fitted on and which are judged on:
// even/odd by position across the calibration traces, every test session
// held out (a test session that is also fitted on is a repeated session:
// TestScanGroupsStopsAtARepeatedSession).
func TestRoles(t *testing.T) {
	dir := t.TempDir()
	a, b, test := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "t.jsonl")
	writeSessions(t, a, "s0", "s1", "s2")
	writeSessions(t, b, "s3", "s4")
	writeSessions(t, test, "t0", "t1")
	roles := func(d Data) string {
		var b strings.Builder
		for it, err := range d.source("", true)() {
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(it.Session.ID + "=" + []string{"u", "f", "h"}[it.Role] + " ")
		}
		return strings.TrimSpace(b.String())
	}
	tests := []struct {
		d    Data
		want string
	}{
		{Data{Traces: []string{a, b}, FitOn: FitOn{Kind: FitEven}}, "s0=f s1=h s2=f s3=h s4=f"},
		{Data{Traces: []string{a, b}, FitOn: FitOn{Kind: FitOdd}}, "s0=h s1=f s2=h s3=f s4=h"},
		{Data{Traces: []string{a, b}, Test: []string{test}, FitOn: FitOn{Kind: FitAll}}, "s0=f s1=f s2=f s3=f s4=f t0=h t1=h"},
		{Data{Traces: []string{a, b}, Test: []string{test}, FitOn: FitOn{Kind: FitEven}}, "s0=f s1=u s2=f s3=u s4=f t0=h t1=h"},
	}
	for _, tt := range tests {
		if got := roles(tt.d); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.d, got, tt.want)
		}
	}
	groups, nTest, err := scanGroups(&Data{Traces: []string{a}, Test: []string{test}, FitOn: FitOn{Kind: FitAll}})
	if err != nil || nTest != 2 || len(groups) != 1 || groups[0].key != "claude-sonnet-4.5" || groups[0].fit != 3 || groups[0].held != 2 {
		t.Errorf("groups %+v, %d test sessions, %v", groups, nTest, err)
	}
}

func TestKSDistance(t *testing.T) {
	tests := []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0},
		{[]float64{1, 2}, []float64{3, 4}, 1},
		{[]float64{1, 2, 3, 4}, []float64{3, 4, 5, 6}, 0.5},
		{[]float64{1, 1, 2}, []float64{1, 2, 2}, 1.0 / 3},
	}
	for _, tt := range tests {
		if got := ksDistance(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("ks(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestWriteScenarioKeepsSettings pins issue 15: the calibrated values go
// into the starting scenario's model block and params, so a cache the user
// set (here: none) and other settings survive, whatever form the model key
// takes; the written scenario loads and carries the calibrated values.
func TestWriteScenarioKeepsSettings(t *testing.T) {
	trace, cat := recorded(t)
	bases := map[string]string{
		"mapping": "name: mine\nseed: 7\nmodel:\n  preset: claude-sonnet-4.5\n  cache: {kind: none}\nparams:\n  user_think_ms: 5000 # keep me\nstrategies: [eager, anchor-e1-budget8k]\n",
		"scalar":  "name: mine\nmodel: claude-sonnet-4.5\nparams: {user_think_ms: 5000}\nstrategies: [eager, anchor-e1-budget8k]\n",
		"absent":  "name: mine\nparams: {user_think_ms: 5000}\nstrategies: [eager, anchor-e1-budget8k]\n",
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			bp := filepath.Join(dir, "base.yaml")
			if err := os.WriteFile(bp, []byte(base), 0o644); err != nil {
				t.Fatal(err)
			}
			sc, err := scenarios.Load(bp)
			if err != nil {
				t.Fatal(err)
			}
			cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
			cfg.Model, cfg.Params = sc.Model, sc.Params
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out", "cal.yaml")
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			ws, err := WriteScenarios(res, ScenarioOptions{Path: out, Base: []byte(base), BaseName: bp, Catalogs: []string{cat}, Seed: 1, Inputs: []string{trace, cat, bp}})
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != 1 || ws[0].HeldOut == "" {
				t.Fatalf("written %+v", ws)
			}
			got, err := scenarios.Load(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, ws[0].YAML)
			}
			if err := got.CheckPaths(); err != nil {
				t.Errorf("paths: %v\n%s", err, ws[0].YAML)
			}
			mf := res.Models[0]
			if got.Model.Cache != sc.Model.Cache || got.Model.Latency != mf.Latency.Latency || got.Params.UserThinkMs != 5000 ||
				got.Params.RequestOverheadTokens != mf.Overhead.RequestOverheadTokens || len(got.Strategies) != 2 || got.Name != "mine" {
				t.Errorf("written scenario lost settings:\n%s", ws[0].YAML)
			}
			if name == "mapping" && !strings.Contains(string(ws[0].YAML), "# keep me") {
				t.Errorf("comment lost:\n%s", ws[0].YAML)
			}
			// The held-out file holds exactly the held-out sessions.
			n := 0
			for _, err := range readFile(ws[0].HeldOut) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != mf.HeldSessions {
				t.Errorf("%d sessions in the held-out file, %d held out", n, mf.HeldSessions)
			}
			// Never over an input.
			if _, err := WriteScenarios(res, ScenarioOptions{Path: bp, Base: []byte(base), Catalogs: []string{cat}, Inputs: []string{bp}}); err == nil {
				t.Error("wrote over the starting scenario")
			}
		})
	}
}

// TestJitterIsAChoice: jitter_cv is measured always but written only when
// asked, with the times scaled so the jittered median is the prediction.
func TestJitterIsAChoice(t *testing.T) {
	trace, cat := recorded(t)
	cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
	cfg.Jitter = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := res.Models[0].Latency
	if l.JitterCV <= 0 || l.Latency.JitterCV != l.JitterCV {
		t.Fatalf("jitter: fitted %v, written %v", l.JitterCV, l.Latency.JitterCV)
	}
	c := math.Sqrt(1 + l.JitterCV*l.JitterCV)
	if want := l.Params[3].Value / c; math.Abs(l.Latency.DecodeTPS-want) > 0.06 {
		t.Errorf("decode %v with jitter, want %v", l.Latency.DecodeTPS, want)
	}
	if lat := res.Models[0].ModelOut.Latency; withJitter(lat, 0, true) != lat || lat != l.Latency {
		t.Error("withJitter(0) changed the latency, or the model carries another")
	}
}

// TestFitsPerModel: sessions recording three models (two spelled as vendors
// do, one without a preset) are calibrated apart, each from its own preset
// or, for the unknown one, from the scenario's with a warning naming it;
// one scenario is written per model.
func TestFitsPerModel(t *testing.T) {
	_, cat := recorded(t)
	dir := t.TempDir()
	names := []string{"gpt-4o-2024-08-06", "claude-sonnet-4-5", "claude-opus-4-6"}
	mixed := rewrite(t, "mixed.jsonl.gz", func(i int, s *traces.Session) { s.Start().EnsureStart().Model = names[i%3] })
	cfg := config(t, mixed, cat, "claude-haiku-4.5", FitOn{Kind: FitEven})
	cfg.UseRecorded = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mf := range res.Models {
		got = append(got, mf.Recorded+"→"+mf.Model+"/"+mf.ModelSource)
		if mf.Latency == nil || mf.Sessions != 20 {
			t.Errorf("%s: %d sessions, latency %v, problems %v", mf.Model, mf.Sessions, mf.Latency, mf.Problems)
		}
	}
	want := "gpt-4o-2024-08-06→gpt-4o/recorded claude-sonnet-4-5→claude-sonnet-4.5/recorded claude-opus-4-6→claude-haiku-4.5/fallback"
	if strings.Join(got, " ") != want {
		t.Errorf("groups %v, want %s", got, want)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `"claude-opus-4-6", which has no preset: calibrating them from the claude-haiku-4.5 preset`) {
		t.Errorf("warnings %q", res.Warnings)
	}
	// The groups' tokenizers differ (gpt-4o's own, two stand-ins): the
	// stand-in wording is on each Claude group's heading, not the summary.
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"residuals; tokenizer o200k_base\n", "\ntokenizer o200k_base × 1 (a stand-in: claude-sonnet-4.5's tokenizer is not published)\n",
		"\ntokenizer o200k_base × 1 (a stand-in: claude-haiku-4.5's tokenizer is not published)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	ws, err := WriteScenarios(res, ScenarioOptions{Path: filepath.Join(dir, "cal.yaml"), Catalogs: []string{cat}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range ws {
		sc, err := scenarios.Load(w.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		if m := res.Models[k]; sc.Model.Name != m.Model || filepath.Base(w.Scenario) != "cal."+m.Model+".yaml" {
			t.Errorf("%s: model %s", w.Scenario, sc.Model.Name)
		}
	}
}
