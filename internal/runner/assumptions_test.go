package runner

import (
	"strings"
	"testing"
)

// TestAssumptionsAreGenerated pins issue 15's "assumption notes are
// generated from what the engine does": a ranked strategy's query model is
// named with its mode and strategy, exact select is stated only for the
// strategies that use it, no note claims ranked modes fall back to exact
// select (the hand-written note that did was false), and the latency
// source and the catalogs' source are stated.
func TestAssumptionsAreGenerated(t *testing.T) {
	out := runYAML(t, `name: a
traces: [embedded:trace.jsonl.gz]
catalogs: [embedded:catalog]
strategies:
  - anchor-e1-budget8k
  - name: exact
    base: anchor-e1-budget8k
    search: {mode: select}
  - name: ranked
    base: anchor-e1-budget8k
    search: {mode: bm25, k: 5}
  - name: words
    base: anchor-e1-budget8k
    search: {mode: keyword, k: 5}
`, Overrides{})
	got := map[string]string{}
	for _, a := range out.Info.Assumptions {
		got[a.Name] = a.Value + " | " + a.Source
		if strings.Contains(strings.ToLower(a.Value), "fall back") {
			t.Errorf("assumption %s claims a fallback: %q", a.Name, a.Value)
		}
	}
	for name, want := range map[string][]string{
		"query_model.user-text":     {"(bm25)", "of ranked", "recorded query is replayed as recorded"},
		"query_model.content-words": {"(keyword)", "of words"},
		"query_model.short-term":    {"(substring)", "of anchor-e1-budget8k"},
		"search.select":             {"for exact"},
		"latency.prefill_tps":       {"model preset claude-sonnet-4.5", "not calibrated"},
		"catalogs":                  {"embedded:catalog"},
		"permissions":               {"every call allowed"},
	} {
		v, ok := got[name]
		if !ok {
			t.Errorf("no assumption %s among %v", name, got)
			continue
		}
		for _, w := range want {
			if !strings.Contains(v, w) {
				t.Errorf("%s = %q, want it to say %q", name, v, w)
			}
		}
	}
	if v := got["search.select"]; strings.Contains(v, "ranked") || strings.Contains(v, "words") || strings.Contains(v, "anchor") {
		t.Errorf("search.select = %q names a ranked strategy", v)
	}
}

// TestRelistProbAssumption pins that a run lists params.relist_prob among
// its assumptions, set or at the default 0 (a version change lists
// nothing), with what it models. (It was listed only when set, while the
// list did not state every parameter in force.)
func TestRelistProbAssumption(t *testing.T) {
	for _, tc := range []struct {
		params string
		want   string
	}{
		{"", "0"},
		{"params: {relist_prob: 0.25}\n", "0.25"},
	} {
		out := runYAML(t, "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\n"+tc.params, Overrides{})
		got := ""
		for _, a := range out.Info.Assumptions {
			if a.Name == "relist_prob" {
				got = a.Value
				if !strings.Contains(a.Source, "tools/list") {
					t.Errorf("relist_prob source %q does not say what it models", a.Source)
				}
			}
		}
		if got != tc.want {
			t.Errorf("%q: relist_prob assumption %q, want %q", tc.params, got, tc.want)
		}
	}
}

// TestLatencySourceOfARenamedPreset pins that a model built from a preset
// and renamed ({preset: gpt-4o, name: my-gpt}) states its latency as that
// preset's defaults, not calibrated: it read "scenario model latency (set
// or calibrated)", because the source was looked up by the model's name.
// A latency the scenario sets is still the scenario's.
func TestLatencySourceOfARenamedPreset(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"{preset: gpt-4o, name: my-gpt}", "model preset gpt-4o's defaults"},
		{"{preset: gpt-4o, name: my-gpt, latency: {decode_tps: 45}}", "scenario model latency (set or calibrated)"},
	} {
		out := runYAML(t, "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager]\nmodel: "+tc.model+"\n", Overrides{})
		got := ""
		for _, a := range out.Info.Assumptions {
			if a.Name == "latency.prefill_tps" {
				got = a.Source
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: latency source %q, want it to say %q", tc.model, got, tc.want)
		}
	}
}
