package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// TestNoCacheKeepsTheCachedRate pins that calibrate, under a model without
// a prompt cache, neither fits nor writes latency.cached_prefill_tps: the
// rate keeps its starting value, says why, is not scaled by --jitter, and
// the written scenario (which a written rate would keep from loading)
// loads back, over a preset model block and a model written whole. The
// recorded cache reads count as uncached tokens, as the replay has them.
func TestNoCacheKeepsTheCachedRate(t *testing.T) {
	trace, cat := recorded(t)
	const note = "kept: not read: the model's cache.kind is none: no token is ever read from a prompt cache, so the cached prefill rate is never applied"
	tests := []struct {
		name  string
		base  string // "": no starting scenario (the model written whole)
		model func(*sim.Model)
		split string
	}{
		{"preset block, recorded split", "name: mine\nmodel:\n  preset: claude-sonnet-4.5\n  cache: {kind: none}\nstrategies: [eager]\n",
			func(m *sim.Model) { m.Cache = sim.CacheConfig{Kind: sim.CacheNone} }, SplitRecorded},
		{"model written whole", "", func(m *sim.Model) {
			m.Name = "local"
			m.Cache = sim.CacheConfig{Kind: sim.CacheNone}
		}, SplitAuto},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
			tt.model(&cfg.Model)
			start := cfg.Model.Latency.CachedPrefillTPS
			cfg.Split, cfg.Jitter = tt.split, true
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			mf := res.Models[0]
			var p *Param
			for i := range mf.Latency.Params {
				if mf.Latency.Params[i].Name == "cached_prefill_tps" {
					p = &mf.Latency.Params[i]
				}
			}
			if p == nil || p.Fitted || p.Value != start || p.Scenario != start || p.Note != note {
				t.Errorf("cached_prefill_tps: %+v, want kept at %v with %q", p, start, note)
			}
			if got := mf.ModelOut.Latency.CachedPrefillTPS; got != start {
				t.Errorf("calibrated rate %v, want the starting %v", got, start)
			}
			if mf.ModelOut.Latency.JitterCV <= 0 {
				t.Errorf("jitter_cv %v: want the fitted spread written (--jitter)", mf.ModelOut.Latency.JitterCV)
			}
			if tt.split != SplitAuto && mf.Latency.Split != tt.split {
				t.Errorf("split %s, want %s", mf.Latency.Split, tt.split)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "cal.yaml")
			opt := ScenarioOptions{Path: out, Catalogs: []string{cat}, Seed: 1, Inputs: []string{trace, cat}}
			if tt.base != "" {
				opt.Base, opt.BaseName = []byte(tt.base), "base.yaml"
			}
			ws, err := WriteScenarios(res, opt)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(ws[0].YAML), "cached_prefill_tps") {
				t.Errorf("the written scenario gives the unread rate:\n%s", ws[0].YAML)
			}
			if _, err := os.Stat(out); err != nil {
				t.Fatal(err)
			}
			got, err := scenarios.Load(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, ws[0].YAML)
			}
			if got.Model.Cache.Kind != sim.CacheNone || got.Model.Latency.PrefillTPS != mf.ModelOut.Latency.PrefillTPS ||
				got.Model.Latency.JitterCV != mf.ModelOut.Latency.JitterCV {
				t.Errorf("loaded model %+v, calibrated %+v", got.Model, mf.ModelOut)
			}
		})
	}
}
