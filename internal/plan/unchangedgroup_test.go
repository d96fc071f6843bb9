package plan

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnchangedSaysAReasonOnce pins that the strategies a sweep left
// unchanged for one reason are listed on one line: a user_think_ms sweep
// over the embedded traces printed the same "all 2300 user pauses after
// the first are recorded" line twelve times, once per strategy.
func TestUnchangedSaysAReasonOnce(t *testing.T) {
	const recorded = "it changes nothing: all 3 user pauses after the first are recorded in the trace"
	for _, tc := range []struct {
		name     string
		us       []Unchanged
		text, md string
	}{
		{"one reason for all", []Unchanged{{"eager", recorded}, {"a", recorded}, {"b", recorded}},
			"  eager, a, b: " + recorded + "\n",
			"- **eager**, **a**, **b**: " + recorded + "\n"},
		{"two reasons, in order of first use", []Unchanged{{"eager", "x"}, {"a", ""}, {"b", "x"}},
			"  eager, b: x\n  a: no reason derived\n",
			"- **eager**, **b**: x\n- **a**: no reason derived\n"},
		{"one strategy", []Unchanged{{"eager", "x"}}, "  eager: x\n", "- **eager**: x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var text, md bytes.Buffer
			WriteUnchanged(&text, "params.k", tc.us)
			WriteUnchangedMarkdown(&md, "params.k", tc.us)
			want := "unchanged at every value of params.k (every outcome of every session identical):\n" + tc.text
			if d := cmp.Diff(want, text.String()); d != "" {
				t.Errorf("text (-want +got):\n%s", d)
			}
			wantMD := "\nUnchanged at every value of params.k (every outcome of every session identical):\n\n" + tc.md
			if d := cmp.Diff(wantMD, md.String()); d != "" {
				t.Errorf("markdown (-want +got):\n%s", d)
			}
		})
	}
}
