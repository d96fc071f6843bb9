package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestReportsSayWhichShard pins that the results of a shard (run.shard)
// say which shard they are, what share of the sessions read they hold
// and how to get the whole run, in the terminal summary, report.md and
// report.html (above the summary table), while a whole run's say nothing
// of shards. A shard's reports showed its numbers with no word.
func TestReportsSayWhichShard(t *testing.T) {
	const want = "1/2 of the run (run --shard: the sessions split by a hash of their id): 40 of the 81 sessions read; merge the shards (defersim merge) for the whole run"
	tests := []struct {
		name  string
		shard *sim.ShardInfo
		want  string // "" = no shard text anywhere
	}{
		{"shard 1/2", &sim.ShardInfo{Index: 1, Count: 2}, want},
		{"whole run", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := goldenResults(t)
			res.Run.Shard = tt.shard
			// The shard's sessions are those it replayed and skipped.
			c := &res.Run.Counts
			c.SessionsRead, c.SessionsReplayed, c.SessionsSkipped = 81, 38, 2
			var sum bytes.Buffer
			if err := Summary(&sum, res); err != nil {
				t.Fatal(err)
			}
			md := string(markdownReport(res, nil))
			page, err := htmlReport(res, nil)
			if err != nil {
				t.Fatal(err)
			}
			html := string(page)
			if tt.want == "" {
				for name, out := range map[string]string{"summary": sum.String(), "report.md": md, "report.html": html} {
					if strings.Contains(out, "Shard") || strings.Contains(out, "defersim merge") {
						t.Errorf("%s of a whole run mentions a shard:\n%s", name, out)
					}
				}
				return
			}
			if !strings.Contains(sum.String(), "\nShard:                "+want+"\n") {
				t.Errorf("summary lacks the shard line:\n%s", sum.String())
			}
			if !strings.Contains(md, "\n> **Shard:** "+want+".\n") {
				t.Errorf("report.md lacks the shard note:\n%s", md)
			}
			i := strings.Index(html, `<p class="warn"><strong>Shard:</strong> `+want+".</p>")
			if j := strings.Index(html, `<h2 id="summary">`); i < 0 || i > j {
				t.Errorf("report.html lacks the shard warning above the summary table (at %d, table at %d)", i, j)
			}
		})
	}
}
