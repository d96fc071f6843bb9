package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionGapIsWhatTheReplayOffers pins that the version gap ("no
// training session used the catalog version priced") reads the versions
// the replay offers the sessions (sim.Engine.NeedVersions), as the shares
// do: a session naming no server is replayed on every server's latest,
// and a catalog_change moves it to the version named. It read the versions
// the session_starts name, so a log whose sessions moved to 2.0.0 (or
// named no server) was warned that no session used 2.0.0, and read_doc was
// said to be "in no version the sessions used", while its shares were over
// the 10 sessions replayed on 2.0.0.
func TestVersionGapIsWhatTheReplayOffers(t *testing.T) {
	for _, tc := range []struct {
		name string
		// start is session i's session_start servers; moved, whether a
		// catalog_change moves it to srv@2.0.0 before it opens.
		start  func(i int) string
		moved  func(i int) bool
		gap    bool
		served int // the training sessions that could call read_doc
	}{
		{"every session on 1.0.0", func(int) string { return `{"name":"srv","version":"1.0.0"}` }, func(int) bool { return false }, true, 0},
		{"the last 10 moved to 2.0.0", func(int) string { return `{"name":"srv","version":"1.0.0"}` }, func(i int) bool { return i >= 30 }, false, 10},
		{"the last 10 naming no server", func(i int) string {
			if i >= 30 {
				return ""
			}
			return `{"name":"srv","version":"1.0.0"}`
		}, func(int) bool { return false }, false, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace, cat := movedOpenerFixture(t, tc.start, tc.moved)
			cfg := defaultConfig(t, trace, cat)
			cfg.TestShare = 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(strings.Join(p.Warnings, "\n"), "no training session used the catalog version priced")
			if (p.VersionGap != nil) != tc.gap || warned != tc.gap {
				t.Errorf("gap %+v, warned %v: want a gap %v (warnings %q)", p.VersionGap, warned, tc.gap, p.Warnings)
			}
			for _, a := range p.Tools {
				if a.Key.Tool != "read_doc" {
					continue
				}
				if a.Sessions != tc.served {
					t.Errorf("read_doc's shares are over %d sessions, want %d", a.Sessions, tc.served)
				}
				// The why and the gap agree: "in no version the sessions
				// used" only when no session could call it.
				if noVersion := strings.Contains(a.Why, "in no version the sessions used"); noVersion != (tc.served == 0) {
					t.Errorf("read_doc why %q: says no version the sessions used serves it %v, with %d sessions that could call it", a.Why, noVersion, a.Sessions)
				}
			}
		})
	}
}

// movedOpenerFixture writes srv@1.0.0 (open_doc, look) and srv@2.0.0
// (read_doc, look), and 40 sessions: session i's session_start names
// start(i) ("" none), and it opens with open_doc, or, when moved(i) (a
// catalog_change to srv@2.0.0 first) or it names no server, with read_doc.
func movedOpenerFixture(t *testing.T, start func(i int) string, moved func(i int) bool) (trace, cat string) {
	t.Helper()
	dir := t.TempDir()
	cat = filepath.Join(dir, "catalog")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	for v, opener := range map[string]string{"1.0.0": "open_doc", "2.0.0": "read_doc"} {
		body := fmt.Sprintf(`{"tools":[{"name":%q,"description":"Open a document by id.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}},`+
			`{"name":"look","description":"Look.","inputSchema":{"type":"object"}}]}`, opener)
		if err := os.WriteFile(filepath.Join(cat, "srv@"+v+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for i := range 40 {
		id, ts := fmt.Sprintf("s%02d", i), "2026-01-01T00:00:00Z"
		servers := start(i)
		opener := "open_doc"
		if servers == "" || moved(i) {
			opener = "read_doc"
		}
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,"t":%q,"servers":[%s]}`+"\n", id, ts, servers)
		fmt.Fprintf(&b, `{"type":"user","session":%q,"t":%q,"text":"open my doc"}`+"\n", id, ts)
		if moved(i) {
			fmt.Fprintf(&b, `{"type":"catalog_change","session":%q,"t":%q,"server":"srv","version":"2.0.0"}`+"\n", id, ts)
		}
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r1"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,"t":%q,"request":"r1","call_id":"c1","tool":%q,"server":"srv","args":{"id":"x"}}`+"\n", id, ts, opener)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r2"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"assistant","session":%q,"t":%q,"text":"here it is"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,"t":%q}`+"\n", id, ts)
	}
	trace = filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace, cat
}
