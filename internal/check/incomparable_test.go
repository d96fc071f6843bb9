package check

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestIncomparableMessageIsReadable pins the layout of the refusal of two
// files that cannot be compared: a first line saying in one sentence what
// they differ in, one indented line per reason (each differing input
// named once, baseline vs current; the assumptions that follow from the
// strategies under one line naming their keys, each value shown by the
// part that differs), then what to do. It was one line of about 2,500
// characters, joined by "; " and ", ", that spelled out every query
// model's paragraph twice.
func TestIncomparableMessageIsReadable(t *testing.T) {
	d := map[string]report.Distribution{"cost_usd": dist(1, 1, 1)}
	const words = "the first four content words of the latest user message (stopwords removed); else the name words — the query of ranked searches (keyword) of "
	const tail = " when the trace recorded none; a recorded query is replayed as recorded"
	run := func(fp, catalogs, keywordOf, trace string, strategies ...string) *report.Results {
		ms := map[string]map[string]report.Distribution{}
		for _, s := range strategies {
			ms[s] = d
		}
		r := results(fp, ms)
		r.Run.Assumptions = []sim.Assumption{
			{Name: "catalogs", Value: catalogs, Source: "run"},
			{Name: "query_model.content-words", Value: words + keywordOf + tail, Source: "engine"},
		}
		if len(strategies) > 1 {
			r.Run.Assumptions = append(r.Run.Assumptions, sim.Assumption{Name: "query_model.short-term",
				Value: "one short term: the longest word (3+ letters) of the tool's name — the query of ranked searches (substring) of c" + tail, Source: "engine"})
		}
		r.Run.Inputs = []sim.Input{{Kind: "trace", Path: "t.jsonl", SHA256: trace},
			{Kind: "catalog", Path: "cat.json", SHA256: trace + "c", Server: "s", Version: "1"}}
		return r
	}
	base := run("f", "the scenario's catalogs: embedded:catalog", "a, b", "aa", "a", "b", "c")
	cur := run("g", "the traces' own catalogs: air.jsonl.gz.catalog", "a", "bb", "a")
	inc := checkComparable(base, cur, nil, Allow{})
	if inc == nil {
		t.Fatal("comparable, want incomparable")
	}
	msg := inc.Error()
	lines := strings.Split(msg, "\n")
	if want := "results cannot be compared: the two files differ in their strategy sets, their scenarios and their trace files"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "  ") && l != "what to do:" {
			t.Errorf("line %q is neither a reason, a detail nor the remedies' header", l)
		}
	}
	for _, want := range []string{
		"\n  strategy sets differ: only in baseline: b, c\n",
		"\n  scenario fingerprint f (baseline, scenario \"t\") vs g (current, scenario \"t\")\n",
		"\n    catalogs: the scenario's catalogs: embedded:catalog vs the traces' own catalogs: air.jsonl.gz.catalog\n",
		"\n    strategy-dependent assumptions (they follow from the strategies; run.assumptions holds the whole values): query_model.content-words, query_model.short-term\n",
		"\n      query_model.content-words: …searches (keyword) of a, b when the trace… vs …searches (keyword) of a when the trace…\n",
		"\n      query_model.short-term: one short term: the longest word (3+ letters) of the tool's name — the query… vs (none)\n",
		"\n  trace files differ: 1 file in baseline, 1 in current, 0 in common by content\n",
		"\nwhat to do:\n  pass --strategies a to check the strategies both files hold\n",
		"\n  replay both runs with the same catalogs: the scenarios differ in more than strategies, which no --allow accepts",
		"\n  pass --allow traces to compare different session sets",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "stopwords removed"); n > 0 {
		t.Errorf("the text both query models share is spelled out %d times:\n%s", n, msg)
	}
}

// TestCompactPair pins how two values of an assumption are shown: whole
// when both are short, by the words that differ (with contextWords words
// around them) when long, and cut at shownValueChars when one side has
// none.
func TestCompactPair(t *testing.T) {
	long := strings.Repeat("shared words here ", 6)
	tests := []struct {
		name, a, b   string
		wantA, wantB string
	}{
		{"short", "0.5", "0.9", "0.5", "0.9"},
		{"absent short", "", "300", "(none)", "300"},
		{"differ in the middle", long + "of a, b when " + long, long + "of a when " + long,
			"…words here of a, b when shared words…", "…words here of a when shared words…"},
		{"differ at the start", "x " + long, "y " + long, "x shared words here…", "y shared words here…"},
		{"absent long", long, "", "shared words here shared words here shared words here shared words here shared…", "(none)"},
		{"one word, no space to cut at", strings.Repeat("é", 50), "", strings.Repeat("é", 40) + "…", "(none)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := compactPair(tc.a, tc.b)
			if a != tc.wantA || b != tc.wantB {
				t.Errorf("compactPair = %q, %q\nwant %q, %q", a, b, tc.wantA, tc.wantB)
			}
		})
	}
}
