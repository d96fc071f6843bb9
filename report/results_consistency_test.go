package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestResultsMustBeConsistent pins that a results file whose strategies
// lack a metric of the table (read as 0: plan projected $0 a day, check
// reported the check "missing" under "no regression"), hold one it does
// not list, count other sessions than the file, or whose mean or
// percentiles lie outside their min and max (a hand-edited mean) is
// refused, while a consistent one — a mean of equal values off in the last
// bits included — is read.
func TestResultsMustBeConsistent(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *Results)
		want string // "" = accepted
	}{
		{"consistent", func(*Results) {}, ""},
		{"mean rounded past max", func(r *Results) {
			d := r.Strategies[0].Metrics["cost_usd"]
			d.Mean = d.Max * (1 + 1e-15)
			r.Strategies[0].Metrics["cost_usd"] = d
		}, ""},
		{"no sessions, no values", func(r *Results) {
			r.Sessions = 0
			for _, s := range r.Strategies {
				for k := range s.Metrics {
					s.Metrics[k] = Distribution{}
				}
			}
		}, ""},
		{"metric missing", func(r *Results) { delete(r.Strategies[1].Metrics, "cost_usd") },
			`strategy "b" has no values for metric cost_usd of the metrics table`},
		{"metric not in the table", func(r *Results) { r.Metrics = r.Metrics[:1] },
			`strategy "a" has values for metric first_reply_ms, which the metrics table does not list`},
		{"count differs", func(r *Results) { r.Sessions = 0 }, `strategy "a" metric cost_usd counts 3 sessions, the file 0`},
		{"mean above max", func(r *Results) {
			d := r.Strategies[1].Metrics["cost_usd"]
			d.Mean = 1e300
			r.Strategies[1].Metrics["cost_usd"] = d
		},
			`strategy "b" metric cost_usd: mean 1e+300 is outside its min 0.1 and max 0.3`},
		{"negative mean", func(r *Results) {
			d := r.Strategies[1].Metrics["cost_usd"]
			d.Mean = -5
			r.Strategies[1].Metrics["cost_usd"] = d
		},
			`mean -5 is outside`},
		{"p95 below min", func(r *Results) {
			d := r.Strategies[0].Metrics["first_reply_ms"]
			d.P95 = 1
			r.Strategies[0].Metrics["first_reply_ms"] = d
		},
			`strategy "a" metric first_reply_ms: p95 1 is outside its min 100 and max 300`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := consistentResults()
			tc.edit(r)
			data, err := MarshalResults(r)
			if err != nil {
				t.Fatal(err)
			}
			_, err = DecodeResults(data)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// consistentResults is a small file as run writes it: two strategies,
// two metrics, three sessions.
func consistentResults() *Results {
	dist := func(lo, mean, hi float64) Distribution {
		return Distribution{Count: 3, Mean: mean, Sum: 3 * mean, Min: lo, P50: mean, P90: hi, P95: hi, P99: hi, Max: hi}
	}
	r := &Results{SchemaVersion: SchemaVersion, Sessions: 3,
		Metrics: []sim.Metric{{Name: "cost_usd"}, {Name: "first_reply_ms"}}}
	for _, name := range []string{"a", "b"} {
		r.Strategies = append(r.Strategies, StrategyResult{Name: name, Metrics: map[string]Distribution{
			"cost_usd": dist(0.1, 0.2, 0.3), "first_reply_ms": dist(100, 200, 300)}})
	}
	return r
}
