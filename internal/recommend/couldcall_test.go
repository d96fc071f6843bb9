package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCouldCallIsWhatTheReplayOffers pins who could call a tool — a
// tool's shares' denominator (Usage.Served) — as what the replay offers a
// session (sim.Engine.NeedVersions): the servers its session_start names,
// at the versions named, every server at its latest when it names none,
// and the version a catalog_change moves a server to. A session naming
// servers a and b only counted as able to call c's tools (it named no
// version of c, "the replay gives it the version priced"), though its
// replay offers no c at all: c1's shares were over 10 sessions, not 6.
func TestCouldCallIsWhatTheReplayOffers(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	tool := func(name string) string {
		return fmt.Sprintf(`{"name":%q,"description":"Open a document by id.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}`, name)
	}
	for file, tools := range map[string][]string{
		"a@1.0.0.json": {"a1"}, "b@1.0.0.json": {"b1"}, "c@1.0.0.json": {"c1"}, "c@2.0.0.json": {"c1", "c2"},
	} {
		var ts []string
		for _, n := range tools {
			ts = append(ts, tool(n))
		}
		if err := os.WriteFile(filepath.Join(cat, file), []byte(`{"tools":[`+strings.Join(ts, ",")+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ten sessions: four naming a and b (opening with a1), two naming no
	// server (opening with c2), two naming c 1.0.0 (opening with c1), two
	// naming c 1.0.0 that call c1, move to c 2.0.0 and call c2.
	var b strings.Builder
	ts := "2026-01-01T00:00:00Z"
	n := 0
	session := func(servers string, calls ...string) {
		id := fmt.Sprintf("s%02d", n)
		n++
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,"t":%q,"servers":[%s]}`+"\n", id, ts, servers)
		fmt.Fprintf(&b, `{"type":"user","session":%q,"t":%q,"text":"open my doc"}`+"\n", id, ts)
		for i, c := range calls {
			if srv, version, ok := strings.Cut(c, "@"); ok {
				fmt.Fprintf(&b, `{"type":"catalog_change","session":%q,"t":%q,"server":%q,"version":%q}`+"\n", id, ts, srv, version)
				continue
			}
			fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r%d"}`+"\n", id, ts, i)
			fmt.Fprintf(&b, `{"type":"tool_call","session":%q,"t":%q,"request":"r%d","call_id":"c%d","tool":%q,"server":%q,"args":{"id":"x"}}`+"\n", id, ts, i, i, c, c[:1])
		}
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"rz"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"assistant","session":%q,"t":%q,"text":"here it is"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,"t":%q}`+"\n", id, ts)
	}
	for range 4 {
		session(`{"name":"a","version":"1.0.0"},{"name":"b","version":"1.0.0"}`, "a1")
	}
	for range 2 {
		session("", "c2")
	}
	for range 2 {
		session(`{"name":"c","version":"1.0.0"}`, "c1")
	}
	for range 2 {
		session(`{"name":"c","version":"1.0.0"}`, "c1", "c@2.0.0", "c2")
	}
	trace := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool     toolKey
		sessions int
		open     float64
		use      float64
	}{
		// a and b: the four sessions naming them, the two naming none.
		{toolKey{"a", "a1"}, 6, 4.0 / 6, 4.0 / 6},
		{toolKey{"b", "b1"}, 6, 0, 0},
		// c1: every session offered c (1.0.0 or 2.0.0), not those naming a and b.
		{toolKey{"c", "c1"}, 6, 4.0 / 6, 4.0 / 6},
		// c2: 2.0.0 only: the sessions naming no server, and those moved to it.
		{toolKey{"c", "c2"}, 4, 2.0 / 4, 4.0 / 4},
	} {
		t.Run(tc.tool.Server+":"+tc.tool.Tool, func(t *testing.T) {
			var a *Assessment
			for i := range p.Tools {
				if p.Tools[i].Key == tc.tool {
					a = &p.Tools[i]
				}
			}
			if a == nil {
				t.Fatalf("no assessment of %v in %+v", tc.tool, p.Tools)
			}
			if a.Sessions != tc.sessions || a.OpenShare != tc.open || a.UseShare != tc.use {
				t.Errorf("over %d sessions: opens %v, called in %v; want over %d: %v, %v", a.Sessions, a.OpenShare, a.UseShare, tc.sessions, tc.open, tc.use)
			}
		})
	}
}
