package check

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestInputsMatchedByContent pins that check's list of changed inputs
// matches the files of two runs by content before path: the same traces
// and catalogs named from another directory (or a CI checkout at another
// path) were listed as every input "only in the baseline" and "only in
// current"; they are now "moved". A file whose content changed at the
// same path is still listed by its changed fields, as before.
func TestInputsMatchedByContent(t *testing.T) {
	trace := func(p, sha string) sim.Input { return sim.Input{Kind: "trace", Path: p, SHA256: sha, Bytes: 10} }
	cat := func(p, sha string) sim.Input {
		return sim.Input{Kind: "catalog", Path: p, SHA256: sha, Bytes: 20, Server: "gh", Version: "1.0"}
	}
	tests := []struct {
		name      string
		base, cur []sim.Input
		want      []string
	}{
		{"same", []sim.Input{trace("t.jsonl", "aa")}, []sim.Input{trace("t.jsonl", "aa")}, nil},
		{"moved", []sim.Input{trace("t.jsonl", "aa"), cat("cat/gh@1.0.json", "cc")},
			[]sim.Input{trace("ci/t.jsonl", "aa"), cat("ci/cat/gh@1.0.json", "cc")},
			[]string{"run.inputs[t.jsonl]: moved → ci/t.jsonl (same content)",
				"run.inputs[cat/gh@1.0.json]: moved → ci/cat/gh@1.0.json (same content)"}},
		{"changed at the same path", []sim.Input{cat("cat/gh@1.0.json", "cc")}, []sim.Input{cat("cat/gh@1.0.json", "dd")},
			[]string{"run.inputs[cat/gh@1.0.json].sha256: cc → dd"}},
		{"moved and changed: matched by file name", []sim.Input{cat("cat/gh@1.0.json", "cc")}, []sim.Input{cat("ci/cat/gh@1.0.json", "dd")},
			[]string{"run.inputs[cat/gh@1.0.json → ci/cat/gh@1.0.json].sha256: cc → dd"}},
		{"two of one name left: not guessed", []sim.Input{cat("a/gh@1.0.json", "cc"), cat("b/gh@1.0.json", "ee")},
			[]sim.Input{cat("c/gh@1.0.json", "dd"), cat("d/gh@1.0.json", "ff")},
			[]string{"run.inputs[a/gh@1.0.json]: only in the baseline", "run.inputs[b/gh@1.0.json]: only in the baseline",
				"run.inputs[c/gh@1.0.json]: only in current", "run.inputs[d/gh@1.0.json]: only in current"}},
		{"a file added and one removed", []sim.Input{trace("t.jsonl", "aa"), cat("cat/old.json", "cc")},
			[]sim.Input{trace("t.jsonl", "aa"), cat("cat/new.json", "dd")},
			[]string{"run.inputs[cat/old.json]: only in the baseline", "run.inputs[cat/new.json]: only in current"}},
		{"identical copies pair with their own path first", []sim.Input{trace("x.jsonl", "aa"), trace("y.jsonl", "aa")},
			[]sim.Input{trace("y.jsonl", "aa"), trace("x.jsonl", "aa")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := inputsDiff(tc.base, tc.cur); !slices.Equal(got, tc.want) {
				t.Errorf("inputsDiff:\n got %q\nwant %q", got, tc.want)
			}
			// And structuralDiff lists them so, among the run's other lines.
			b, c := &report.Results{}, &report.Results{}
			b.Run.Inputs, c.Run.Inputs = tc.base, tc.cur
			if got := structuralDiff(b, c); !slices.Equal(got, tc.want) {
				t.Errorf("structuralDiff:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
