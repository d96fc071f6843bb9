package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPropertyRenames pins the structured form of Diff's property renames
// that the engine hands the validator: the root's per_page → perPage (same
// name ignoring case and separators), a nested one reached through
// properties (opts.sortBy → opts.sort_by, with a quoted key on the way),
// none for a rename inside array items (not a plain properties path), and
// none without evidence (a removal and an addition).
func TestPropertyRenames(t *testing.T) {
	a := mustTool(t, `{"name":"list","inputSchema":{"type":"object","properties":{
		"per_page":{"type":"integer"},
		"opts":{"type":"object","properties":{"sortBy":{"type":"string"}}},
		"a.b":{"type":"object","properties":{"x_y":{"type":"string"}}},
		"rows":{"type":"array","items":{"type":"object","properties":{"colName":{"type":"string"}}}},
		"q":{"type":"string"}}}}`)
	b := mustTool(t, `{"name":"list","inputSchema":{"type":"object","properties":{
		"perPage":{"type":"integer"},
		"opts":{"type":"object","properties":{"sort_by":{"type":"string"}}},
		"a.b":{"type":"object","properties":{"xY":{"type":"string"}}},
		"rows":{"type":"array","items":{"type":"object","properties":{"col_name":{"type":"string"}}}},
		"limit":{"type":"integer"}}}}`)
	want := []PropertyRename{
		{Parent: []string{"a.b"}, From: "x_y", To: "xY"},
		{Parent: []string{"opts"}, From: "sortBy", To: "sort_by"},
		{From: "per_page", To: "perPage"},
	}
	got := PropertyRenames(a, b)
	if d := cmp.Diff(want, got, cmp.Comparer(func(x, y []string) bool { return len(x) == len(y) && (len(x) == 0 || cmp.Equal(x, y)) })); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := PropertyRenames(a, a); got != nil {
		t.Errorf("same tool: %v", got)
	}
}

func TestSplitPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		keys []string
		ok   bool
	}{
		{"inputSchema", []string{"inputSchema"}, true},
		{joinKey(joinKey(joinKey("inputSchema", "properties"), "a.b"), "properties"), []string{"inputSchema", "properties", "a.b", "properties"}, true},
		{joinKey(joinKey("inputSchema", "properties"), `we"ird]`), []string{"inputSchema", "properties", `we"ird]`}, true},
		{joinIndex(joinKey("inputSchema", "anyOf"), 1), nil, false},
		{"inputSchema..x", nil, false},
		{`inputSchema["open`, nil, false},
	} {
		keys, ok := splitPath(tc.path)
		if ok != tc.ok || !cmp.Equal(keys, tc.keys) {
			t.Errorf("splitPath(%q) = %q, %v; want %q, %v", tc.path, keys, ok, tc.keys, tc.ok)
		}
	}
}
