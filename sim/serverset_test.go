package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// setEngine builds an engine over servers "a" (versions 1 and 2) and "b",
// with two strategies that defer different tools.
func setEngine(t *testing.T) *Engine {
	t.Helper()
	var servers []*catalog.Server
	for _, s := range []struct{ name, version, tools string }{
		{"a", "1", `{"name":"get_x","inputSchema":{"type":"object"}},{"name":"put_x","inputSchema":{"type":"object"}}`},
		{"a", "2", `{"name":"get_x","inputSchema":{"type":"object","required":["id"]}},{"name":"put_x","inputSchema":{"type":"object"}}`},
		{"b", "1", `{"name":"get_x","inputSchema":{"type":"object"}},{"name":"find","inputSchema":{"type":"object"}}`},
	} {
		srv, err := catalog.Parse([]byte(`{"tools":[`+s.tools+`]}`), s.name, s.version, "")
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, srv)
	}
	strategies := []Strategy{
		{Name: "all", Trigger: Trigger{Mode: "count", Count: 3}},
		{Name: "gets", Trigger: Trigger{Mode: "always"}, Scope: "always-defer-only", AlwaysDefer: []string{"get_*"}},
	}
	for i := range strategies {
		fillTestDefaults(&strategies[i])
	}
	e, err := NewEngine(Config{Strategies: strategies, Model: testModel(), Params: testParams(), Catalog: catalog.New(servers...)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestServerSetMatchesItsTables checks a set's lookups and per-strategy
// facts against the tables they are derived from, as the replay used to
// derive them per session.
func TestServerSetMatchesItsTables(t *testing.T) {
	e := setEngine(t)
	tt := e.tables
	a1, a2, b1 := tt.byKey["a@1"], tt.byKey["a@2"], tt.byKey["b@1"]
	for _, tables := range [][]*serverTable{{a1, b1}, {a2, b1}, {b1}, {a1, a1}, {}} {
		set, _ := e.set(tables, nil)
		if !slices.Equal(set.tables, tables) {
			t.Errorf("set.tables = %v, want %v", set.tables, tables)
		}
		byName, bySrv := map[string]*Tool{}, map[toolKey]*Tool{}
		var pos int
		for i, tb := range tables {
			for _, ti := range tb.tools {
				if byName[ti.name] == nil {
					byName[ti.name] = ti
				}
				bySrv[toolKey{ti.server, ti.name}] = ti
				if st := set.tools[pos]; st.id != ti.id || st.ident != ti.ident || int(st.table) != i ||
					set.blks[pos] != (block{h: ti.h, tokens: ti.tokens, schema: true}) {
					t.Errorf("tools[%d] = %+v %+v, want tool %s of table %d", pos, st, set.blks[pos], ti.name, i)
				}
				pos++
			}
			if set.tableEnd[i] != pos {
				t.Errorf("tableEnd[%d] = %d, want %d", i, set.tableEnd[i], pos)
			}
		}
		if len(byName) != len(set.byName) || len(bySrv) != len(set.bySrv) {
			t.Errorf("%d names, %d tools; want %d, %d", len(set.byName), len(set.bySrv), len(byName), len(bySrv))
		}
		for k, ti := range byName {
			if set.byName[k] != ti {
				t.Errorf("byName[%s] = %v, want %v", k, set.byName[k], ti)
			}
		}
		for k, ti := range bySrv {
			if set.bySrv[k] != ti {
				t.Errorf("bySrv[%v] = %v, want %v", k, set.bySrv[k], ti)
			}
		}
		if dup := len(tables) == 2 && tables[0] == tables[1]; dup != (set.identPos == nil) {
			t.Errorf("identPos nil = %v for tables %v", set.identPos == nil, tables)
		}
		for si := range e.strategies {
			if got, want := set.strat[si].staticOn, e.staticTrigger(si, tables, e.flags[si]); got != want {
				t.Errorf("strategy %d: staticOn = %v, want %v", si, got, want)
			}
			if got, want := len(set.strat[si].direct), (len(set.tools)+63)/64; got != want {
				t.Fatalf("strategy %d: %d words of direct, want %d", si, got, want)
			}
			for p, st := range set.tools {
				want := e.flags[si][st.id]&flagDeferrable == 0
				if got := set.strat[si].direct[p>>6]&(1<<(p&63)) != 0; got != want {
					t.Errorf("strategy %d: position %d direct = %v, want %v", si, p, got, want)
				}
			}
		}
	}
}

func TestServerSetsAreSharedAndBounded(t *testing.T) {
	e := setEngine(t)
	a1, b1 := e.tables.byKey["a@1"], e.tables.byKey["b@1"]
	tables := []*serverTable{a1, b1}
	s1, key := e.set(tables, nil)
	tables[0] = b1 // the caller reuses its slice
	if s1.tables[0] != a1 {
		t.Fatal("the set shares the caller's slice")
	}
	if s2, _ := e.set([]*serverTable{a1, b1}, key); s2 != s1 {
		t.Error("the same server versions gave two sets")
	}
	if s3, _ := e.set([]*serverTable{b1, a1}, key); s3 == s1 {
		t.Error("another order gave the same set")
	}
	// Past the bound, sets are still right but not kept.
	for n := 1; n <= maxServerSets+10; n++ {
		tables := slices.Repeat([]*serverTable{b1}, n)
		set, _ := e.set(tables, nil)
		if len(set.tables) != n || len(set.tools) != n*len(b1.tools) {
			t.Fatalf("set of %d tables: %d tables, %d tools", n, len(set.tables), len(set.tools))
		}
	}
	if n := len(e.sets.m); n > maxServerSets {
		t.Errorf("%d server sets kept, want at most %d", n, maxServerSets)
	}
	tools := 0
	for _, set := range e.sets.m {
		tools += len(set.tools)
	}
	if tools != e.sets.tools || tools > maxSetTools {
		t.Errorf("the kept sets hold %d tools (counted %d), want at most %d", tools, e.sets.tools, maxSetTools)
	}
}

func TestSetKeyIsUnambiguous(t *testing.T) {
	x := []*serverTable{{name: "a@b", version: "c"}}
	y := []*serverTable{{name: "a", version: "b@c"}}
	z := []*serverTable{{name: "a", version: ""}, {name: "b", version: "c"}}
	kx, ky, kz := string(setKey(nil, x)), string(setKey(nil, y)), string(setKey(nil, z))
	if kx == ky || kx == kz || ky == kz {
		t.Errorf("keys collide: %q %q %q", kx, ky, kz)
	}
}

// TestWarmSetIndex checks the warm set's index against a search of its
// entries through random loads, evictions, drops and resets.
func TestWarmSetIndex(t *testing.T) {
	tools := make([]*Tool, 40)
	for i := range tools {
		tools[i] = &Tool{ident: int32(i % 20), tokens: int64(1 + i%7), server: "s", name: fmt.Sprint(i % 20), fp: fmt.Sprint(i)}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reg := NewRegistry()
	plan := func() *plan {
		s := Strategy{Name: "w", Trigger: Trigger{Mode: TriggerAlways},
			Warm: WarmSet{Key: warmKeyFingerprint, MaxTools: rng.IntN(6), MaxTokens: int64(rng.IntN(30)), Eviction: []string{"lrl", "lru"}[rng.IntN(2)]}}
		p, err := reg.resolve(&s, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var w warmSet
	w.reset(plan())
	for step := range 5000 {
		switch op := rng.IntN(20); {
		case op == 0:
			w.reset(plan())
		case op == 1:
			fresh := tools[rng.IntN(len(tools))]
			w.registryChanged(&serverSet{bySrv: map[toolKey]*Tool{{fresh.server, fresh.name}: fresh}})
		case op < 5:
			w.touch(int32(rng.IntN(25)))
		default:
			w.add(tools[rng.IntN(len(tools))])
		}
		for ident := int32(0); ident < 25; ident++ {
			want := -1
			for i := range w.entries {
				if w.entries[i].Tool.ident == ident {
					want = i
				}
			}
			if got := w.find(ident); got != want {
				t.Fatalf("step %d: find(%d) = %d, want %d", step, ident, got, want)
			}
		}
	}
}
