package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// renameCalls rewrites cfg's one trace so that every tool call names a
// tool of its own that no catalog holds, in decreasing order of name (so
// that the order calls come in is not the order of their keys).
func renameCalls(t *testing.T, cfg *Config) int {
	t.Helper()
	k := 0
	editEvents(t, cfg, "tool_call", func(ev map[string]any, _ int) {
		ev["tool"] = fmt.Sprintf("x%06d", 999999-k)
		k++
	})
	return k
}

// TestResolutionToolsBounded pins that a run whose calls name more
// distinct unknown tools than sim.MaxResolutionTools gives results
// byte-identical to the single run's when its shards are merged (in
// either order) and when it is resumed, and that the calls of the tools
// beyond are counted (run.resolution.unresolved_tools_other_calls) and
// said in the findings. Before, each part kept the first tools it met, so
// the merged results named other tools than the single run's.
func TestResolutionToolsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("replays generated sessions several times")
	}
	const K = sim.MaxResolutionTools
	cfg := smallConfig(t, []string{"eager", "claude-code-default"}, 600)
	cfg.Bootstrap = 50
	cfg.AllowUnresolved = true
	if n := renameCalls(t, &cfg); n <= K+200 {
		t.Fatalf("%d calls renamed, want more than %d", n, K+200)
	}

	single, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := &single.State.State.Resolution
	var kept int64
	for _, n := range st.Tools {
		kept += n
	}
	r := single.Results.Run.Resolution
	if len(st.Tools) != K || r.UnresolvedTools != K || r.UnresolvedOtherCalls == 0 || kept+r.UnresolvedOtherCalls != r.Unresolved {
		t.Fatalf("%d tools kept (%d calls), unresolved_tools %d, other calls %d, unresolved %d: want %d tools, the others' calls counted",
			len(st.Tools), kept, r.UnresolvedTools, r.UnresolvedOtherCalls, r.Unresolved, K)
	}
	beyond := fmt.Sprintf("and %s calls of further tools, beyond the first %d (bytewise)", fmtThousands(r.UnresolvedOtherCalls), K)
	found := false
	for _, f := range report.Findings(single.Results) {
		found = found || strings.Contains(f, beyond)
	}
	if !found {
		t.Fatalf("no finding says %q: %q", beyond, report.Findings(single.Results))
	}
	want := resultsBytes(t, single)

	checkSplitRuns(t, cfg, want, splitRuns{shards: 2, reversed: true, stopAfter: 300})
}

// fmtThousands prints n with a comma every three digits, as the report does.
func fmtThousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
