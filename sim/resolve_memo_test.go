package sim

import "testing"

// TestResolveAtFollowsTheRegistry pins the memo of call resolutions
// (resolveAt): a call resolved under one registry is resolved again under
// another (here the server's next version, which serves the tool under a
// new id, then a version without it), and the memo answers what resolve
// answers in each.
func TestResolveAtFollowsTheRegistry(t *testing.T) {
	e := newTestEngine(t, []Strategy{{Name: "eager", Trigger: Trigger{Mode: "never"}}}, []testTool{{"a", 100, 0}, {"b", 100, 0}})
	v1 := e.tables.byKey["s@1"]
	v2 := &serverTable{name: "s", version: "2"}
	v3 := &serverTable{name: "s", version: "3"}
	for _, ti := range v1.tools {
		c := *ti
		c.id = int32(len(e.tables.all))
		e.tables.all = append(e.tables.all, &c)
		v2.tools = append(v2.tools, &c)
		if c.name != "a" {
			v3.tools = append(v3.tools, &c)
		}
	}
	e.computeFlags()
	n := compactNeed(&Need{SessionID: "s", Steps: []Step{user(1), call("a"), reply()}})
	r := newReplayer(e)
	r.n = n
	for _, tc := range []struct {
		table *serverTable
		want  *Tool // nil: not served
	}{
		{v1, v1.tools[0]}, {v1, v1.tools[0]}, {v2, v2.tools[0]}, {v3, nil}, {v1, v1.tools[0]},
	} {
		r.st.set, _ = e.set([]*serverTable{tc.table}, nil)
		c := &n.calls[0]
		if got, want := r.resolveAt(0, c), r.resolve(c); got != want || got != tc.want {
			t.Fatalf("s@%s: resolveAt = %v, resolve = %v, want %v", tc.table.version, got, want, tc.want)
		}
	}
}
