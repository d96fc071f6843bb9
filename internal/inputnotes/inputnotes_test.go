package inputnotes

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestTallyKeepsTheMostCompleteRead pins how a command that reads a trace
// several times counts it once: per file, the read with the most lines,
// then the most sessions yielded (a read stopped after its first session
// may have decoded every line: it said "1 of 1 sessions read have no
// session_end" for calibrate, whose first read stops at the first
// session's model), whatever the order of the reads; and that clean
// counts make empty notes (OrNil nil, no warning).
func TestTallyKeepsTheMostCompleteRead(t *testing.T) {
	full := traces.Counts{Lines: 767, Events: 767, Sessions: 20, Incomplete: 1, Backwards: 1,
		FirstBackwards: []traces.Problem{{File: "t.jsonl", Line: 24, Reason: "time goes backwards"}}}
	early := full
	early.Sessions = 1
	short := traces.Counts{Lines: 10, Events: 10, Sessions: 1, Incomplete: 1}
	clean := traces.Counts{Lines: 5, Events: 5, Sessions: 1}
	tests := []struct {
		name  string
		reads []traces.Counts // of t.jsonl, in order
		notes []catalog.Note
		want  []string // Warnings(""), in order
	}{
		{name: "early read first", reads: []traces.Counts{short, early, full, early},
			want: []string{"1 trace event is earlier", "t.jsonl:24: time goes backwards", "1 of 20 sessions read has no session_end"}},
		{name: "full read first", reads: []traces.Counts{full, short, early},
			want: []string{"1 trace event is earlier", "t.jsonl:24: time goes backwards", "1 of 20 sessions read has no session_end"}},
		{name: "catalog notes first", reads: []traces.Counts{clean},
			notes: []catalog.Note{{Kind: catalog.NoteNoTools, Count: 7, Items: []string{"a@1", "b@1", "c@1", "d@1", "e@1", "f@1"}}},
			want:  []string{"catalogs: 7 server versions serve no tools (the file lists none): a@1, b@1, c@1, d@1, e@1, … (2 more)"}},
		{name: "clean", reads: []traces.Counts{clean, clean}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tally Tally
			for _, c := range tc.reads {
				tally.Add("t.jsonl", c)
			}
			n := tally.Notes(tc.notes)
			got := n.Warnings("")
			if len(got) != len(tc.want) {
				t.Fatalf("warnings %q, want %d lines starting %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("warning %d = %q, want it to start %q", i, got[i], w)
				}
			}
			if (n.OrNil() == nil) != (len(tc.want) == 0) {
				t.Errorf("OrNil() = %v for warnings %q", n.OrNil(), got)
			}
		})
	}
}
