package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestQueryTableReturnsWhatUncachedReturns pins the session's query table
// (querytable.go): over searches with repeated and new queries, rankers
// (nested and not) and k, every call size and ranking it gives equals
// what the ranker and the tokenizer give without any memo; it keeps one
// entry per distinct query, answers -1 when full or when a query would
// exceed its bytes (and the searches still get the right answers), and
// starts empty with each session.
func TestQueryTableReturnsWhatUncachedReturns(t *testing.T) {
	e := newTestEngine(t, nil, nil)
	r := newReplayer(e)
	names := make([]string, 2*minNestedK+5)
	for i := range names {
		names[i] = fmt.Sprintf("t%02d", i)
	}
	nested, _ := newMemoEntry(true, names...)
	other, _ := newMemoEntry(true, names[:20]...) // another corpus
	plain, _ := newMemoEntry(false, names...)
	ref := &prefixRanker{names: names}
	uncachedTokens := func(q string) int64 {
		return e.raw.Count(appendSearchCall(nil, []byte(q))) + e.params.MessageOverheadTokens
	}
	check := func(qi int, q string) {
		t.Helper()
		for _, ent := range []*rankerEntry{nested, other, plain} {
			for _, k := range []int{3, 1, minNestedK + 2, 3*minNestedK + 1, 8} {
				want := ref.Rank(q, min(k, len(ent.tools)))
				if len(ent.tools) < len(names) {
					want = (&prefixRanker{names: names[:len(ent.tools)]}).Rank(q, min(k, len(ent.tools)))
				}
				if got := r.rank(qi, ent, q, k); !slices.Equal(got, want) {
					t.Errorf("rank(%d, %q, k %d) over %d tools = %v, want %v", qi, q, k, len(ent.tools), got, want)
				}
			}
		}
		if got, want := r.callTokens(qi, []byte(q)), uncachedTokens(q); got != want {
			t.Errorf("callTokens(%d, %q) = %d, want %d", qi, q, got, want)
		}
	}
	queries := []string{"t0", "t1", "t", `say "t"`, "select:t01,t02", "t0", "t", "none"}
	at := map[string]int{}
	for i, q := range queries {
		qi := r.sessionQuery([]byte(q))
		if i%2 == 1 {
			qi = r.sessionQueryString(q)
		}
		if i, ok := at[q]; ok && i != qi {
			t.Errorf("query %q is entry %d, then %d", q, i, qi)
		}
		at[q] = qi
		check(qi, q)
	}
	if n := len(r.sess.queries); n != len(at) {
		t.Errorf("%d distinct queries make %d entries", len(at), n)
	}
	// A full table answers -1; the searches still get the right answers.
	for i := len(r.sess.queries); i < maxSessionQueries; i++ {
		r.sessionQuery(fmt.Appendf(nil, "q%d", i))
	}
	if qi := r.sessionQuery([]byte("t2")); qi != -1 {
		t.Errorf("a query past %d entries is entry %d, want -1", maxSessionQueries, qi)
	}
	check(-1, "t2")
	// A new session starts empty; so does one with too long a query.
	r.resetQueries()
	if qi := r.sessionQuery([]byte("t1")); qi != 0 || r.sess.queries[0].counted || len(r.sess.queries[0].ranks) != 0 {
		t.Errorf("after a reset: entry %d of %d, counted %v, %d rankings; want a fresh entry 0",
			qi, len(r.sess.queries), r.sess.queries[0].counted, len(r.sess.queries[0].ranks))
	}
	check(0, "t1")
	long := strings.Repeat("t", maxSessionQueryBytes)
	if qi := r.sessionQuery([]byte(long)); qi != -1 {
		t.Errorf("a query of %d bytes is entry %d, want -1", len(long), qi)
	}
	check(-1, long)
}

// TestFamilyMemberIsMatchList pins the replayer's memo of family members
// (familyMember): for every strategy and tool, asked twice in either
// order of strategies, it answers what matchList answers.
func TestFamilyMemberIsMatchList(t *testing.T) {
	always := Trigger{Mode: "always"}
	e := newTestEngine(t, []Strategy{
		{Name: "plain", Trigger: always},
		{Name: "prefix", Trigger: always, Search: Search{Family: []string{"browser_*"}, FamilyCore: []string{"browser_click"}}},
		{Name: "exact", Trigger: always, Search: Search{Family: []string{"s:notes", "other:browser_*"}, FamilyCore: []string{"notes"}}},
	}, []testTool{{"browser_navigate", 100, 0}, {"browser_click", 100, 0}, {"notes", 100, 0}, {"browse", 100, 0}})
	r := newReplayer(e)
	for _, order := range [][]int{{2, 0, 1}, {0, 1, 2}} {
		for _, si := range order {
			r.si, r.s = si, &e.strategies[si]
			for _, ti := range slices.Backward(e.tables.all) {
				if got, want := r.familyMember(ti), matchList(r.s.Search.Family, ti.server, ti.name); got != want {
					t.Errorf("strategy %s, tool %s: familyMember = %v, want %v", r.s.Name, ti.name, got, want)
				}
			}
		}
	}
}

// TestSelectTokensIsTheCallSize pins the per-tool memo of "select:NAME"
// call sizes (selectTokens): asked twice, with other searches in between,
// it answers what the tokenizer says of the call without any memo.
func TestSelectTokensIsTheCallSize(t *testing.T) {
	e := newTestEngine(t, nil, []testTool{{"read_file", 10, 0}, {`odd"name<x>`, 10, 0}, {"a", 10, 0}})
	r := newReplayer(e)
	for round := range 2 {
		for _, ti := range e.tables.all {
			want := e.raw.Count(appendSearchCall(nil, []byte("select:"+ti.name))) + e.params.MessageOverheadTokens
			if got := r.selectTokens(ti); got != want {
				t.Errorf("round %d: selectTokens(%s) = %d, want %d", round, ti.name, got, want)
			}
			r.searchCallTokens([]byte("something else"))
		}
	}
}
