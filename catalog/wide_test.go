package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// widePair returns two versions of a tool whose schema has n plain
// properties p0000… (all required) besides the ones that change: p0007
// removed, p0005's type changed, per_page renamed to perPage, extra added
// (and required).
func widePair(n int) (a, b string) {
	props := func(v2 bool) string {
		var ps, req []string
		for i := range n {
			k := fmt.Sprintf("p%04d", i)
			if v2 && i == 7 {
				continue
			}
			typ := "string"
			if v2 && i == 5 {
				typ = "integer"
			}
			ps = append(ps, fmt.Sprintf(`%q:{"type":%q,"description":"field %d"}`, k, typ, i))
			req = append(req, fmt.Sprintf("%q", k))
		}
		if v2 {
			ps = append(ps, `"perPage":{"type":"integer"}`, `"extra":{"type":"string"}`)
			req = append(req, `"extra"`)
		} else {
			ps = append(ps, `"per_page":{"type":"integer"}`)
		}
		return `{"name":"wide","inputSchema":{"type":"object","properties":{` + strings.Join(ps, ",") +
			`},"required":[` + strings.Join(req, ",") + `]}}`
	}
	return props(false), props(true)
}

// TestWideSchemasDiffLikeNarrowOnes pins that the index that made diffing
// wide schemas linear changes the cost, not the answer. Diffing a schema of
// many properties was quadratic in their number (every member looked up by
// a scan of the other object's members; "required" compared by scans
// too): a run over a catalog with a 25,000-property schema spent most of
// its 87 s in PropertyRenames (cmd/defersim TestRunHostileCatalogs; now
// 6 s; BenchmarkDiffWideSchema measures it). The changes and renames of a
// wide schema (members found through the index) must be those of the same
// schema with a few properties (found by scan).
func TestWideSchemasDiffLikeNarrowOnes(t *testing.T) {
	narrowA, narrowB := widePair(10)
	wideA, wideB := widePair(3000)
	diff := func(a, b string) ([]Change, []PropertyRename) {
		ta, tb := mustTool(t, a), mustTool(t, b)
		tc, changed := DiffTool(ta, tb)
		if !changed {
			t.Fatal("no change found")
		}
		return tc.Changes, PropertyRenames(ta, tb)
	}
	nc, nr := diff(narrowA, narrowB)
	wc, wr := diff(wideA, wideB)
	if d := cmp.Diff(nc, wc); d != "" {
		t.Errorf("changes of the wide schema differ from the narrow one's (-narrow +wide):\n%s", d)
	}
	if d := cmp.Diff(nr, wr); d != "" {
		t.Errorf("renames of the wide schema differ from the narrow one's (-narrow +wide):\n%s", d)
	}
	var kinds []string
	for _, c := range wc {
		kinds = append(kinds, c.Path+" "+string(c.Kind))
	}
	for _, want := range []string{"properties.p0007 " + string(KindPropertyRemoved), "properties.per_page " + string(KindPropertyRenamed),
		"properties.extra " + string(KindPropertyAdded), "inputSchema.required " + string(KindRequiredAdded), "inputSchema.required " + string(KindRequiredRemoved)} {
		if !strings.Contains(strings.Join(kinds, "\n"), want) {
			t.Errorf("changes %q lack %q", kinds, want)
		}
	}
	if len(wr) != 1 || wr[0].From != "per_page" || wr[0].To != "perPage" {
		t.Errorf("renames %+v, want per_page → perPage", wr)
	}
}

// TestGetFindsEveryMember pins value.get on both of its paths: objects
// above indexMembers (indexed at parse) and below (scanned), and objects
// built in code (never indexed): every member found, a missing key nil.
func TestGetFindsEveryMember(t *testing.T) {
	for _, n := range []int{0, 1, indexMembers, indexMembers + 1, 200} {
		var ms []string
		for i := range n {
			ms = append(ms, fmt.Sprintf(`"k%d":%d`, i, i))
		}
		v, err := parseValue([]byte("{" + strings.Join(ms, ",") + "}"))
		if err != nil {
			t.Fatal(err)
		}
		if indexed := v.index != nil; indexed != (n > indexMembers) {
			t.Errorf("%d members: indexed %v", n, indexed)
		}
		built := &value{kind: kObject, members: v.members}
		for _, obj := range []*value{v, built} {
			for i := range n {
				if got := obj.get(fmt.Sprintf("k%d", i)); got == nil || got.text != fmt.Sprint(i) {
					t.Errorf("%d members (indexed %v): get(k%d) = %v", n, obj.index != nil, i, got)
				}
			}
			if got := obj.get("missing"); got != nil {
				t.Errorf("%d members: get(missing) = %v", n, got)
			}
		}
	}
}
