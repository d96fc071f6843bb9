package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestProjectWarnsOnDoubtfulResults pins that a projection from results
// whose run replayed far more unresolved calls than its limit
// (--allow-unresolved), skipped sessions, or replayed a shard's share says
// so in projection.warnings and in the text and Markdown plans, and so do
// sessions without a user message, whose first reply is not one: plan
// printed "$79/day" from a run whose catalogs resolved 11% of the calls,
// with no word, and projected a shard as if it were the run.
func TestProjectWarnsOnDoubtfulResults(t *testing.T) {
	unres := func(share, limit float64) *sim.ResolutionInfo {
		return &sim.ResolutionInfo{Resolution: sim.Resolution{Calls: 1000}, Unresolved: int64(share * 1000),
			UnresolvedShare: share, MaxUnresolvedShare: limit, AllowUnresolved: share > limit}
	}
	tests := []struct {
		name   string
		counts sim.Counts
		res    *sim.ResolutionInfo
		want   []string // substrings, one per warning; nil = none
	}{
		{"whole clean run", sim.Counts{SessionsRead: 100, SessionsReplayed: 100}, unres(0, 0.01), nil},
		{"unresolved within the limit", sim.Counts{SessionsRead: 100, SessionsReplayed: 100}, unres(0.005, 0.01), nil},
		{"results of an earlier build", sim.Counts{SessionsRead: 100, SessionsReplayed: 100}, nil, nil},
		{"unresolved allowed past the limit", sim.Counts{SessionsRead: 100, SessionsReplayed: 100}, unres(0.887, 0.01),
			[]string{"88.7% of the traces' tool calls (887 of 1000) did not resolve against the run's catalogs, more than its limit of 1.0%"}},
		{"skipped sessions", sim.Counts{SessionsRead: 100, SessionsReplayed: 97, SessionsSkipped: 3}, nil,
			[]string{"3 of the 100 sessions read failed to replay"}},
		{"a shard", sim.Counts{SessionsRead: 100, SessionsReplayed: 51}, nil,
			[]string{"the results are of a shard: 51 of the 100 sessions read"}},
		// Sessions without a user message: the projection's first reply
		// carried their session's length with no word (63 s p95 where the
		// whole trace gave 2.5 s).
		{"sessions without a user message", sim.Counts{SessionsRead: 100, SessionsReplayed: 100, SessionsWithoutUser: 1}, nil,
			[]string{"1 of 100 sessions has no user message: its first_reply_ms runs from the session's start to its end, not to a first reply (docs/engine.md §5); drop it"}},
	}
	// The sessions record the model they were recorded with; those of
	// another model than the run's are priced as the run's. plan projected
	// 200 tau-bench sessions recorded with gpt-4o at claude-sonnet-4.5's
	// prices with no word, where run's summary says it. Sessions recording
	// no model at all were projected as the run's model with no word too
	// (the 15 ToolBench answers, as claude-sonnet-4.5).
	models := []struct {
		name   string
		models []sim.RecordedModel
		want   []string
	}{
		{"sessions of the run's model", []sim.RecordedModel{{Model: "claude-sonnet-4-5", Sessions: 100, Scenario: true}}, nil},
		{"sessions recording no model", []sim.RecordedModel{{Model: "", Sessions: 100}},
			[]string{"100 of 100 sessions record no model; the projection prices and times them as m, the run's model, which they do not name"}},
		{"sessions of another model and none", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 60}, {Model: "", Sessions: 40}},
			[]string{`60 of 100 sessions were recorded with another model than the run's ("gpt-4o" in 60; 40 record no model)`}},
		{"sessions of another model", []sim.RecordedModel{{Model: "gpt-4o", Sessions: 60}, {Model: "claude-sonnet-4-5", Sessions: 40, Scenario: true}},
			[]string{`60 of 100 sessions were recorded with another model than the run's ("gpt-4o" in 60); the projection prices and times them as m`}},
	}
	for _, tc := range models {
		t.Run(tc.name, func(t *testing.T) {
			res := countsResults(sim.RunInfo{Scenario: "s", Model: "m", RecordedModels: tc.models,
				Counts: sim.Counts{SessionsRead: 100, SessionsReplayed: 100}})
			p, err := Project(res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", p.Warnings, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(p.Warnings[i], w) {
					t.Errorf("warning %q, want %q", p.Warnings[i], w)
				}
			}
		})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := countsResults(sim.RunInfo{Scenario: "s", Counts: tc.counts, Resolution: tc.res})
			p, err := Project(res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", p.Warnings, len(tc.want))
			}
			var text, md strings.Builder
			if err := WriteProjection(&text, p); err != nil {
				t.Fatal(err)
			}
			if err := WriteProjectionMarkdown(&md, p); err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				if !strings.Contains(p.Warnings[i], w) {
					t.Errorf("warning %q, want %q", p.Warnings[i], w)
				}
				if !strings.Contains(text.String(), "warning: "+p.Warnings[i]) || !strings.Contains(md.String(), "> **Warning:**") {
					t.Errorf("warning %q not in the text or Markdown plan:\n%s\n%s", w, text.String(), md.String())
				}
			}
		})
	}
}

// TestProjectWarningNamesTheShard pins that the shard warning names the
// shard from results.json run.shard ("shard 1/2"), also for a shard that
// holds every session read, and keeps the count-based wording for results
// of builds that did not record run.shard. It said "the results are of a
// shard" whatever the file named.
func TestProjectWarningNamesTheShard(t *testing.T) {
	tests := []struct {
		name   string
		counts sim.Counts
		shard  *sim.ShardInfo
		want   string // "" = no warning
	}{
		{"shard 1/2", sim.Counts{SessionsRead: 100, SessionsReplayed: 51}, &sim.ShardInfo{Index: 1, Count: 2},
			"the results are of shard 1/2 of a run (run --shard): 51 of the 100 sessions read; merge the shards (defersim merge) to project the whole run"},
		{"shard holding every session", sim.Counts{SessionsRead: 3, SessionsReplayed: 3}, &sim.ShardInfo{Index: 0, Count: 4},
			"the results are of shard 0/4 of a run (run --shard): 3 of the 3 sessions read"},
		{"shard of an earlier build", sim.Counts{SessionsRead: 100, SessionsReplayed: 49}, nil,
			"the results are of a shard: 49 of the 100 sessions read (run --shard)"},
		{"whole run", sim.Counts{SessionsRead: 100, SessionsReplayed: 100}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := countsResults(sim.RunInfo{Scenario: "s", Counts: tc.counts, Shard: tc.shard})
			p, err := Project(res, Options{SessionsPerDay: 1000})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && len(p.Warnings) > 0:
				t.Errorf("warnings %q, want none", p.Warnings)
			case tc.want != "" && (len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], tc.want)):
				t.Errorf("warnings %q, want one with %q", p.Warnings, tc.want)
			}
		})
	}
}

// countsResults is a results file of one strategy whose projected metrics
// each count run's replayed sessions.
func countsResults(run sim.RunInfo) *report.Results {
	ms := map[string]report.Distribution{}
	for _, m := range projected {
		ms[m] = report.Distribution{Count: int(run.Counts.SessionsReplayed)}
	}
	return &report.Results{Sessions: int(run.Counts.SessionsReplayed), Run: run,
		Strategies: []report.StrategyResult{{Name: "a", Metrics: ms}}}
}
