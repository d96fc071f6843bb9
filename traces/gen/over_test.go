package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/traces"
)

// notesV1 and notesV2 are a small hand-written server in two versions:
// write_note gains a required property, list_notes is unchanged,
// delete_note is added.
const notesV1 = `{"tools":[
 {"name":"write_note","description":"Save a note.","inputSchema":{"type":"object","properties":{
   "title":{"type":"string","minLength":1},"body":{"type":"string"},
   "tags":{"type":"array","items":{"type":"string"}},"priority":{"type":"string","enum":["low","normal","high"]},
   "due":{"type":"string","format":"date"},"pinned":{"type":"boolean"}},"required":["title"],"additionalProperties":false}},
 {"name":"list_notes","description":"List notes.","inputSchema":{"type":"object","properties":{
   "limit":{"type":"integer","minimum":1,"maximum":50},"query":{"type":"string"}}}}]}`

const notesV2 = `{"tools":[
 {"name":"write_note","description":"Save a note in a folder.","inputSchema":{"type":"object","properties":{
   "title":{"type":"string","minLength":1},"body":{"type":"string"},"folder":{"type":"string"},
   "tags":{"type":"array","items":{"type":"string"}},"priority":{"type":"string","enum":["low","normal","high"]},
   "due":{"type":"string","format":"date"},"pinned":{"type":"boolean"}},"required":["title","folder"],"additionalProperties":false}},
 {"name":"list_notes","description":"List notes.","inputSchema":{"type":"object","properties":{
   "limit":{"type":"integer","minimum":1,"maximum":50},"query":{"type":"string"}}}},
 {"name":"delete_note","description":"Delete a note.","inputSchema":{"type":"object","properties":{
   "note_id":{"type":"string"}},"required":["note_id"]}}]}`

const clockV1 = `{"tools":[{"name":"now","description":"The time.","inputSchema":{"type":"object"}}]}`

func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	var servers []*catalog.Server
	for _, f := range []struct{ name, version, data string }{
		{"notes", "1.0.0", notesV1}, {"notes", "2.0.0", notesV2}, {"clock", "1.0.0", clockV1},
	} {
		s, err := catalog.Parse([]byte(f.data), f.name, f.version, "")
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	return catalog.New(servers...)
}

func overParams(sessions int, mid float64, servers ...string) Params {
	p := Defaults()
	p.Sessions = sessions
	p.Over = &OverParams{Servers: servers, Schedule: ScheduleEven, MidSession: mid}
	return p
}

// schemasOf compiles every tool schema of every server version of g with
// formats asserted, keyed "server@version/tool".
func schemasOf(t *testing.T, g *Generator) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, s := range g.Servers() {
		for _, tl := range s.Tools {
			key := s.Key() + "@" + s.Version + "/" + tl.Name
			sch, err := compileAsserting(key, tl.InputSchema)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			out[key] = sch
		}
	}
	return out
}

// versionAt returns the version session i starts on under the schedule,
// as the replay engine reads after_session upgrades.
func versionAt(ups []ScheduledUpgrade, server, first string, i int) string {
	v := first
	for _, u := range ups {
		if u.Server == server && i >= u.AfterSession {
			v = u.To
		}
	}
	return v
}

// checkOverTrace checks every session of g: session_start names every
// series at the version the schedule gives (the first version before any
// upgrade; the latest on the latest schedule), catalog changes only move
// forward and never before the release, and every call's arguments are
// valid against the version in force (formats asserted). It returns the
// number of calls and of catalog changes.
func checkOverTrace(t *testing.T, g *Generator, cat *catalog.Catalog) (calls, changes int) {
	t.Helper()
	schemas := schemasOf(t, g)
	ups := g.Schedule()
	first := func(server string) string { return cat.Versions[server][0].Version }
	if g.p.Over.Schedule == ScheduleLatest {
		first = func(server string) string { return cat.Latest(server).Version }
	}
	releasedAt := map[string]ScheduledUpgrade{}
	for _, u := range ups {
		releasedAt[u.Server+"@"+u.To] = u
	}
	i := 0
	for s := range g.Sessions() {
		ver := map[string]string{}
		st := s.Start()
		if st == nil {
			t.Fatalf("%s: no session_start", s.ID)
		}
		for _, ref := range st.Servers() {
			want := versionAt(ups, ref.Name, first(ref.Name), i)
			if ref.Version != want {
				t.Fatalf("%s (session %d): starts %s at %s, schedule says %s", s.ID, i, ref.Name, ref.Version, want)
			}
			ver[ref.Name] = ref.Version
		}
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.CatalogChange:
				changes++
				if catalog.CompareVersions(ev.Version(), ver[ev.Server]) <= 0 {
					t.Fatalf("%s: catalog_change %s %s → %s does not move forward", s.ID, ev.Server, ver[ev.Server], ev.Version())
				}
				if u, ok := releasedAt[ev.Server+"@"+ev.Version()]; !ok || ev.T.Before(u.At) {
					t.Fatalf("%s: upgrade to %s@%s at %v, before its release (%+v)", s.ID, ev.Server, ev.Version(), ev.T, u)
				}
				ver[ev.Server] = ev.Version()
			case traces.ToolCall:
				calls++
				key := ev.Server + "@" + ver[ev.Server] + "/" + ev.Tool
				sch, ok := schemas[key]
				if !ok {
					t.Fatalf("%s: call to %s, which that version does not serve", s.ID, key)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ev.Args))
				if err != nil {
					t.Fatalf("%s: args %s not JSON: %v", s.ID, ev.Args, err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Fatalf("%s %s: args %s invalid: %v", s.ID, key, ev.Args, err)
				}
			}
		}
		i++
	}
	return calls, changes
}

func TestOverSessions(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name       string
		p          Params
		wantSeries []string
		minChanges int
	}{
		{"default servers", overParams(120, 0), []string{"notes"}, 0},
		{"named servers", overParams(120, 0, "notes", "clock"), []string{"clock", "notes"}, 0},
		{"resumed sessions", overParams(120, 1, "notes", "clock"), []string{"clock", "notes"}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewOver(cat, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range g.over.series {
				got = append(got, s.key)
			}
			if d := cmp.Diff(tc.wantSeries, got); d != "" {
				t.Fatalf("series (-want +got):\n%s", d)
			}
			want := []ScheduledUpgrade{{Server: "notes", To: "2.0.0", AfterSession: 60}}
			if d := cmp.Diff(want, g.Schedule(), cmp.Comparer(func(a, b ScheduledUpgrade) bool {
				return a.Server == b.Server && a.To == b.To && a.AfterSession == b.AfterSession
			})); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
			calls, changes := checkOverTrace(t, g, cat)
			if calls == 0 {
				t.Fatal("no calls generated")
			}
			if changes < tc.minChanges {
				t.Errorf("%d catalog changes, want at least %d", changes, tc.minChanges)
			}
			t.Logf("%d calls valid, %d catalog changes", calls, changes)
		})
	}
}

// TestOverArgsVary checks that optional members and values vary between
// calls (not always Example's minimal instance) and stay valid.
func TestOverArgsVary(t *testing.T) {
	cat := testCatalog(t)
	ot := newOverTool("notes", cat.At("notes", "1.0.0").Tool("write_note"))
	if ot.sch == nil {
		t.Fatal("schema did not compile")
	}
	r := newRNG(1, streamSession, 0)
	distinct := map[string]bool{}
	withDue := 0
	for range 200 {
		a := ot.args(r, &domains[0], 0.5)
		if !ot.valid(a) {
			t.Fatalf("invalid args %s", a)
		}
		distinct[string(a)] = true
		if bytes.Contains(a, []byte(`"due"`)) {
			withDue++
		}
	}
	if len(distinct) < 20 {
		t.Errorf("only %d distinct argument objects in 200 calls", len(distinct))
	}
	// due is optional: given in about half of the calls (4 binomial SEs).
	if withDue < 100-4*7 || withDue > 100+4*7 {
		t.Errorf("optional member given in %d of 200 calls, want about 100", withDue)
	}
}

func TestOverDeterministic(t *testing.T) {
	cat := testCatalog(t)
	write := func() map[string][]byte {
		g, err := NewOver(cat, overParams(40, 0.5, "notes", "clock"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := g.WriteDir(dir, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = b
		}
		return out
	}
	a, b := write(), write()
	var names []string
	for n := range a {
		names = append(names, n)
	}
	slices.Sort(names)
	if d := cmp.Diff([]string{ParamsFile, TraceFile, UpgradesFile}, names); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	for n := range a {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two identical generations", n)
		}
	}
	// params.yaml reads back to the same parameters.
	p, err := ParseParams(a[ParamsFile])
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(overParams(40, 0.5, "notes", "clock"), p); d != "" {
		t.Errorf("params.yaml round trip (-want +got):\n%s", d)
	}
}

// TestOverGolden pins a tiny over-mode generation (schedule and three
// sessions) so unintended changes to the output are seen in review.
func TestOverGolden(t *testing.T) {
	g, err := NewOver(testCatalog(t), overParams(3, 1, "notes", "clock"))
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	w := traces.NewWriter(&trace, false)
	for s := range g.Sessions() {
		if err := w.WriteSession(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{
		"over-upgrades.yaml": g.UpgradesYAML(),
		"over-trace.jsonl":   trace.Bytes(),
	} {
		path := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create)", err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s differs (-want +got; run with -update if intended):\n%s", name, d)
		}
	}
}

func TestOverErrors(t *testing.T) {
	cat := testCatalog(t)
	single := catalog.New(cat.Latest("clock"))
	for _, tc := range []struct {
		name string
		cat  *catalog.Catalog
		p    Params
		want string
	}{
		{"unknown server", cat, overParams(10, 0, "nope"), `"nope" is not a server of the catalog`},
		{"duplicate server", cat, overParams(10, 0, "notes", "notes"), "appears twice"},
		{"bad schedule", cat, func() Params { p := overParams(10, 0); p.Over.Schedule = "weekly"; return p }(), "unknown schedule"},
		{"bad mid_session", cat, overParams(10, 1.5), "over.mid_session"},
		{"no multi-version server", single, overParams(10, 0), "no server has two or more versions"},
		{"no catalog", nil, overParams(10, 0), "no catalog"},
		{"version without tools", catalog.New(cat.At("notes", "1.0.0"), func() *catalog.Server {
			s, err := catalog.Parse([]byte(`{"tools":[]}`), "notes", "3.0.0", "")
			if err != nil {
				t.Fatal(err)
			}
			return s
		}()), overParams(10, 0), "notes@3.0.0 serves no tools"},
		{"bad session params", cat, func() Params { p := overParams(10, 0); p.Zipf = -1; return p }(), "zipf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewOver(tc.cat, tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := New(overParams(10, 0)); err == nil || !strings.Contains(err.Error(), "NewOver") {
		t.Errorf("New with over set: err = %v, want a pointer to NewOver", err)
	}
}

func TestOverParamsYAML(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       *OverParams
		wantErr    string
	}{
		{"absent", "sessions: 3\n", nil, ""},
		{"defaults fill the block", "over: {servers: [a]}\n", &OverParams{Servers: []string{"a"}, Schedule: ScheduleEven, MidSession: 0.08}, ""},
		{"every key", "over: {servers: [a, b], schedule: latest, mid_session: 0.5}\n",
			&OverParams{Servers: []string{"a", "b"}, Schedule: ScheduleLatest, MidSession: 0.5}, ""},
		{"unknown key", "over: {mid: 0.5}\n", nil, `unknown key "mid"`},
		{"bad type", "over: {mid_session: lots}\n", nil, "cannot unmarshal"},
		{"bad schedule", "over: {schedule: weekly}\n", nil, "over.schedule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseParams([]byte(tc.yaml))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, p.Over); d != "" {
				t.Errorf("over (-want +got):\n%s", d)
			}
		})
	}
}

func TestOverLatestSchedule(t *testing.T) {
	cat := testCatalog(t)
	// over.mid_session other than its default is refused on this schedule
	// (TestIdleParametersAreRefused): there is nothing to resume across.
	p := overParams(30, DefaultOver().MidSession, "notes")
	p.Over.Schedule = ScheduleLatest
	g, err := NewOver(cat, p)
	if err != nil {
		t.Fatal(err)
	}
	if ups := g.Schedule(); ups != nil {
		t.Errorf("latest schedule has upgrades %+v", ups)
	}
	_, changes := checkOverTrace(t, g, cat)
	if changes != 0 {
		t.Errorf("%d catalog changes on the latest schedule, want 0", changes)
	}
	if !bytes.Contains(g.UpgradesYAML(), []byte("upgrades: []")) {
		t.Errorf("upgrades.yaml does not list notes without upgrades:\n%s", g.UpgradesYAML())
	}
}

func TestNameWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"browser_navigate", []string{"browser", "navigate"}},
		{"resolve-library-id", []string{"resolve", "library", "id"}},
		{"getPageContent", []string{"get", "page", "content"}},
		{"API-post-search", []string{"api", "post", "search"}},
		{"take_screenshot2x", []string{"take", "screenshot2x"}},
		{"", nil},
		{"__", nil},
	} {
		if d := cmp.Diff(tc.want, nameWords(tc.in)); d != "" {
			t.Errorf("nameWords(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

// TestOverRealCatalogs draws sessions over the multi-version servers of
// ../shared/data/catalogs and validates every call against the version in
// force (skipped when the data is absent).
func TestOverRealCatalogs(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	cat, err := catalog.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOver(cat, overParams(150, 0.3))
	if err != nil {
		t.Fatal(err)
	}
	for id, ot := range g.over.tools {
		if ot.sch == nil {
			t.Errorf("%s: schema does not compile with formats asserted", strings.ReplaceAll(id, "\x00", " "))
		}
	}
	calls, changes := checkOverTrace(t, g, cat)
	if changes == 0 {
		t.Error("no catalog change over real multi-version servers")
	}
	perServer := map[string]int{}
	for s := range g.Sessions() {
		for _, ev := range s.Events {
			if ev.Type == traces.ToolCall {
				perServer[ev.Server]++
			}
		}
	}
	for _, s := range g.over.series {
		if perServer[s.key] == 0 {
			t.Errorf("no call to %s", s.key)
		}
	}
	t.Logf("%d series, %d calls valid, %d catalog changes, calls per server %v", len(g.over.series), calls, changes, perServer)
}

// TestOverRealCatalogsAllBuildable backs docs/generator.md's "none of the
// shared catalogs' 815 tools is such a tool": over every server of
// ../shared/data/catalogs, valid arguments can be built for every tool, so
// Unbuildable is empty and no tool is left uncalled for that reason.
func TestOverRealCatalogsAllBuildable(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOver(cat, overParams(1, 0, cat.ServerNames()...))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range g.over.series {
		for _, v := range s.versions {
			for _, tl := range v.tools {
				names[s.key+"/"+tl.name] = true
			}
		}
	}
	if len(names) != 815 {
		t.Errorf("%d tools over every server, the doc says 815", len(names))
	}
	if un := g.Unbuildable(); len(un) > 0 {
		t.Errorf("%d tool versions without valid arguments, the doc says none: first %s: %s", len(un), un[0].Label(), un[0].Reason)
	}
}
